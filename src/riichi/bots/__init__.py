"""Opponents: the Agent protocol and the built-in bots (always labelled as bots)."""

from riichi.bots.agent import BOT_LABEL, Agent, Bot
from riichi.bots.defensive import DefensiveBot
from riichi.bots.efficiency import EfficiencyBot
from riichi.bots.simple import RandomBot, TsumogiriBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "tsumogiri": TsumogiriBot,
    "efficiency": EfficiencyBot,
    "defensive": DefensiveBot,
}


def make_bot(name: str, seed: int | str = 0) -> Bot:
    """A built-in bot by name: random, tsumogiri, efficiency, defensive."""
    try:
        return BOTS[name.strip().lower()](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}") from None


__all__ = [
    "BOTS",
    "BOT_LABEL",
    "Agent",
    "Bot",
    "EfficiencyBot",
    "RandomBot",
    "TsumogiriBot",
    "make_bot",
]
