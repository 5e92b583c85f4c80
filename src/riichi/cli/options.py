"""Options several commands share, checked the same way everywhere: a bad value is a
one-line usage error (exit status 2), never a traceback."""

from __future__ import annotations

from typing import IO, Any

import click

from riichi.bots import BOTS, LEARNED_PREFIX, is_outside, outside_command
from riichi.rules import Length, RuleSet, find_ruleset

LENGTHS = [x.value for x in Length]


class OptionError(click.UsageError):
    """A bad option value: one line on standard error, exit status 2."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True, file=file)


def rules_with_length(name: str, length: str | None) -> RuleSet:
    """A preset by name (``--rules``), at a length it offers (``--length``)."""
    try:
        rules = find_ruleset(name)
    except ValueError as exc:
        raise OptionError("--rules", str(exc)) from None
    if length is not None:
        chosen = Length(length)
        if chosen not in rules.lengths:
            offered = ", ".join(x.value for x in rules.lengths)
            raise OptionError("--length", f"{rules.name} is played {offered}, not {chosen.value}")
        rules = rules.replace(length=chosen)
    return rules


def bot_names(
    given: str | None, count: int, default: tuple[str, ...], option: str = "--bots"
) -> list[str]:
    """``count`` bots from ``option`` (built-in names, or ``mjai:COMMAND`` for an
    outside bot), or the first ``count`` defaults."""
    if given is None:
        names = list(default[:count])
    else:
        names = [
            n.strip() if is_outside(n.strip()) else n.strip().lower() for n in given.split(",")
        ]
    for n in names:
        if is_outside(n):
            try:
                outside_command(n)
            except ValueError as exc:
                raise OptionError(option, str(exc)) from None
    unknown = [
        n for n in names if n not in BOTS and not is_outside(n) and not n.startswith(LEARNED_PREFIX)
    ]
    if unknown:
        raise OptionError(option, f"unknown bot {unknown[0]!r}; known: {', '.join(sorted(BOTS))}")
    if len(names) != count:
        raise OptionError(option, f"the rules seat {count} bots here, got {len(names)}")
    return names


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``2 tiles``; ``many`` where adding an s will not do."""
    return f"{count} {word if count == 1 else many or word + 's'}"


# ``--timeout``: the seconds an outside (mjai) bot has for each answer
timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(0.05, 60),
    default=2.0,
    show_default=True,
    help="Seconds an outside bot has for each answer.",
)
