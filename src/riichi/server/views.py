"""What the client draws: a seat's state (its observation plus table facts) and,
for finished games only, replay frames with every hand open."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from riichi.game import Match, observe
from riichi.game.kyoku import Kyoku
from riichi.tiles import red_fives_set


def seat_state(
    match: Match,
    seat: int | None,
    players: Sequence[dict[str, Any]],
    kyoku: Kyoku | None = None,
) -> dict[str, Any]:
    """The observation of ``seat`` (None: a spectator) and what every viewer may know;
    of the finished hand ``kyoku`` as it stood at its end, when given."""
    state = observe(match, seat, kyoku).to_dict()
    state["players"] = list(players)
    state["red"] = sorted(red_fives_set(match.rules.red_fives))
    state["standings"] = standings_of(match)
    return state


def standings_of(match: Match) -> list[dict[str, Any]] | None:
    """The final standings as plain data, once the match is over."""
    return None if match.standings is None else [asdict(s) for s in match.standings]


def replay_frames(match: Match, players: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One frame before the first action and one after each: all hands open.

    Only ever built from a finished game, whose hands are no longer secret.
    """
    if match.standings is None:
        raise ValueError("replays open every hand, so only finished games have them")
    again = Match(match.rules, match.seed, match.players)
    frames = [_frame(again, players, None, 0)]
    for seat, action in match.actions:
        before = len(again.events)
        again.apply(seat, action)
        frames.append(_frame(again, players, f"{again.players[seat]}: {action}", before))
    return frames


def _frame(
    match: Match, players: Sequence[dict[str, Any]], label: str | None, since: int
) -> dict[str, Any]:
    state = seat_state(match, None, players)
    views = [observe(match, s) for s in range(match.rules.players)]
    state["hands"] = [list(v.hand or ()) for v in views]
    state["drawns"] = [v.drawn for v in views]
    state["hand_index"] = match.hand_index
    state["label"] = label
    state["events"] = [e.to_dict() for e in match.events[since:]]
    return state
