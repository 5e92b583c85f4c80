"""``riichi play``: the terminal game, driven by Textual's test pilot."""

from __future__ import annotations

import asyncio

from textual.widgets import Button, Static

from game_helpers import arranged_wall
from riichi.bots import TsumogiriBot
from riichi.cli.play import TableApp
from riichi.game import Match
from riichi.rules import find_ruleset


def table() -> TableApp:
    # you deal; the bots throw away what they draw: a 7z for your pon, then a 6s for your ron
    wall = arranged_wall(["77z123m456p78s99s1z", "", "", ""], ["2z", "7z", "6s"])
    bots = [TsumogiriBot(), TsumogiriBot(), TsumogiriBot()]
    match = Match(find_ruleset("online"), 0, ["you", *(b.name for b in bots)], walls=[wall] * 20)
    return TableApp(match, bots)


async def press(app: TableApp, pilot: object, label: str) -> None:
    for button in app.query(Button):
        if str(button.label).startswith(label):
            await pilot.click(f"#{button.id}")  # type: ignore[attr-defined]
            await pilot.pause()  # type: ignore[attr-defined]
            return
    labels = [str(b.label) for b in app.query(Button)]
    raise AssertionError(f"no button {label!r} among {labels}")


def test_a_hand_with_a_call_and_a_win() -> None:
    async def scenario() -> None:
        app = table()
        async with app.run_test(size=(160, 50)) as pilot:
            text = str(app.query_one("#table", Static).render())
            assert "E1" in text and "you" in text and "(bot)" in text
            await press(app, pilot, "2z")  # let the drawn South go
            await press(app, pilot, "Pon 7z")  # the bot after you threw a 7z
            await press(app, pilot, "1z")
            await press(app, pilot, "Ron 6s")
            result = str(app.query_one("#result", Static).render())
            assert "you wins by ron" in result
            assert "Red dragon" in result and "fu:" in result and "pays" in result
            await press(app, pilot, "Next hand")
            assert app.match.kyoku.dealer == 0 and app.match.honba == 1

    asyncio.run(scenario())
