"""The Agent protocol: a player that sees only its observation and answers with an action."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from riichi.game import Action, ActionType, Observation

BOT_LABEL = "(bot)"
WINS = (ActionType.TSUMO, ActionType.RON)


@runtime_checkable
class Agent(Protocol):
    """Anything that chooses one of ``observation.legal``.

    The hooks are optional: `play_match` (and so the arena) calls them when present.
    """

    @property
    def name(self) -> str: ...

    def act(self, observation: Observation) -> Action: ...


class Bot:
    """Base of the built-in bots: labelled as a bot wherever its name is shown."""

    kind = "bot"

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed

    @property
    def name(self) -> str:
        return f"{self.kind} {BOT_LABEL}"

    def act(self, observation: Observation) -> Action:
        raise NotImplementedError

    def thinks(self, observation: Observation) -> bool:
        """Whether this decision is a search, worth a worker process on a server."""
        return False

    def quick(self, observation: Observation) -> Action:
        """The decision without a search, where there is no time for one."""
        return self.act(observation)

    def start_hand(self, observation: Observation) -> None:
        """Called at the start of every hand (optional hook)."""

    def end_hand(self, observation: Observation) -> None:
        """Called when a hand ends (optional hook)."""


def winning(actions: tuple[Action, ...]) -> Action | None:
    """The win among the legal actions, if there is one."""
    return next((a for a in actions if a.type in WINS), None)
