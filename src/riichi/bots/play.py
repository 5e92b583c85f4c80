"""Driving a match with agents: observations to each, and the optional hooks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from riichi.game import Match, observe


def play_match(match: Match, agents: Sequence[Any]) -> Match:
    """Play ``match`` to the end, asking each seat's agent when it must decide.

    Agents may have ``start_match(rules, players, seat)``, ``on_events(events)``
    (the new events that seat may see, before each decision and at the end)
    and ``end_match()``.
    """
    n = match.rules.players
    for seat, agent in enumerate(agents):
        if hasattr(agent, "start_match"):
            agent.start_match(match.rules, match.players, seat)
    fed = [0] * n

    def feed(seat: int) -> None:
        agent = agents[seat]
        if hasattr(agent, "on_events"):
            agent.on_events([e for e in match.events[fed[seat] :] if e.visible_to(seat)])
            fed[seat] = len(match.events)

    try:
        while not match.over:
            seat = next(iter(match.legal_actions()))
            feed(seat)
            match.apply(seat, agents[seat].act(observe(match, seat)))
        for seat in range(n):
            feed(seat)
    finally:
        for agent in agents:
            if hasattr(agent, "end_match"):
                agent.end_match()
    return match
