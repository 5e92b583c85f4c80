"""Opponents: the Agent protocol and the built-in bots (always labelled as bots)."""

from riichi.bots.agent import BOT_LABEL, Agent, Bot
from riichi.bots.defensive import DefensiveBot
from riichi.bots.efficiency import EfficiencyBot
from riichi.bots.expert import ExpertBot
from riichi.bots.learned import LearnedBot
from riichi.bots.learned_search import LearnedSearchBot
from riichi.bots.master import MasterBot
from riichi.bots.simple import RandomBot, TsumogiriBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "tsumogiri": TsumogiriBot,
    "efficiency": EfficiencyBot,
    "defensive": DefensiveBot,
    "expert": ExpertBot,
    "master": MasterBot,
    "learned": LearnedBot,
    "learned-search": LearnedSearchBot,
}


# Strongest first: what the site offers to play against.
LADDER = ("expert", "defensive", "efficiency", "random")
# the roster computer: rated seats, tournaments, money tables, the Daily Wall (fast
# enough to play on the server's loop; `master` thinks in a worker)
ROSTER = "expert"

MJAI_PREFIX = "mjai:"  # an outside bot: the command after it speaks mjai


def is_outside(spec: str) -> bool:
    return spec.startswith(MJAI_PREFIX)


def outside_command(spec: str) -> list[str]:
    """The command of an outside bot ``mjai:COMMAND ARGS``, split as a shell would
    (``mjai:"COMMAND ARGS"``, quoted whole, too); ValueError, in one line, unless
    its program exists."""
    import shlex
    import shutil

    try:
        command = shlex.split(spec[len(MJAI_PREFIX) :])
        if len(command) == 1 and any(c.isspace() for c in command[0]):
            command = shlex.split(command[0])  # the whole command was quoted once more
    except ValueError as exc:
        raise ValueError(f"cannot read the command in {spec!r}: {exc}") from None
    if not command:
        raise ValueError("mjai: needs the command that runs the bot")
    if shutil.which(command[0]) is None:
        raise ValueError(f"no program {command[0]!r} to run (from {spec!r})")
    return command


def make_agent(spec: str, seed: int | str = 0, timeout: float = 2.0) -> Agent:
    """A built-in bot by name, or an outside bot as ``mjai:COMMAND ARGS`` (run as a
    subprocess through the mjai bridge, ``timeout`` seconds an answer)."""
    if is_outside(spec):
        from riichi.bots.mjai_bridge import MjaiProcessBot

        command = outside_command(spec)
        label = f"mjai {command[-1].rsplit('/', 1)[-1][:24]}"
        return MjaiProcessBot(command, timeout=timeout, label=label)
    return make_bot(spec, seed)


LEARNED_PREFIX = "learned:"  # the learned player on other weights: learned:PATH


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A built-in bot by name: random, tsumogiri, efficiency, defensive, expert, master,
    learned (or ``learned:PATH``, the learned player on the weights at PATH)."""
    if name.startswith(LEARNED_PREFIX):
        from pathlib import Path

        return LearnedBot(seed, weights=Path(name[len(LEARNED_PREFIX) :]))
    try:
        return BOTS[name.strip().lower()](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None


__all__ = [
    "BOTS",
    "BOT_LABEL",
    "LADDER",
    "LEARNED_PREFIX",
    "MJAI_PREFIX",
    "ROSTER",
    "Agent",
    "Bot",
    "EfficiencyBot",
    "ExpertBot",
    "LearnedBot",
    "MasterBot",
    "RandomBot",
    "TsumogiriBot",
    "is_outside",
    "make_agent",
    "make_bot",
    "outside_command",
]
