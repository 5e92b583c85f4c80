"""What the client draws: a seat's state (its observation plus table facts) and,
for finished games only, replay frames with every hand open."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from riichi.bots.efficiency import visible_counts
from riichi.game import Match, Observation, observe
from riichi.game.kyoku import Kyoku
from riichi.hand import ukeire, waits
from riichi.platform.tables import final_view, standings_of
from riichi.scoring.melds import Meld, MeldType
from riichi.tiles import counts_of, red_fives_set


def seat_state(
    match: Match,
    seat: int | None,
    players: Sequence[dict[str, Any]],
    kyoku: Kyoku | None = None,
    bet: int = 0,
) -> dict[str, Any]:
    """The observation of ``seat`` (None: a spectator) and what every viewer may know;
    of the finished hand ``kyoku`` as it stood at its end, when given; at the end, what
    each seat's final points are made of and the chips of a table with a ``bet``."""
    k = match.kyoku if kyoku is None else kyoku
    obs = observe(match, seat, kyoku)
    state = obs.to_dict()
    state["players"] = list(players)
    state["red"] = sorted(red_fives_set(match.rules.red_fives))
    state["standings"] = standings_of(match)
    state["final"] = final_view(match, bet)
    state["meld_info"] = [
        [_meld(m, s, len(k.seats)) for m in sk.melds] for s, sk in enumerate(k.seats)
    ]
    state["last_discard"] = _last_discard(k)
    aid = None if seat is None or kyoku is not None else tenpai_help(obs)
    if aid is not None and seat is not None:
        aid.update(furiten_of(k, seat, aid))
    state["tenpai"] = aid
    return state


def furiten_of(k: Kyoku, seat: int, aid: dict[str, Any]) -> dict[str, Any]:
    """Whether ``seat`` cannot win by ron now (``furiten``: a wait in its own river, a
    win let pass this turn or in riichi); with 14 tiles, the discards that would leave
    it furiten (``furiten_after``: the tile itself, or another wait, in its river)."""
    sk = k.seats[seat]
    river = sk.discarded_kinds()
    passed = sk.furiten_temp or sk.furiten_riichi
    if "waits" in aid:
        mask = sum(1 << kind for kind, _ in aid["waits"])
        return {"furiten": bool(passed or mask & river)}
    after = [
        int(kind)
        for kind, waits in aid.get("keeps", {}).items()
        if sk.furiten_riichi or any(river >> w & 1 or w == int(kind) for w, _ in waits)
    ]
    return {"furiten_after": after}


def _meld(meld: Meld, seat: int, players: int) -> dict[str, Any]:
    """A set as the table draws it: which tile was called and from which side (1 the
    seat to the right, 2 across, 3 the left, counted counter-clockwise), the added
    tile of a kakan."""
    return {
        "type": meld.type.value,
        "tiles": list(meld.tiles),
        "called": meld.called,
        "from": None if meld.from_seat is None else (meld.from_seat - seat) % players,
        "added": meld.tiles[3] if meld.type is MeldType.KAKAN else None,
    }


def _last_discard(k: Kyoku) -> list[int] | None:
    """[seat, place in its river] of the latest discard of the hand."""
    latest = None
    for event in k.events:
        if event.type == "discard":
            latest = event.data["seat"]
    if latest is None or not k.seats[latest].discards:
        return None
    return [latest, len(k.seats[latest].discards) - 1]


def tenpai_help(obs: Observation) -> dict[str, Any] | None:
    """For the seat's own eyes: with 14 tiles, each discard that leaves it tenpai and the
    waits it leaves; with 13, its waits. Each wait with how many are still unseen by
    this seat (its hand, the rivers, the called sets and the indicators)."""
    if obs.hand is None or obs.seat is None:
        return None
    counts = counts_of(obs.hand)
    seen = visible_counts(obs)
    melds = len(obs.meld_tiles[obs.seat])

    def unseen(kinds: Sequence[int]) -> list[list[int]]:
        return [[k, max(0, 4 - counts[k] - seen[k])] for k in kinds]

    if sum(counts) % 3 == 2:
        table = ukeire(counts, seen, melds).discards
        keep = {row.discard: unseen(row.kinds) for row in table if row.shanten == 0}
        return {"keeps": {str(k): v for k, v in keep.items()}} if keep else None
    found = waits(counts, melds)
    return {"waits": unseen(found.kinds)} if found.tenpai else None


def replay_frames(
    match: Match, players: Sequence[dict[str, Any]], timeouts: Collection[int] = (), bet: int = 0
) -> list[dict[str, Any]]:
    """One frame before the first action and one after each: all hands open; an
    action the clock played (its number in ``timeouts``) says so; ``seq`` is the
    number of the action a frame comes after (-1: none yet).

    Only ever built from a finished game, whose hands are no longer secret.
    """
    if match.standings is None:
        raise ValueError("replays open every hand, so only finished games have them")
    again = match.restarted()
    frames = [_frame(again, players, None, 0)]
    frames[0]["seq"] = -1
    for seq, (seat, action) in enumerate(match.actions):
        before = len(again.events)
        kyoku, hands = again.kyoku, len(again.results)
        again.apply(seat, action)
        label = f"{again.players[seat]}: {action}"
        timed = seq in timeouts
        if timed:
            label += " (time ran out: played by the clock)"
        if len(again.results) == hands or again.over:
            frames.append(_frame(again, players, label, before, bet=bet, timeout=timed))
            frames[-1]["seq"] = seq
            continue
        # a hand ended: its final board with the result, then the next deal on its own
        deal = next(
            i for i in range(before, len(again.events)) if again.events[i].type == "start_hand"
        )
        frames.append(_frame(again, players, label, before, kyoku, deal, bet, timed))
        frames.append(_frame(again, players, "deal", deal))
        frames[-2]["seq"] = frames[-1]["seq"] = seq  # the action each frame comes after
    return frames


def _frame(
    match: Match,
    players: Sequence[dict[str, Any]],
    label: str | None,
    since: int,
    kyoku: Kyoku | None = None,
    until: int | None = None,
    bet: int = 0,
    timeout: bool = False,
) -> dict[str, Any]:
    """The table after an action, every hand open: of the hand ``kyoku`` as it ended
    (events ``since`` up to ``until``), else as it is now."""
    state = seat_state(match, None, players, kyoku, bet)
    views = [observe(match, s, kyoku) for s in range(match.rules.players)]
    state["hands"] = [list(v.hand or ()) for v in views]
    state["drawns"] = [v.drawn for v in views]
    state["hand_index"] = match.hand_index - (kyoku is not None)
    state["label"] = label
    state["timeout"] = timeout
    state["events"] = [e.to_dict() for e in match.events[since:until]]
    return state
