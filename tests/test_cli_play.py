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
            await press(app, pilot, "S")  # let the drawn South go
            await press(app, pilot, "Pon Rd")  # the bot after you threw a red dragon
            await press(app, pilot, "E")
            await press(app, pilot, "Ron 6s")
            result = str(app.query_one("#result", Static).render())
            assert "you win by ron" in result and "you wins" not in result
            assert "Red dragon" in result and "fu:" in result and "pays" in result
            # the winning hand is shown, with its called set and the tile it won on
            assert "hand: 1m 2m 3m 4p 5p 6p 7s 8s 9s 9s  [" in result and "won on 6s" in result
            await press(app, pilot, "Next hand")
            assert app.match.kyoku.dealer == 0 and app.match.honba == 1

    asyncio.run(scenario())


def hand_buttons(app: TableApp) -> list[Button]:
    return list(app.query("#hand Button"))


def test_tab_and_enter_play_on_turn_after_turn() -> None:
    """The path that crashed: each discard replaced the buttons under the same ids."""
    from riichi.bots import make_bot

    async def scenario() -> None:
        bots = [make_bot(n, f"7:{i}") for i, n in enumerate(DEFAULTS, start=1)]
        match = Match(find_ruleset("online"), 7, ["you", *(b.name for b in bots)])
        app = TableApp(match, bots)
        async with app.run_test(size=(160, 50)) as pilot:
            for _ in range(40):
                if app.showing_result:
                    await press(app, pilot, "Next hand")
                    continue
                await pilot.press("tab")
                await pilot.press("enter")
                await pilot.pause()
                assert app.is_running
                tiles = hand_buttons(app)
                if tiles:  # your hand, whole: 13 tiles and the drawn one, less called sets
                    melds = len(app.match.kyoku.seats[0].melds)
                    assert len(tiles) in (13 - 3 * melds, 14 - 3 * melds)
            assert len(app.match.actions) > 40

    from riichi.cli.play import DEFAULT_BOTS as DEFAULTS

    asyncio.run(scenario())


def test_the_hand_stays_shown_during_a_call_prompt_and_after_riichi() -> None:
    async def scenario() -> None:
        app = table()
        async with app.run_test(size=(160, 50)) as pilot:
            await press(app, pilot, "S")
            assert any(str(b.label).startswith("Pon Rd") for b in app.query(Button))
            tiles = hand_buttons(app)
            assert len(tiles) == 13 and all(b.disabled for b in tiles)  # shown, not playable

        idle = ["2468m2468p2468s5z", "2468m2468p2468s6z", "2468m2689p2468s7z"]  # no wins
        wall = arranged_wall(["123m456p789s11s34p", *idle], ["9m", "", "", "", "1z"])
        bots = [TsumogiriBot(), TsumogiriBot(), TsumogiriBot()]
        match = Match(find_ruleset("online"), 0, ["you", *(b.name for b in bots)], walls=[wall])
        app = TableApp(match, bots)
        async with app.run_test(size=(160, 50)) as pilot:
            await press(app, pilot, "Riichi 9m")
            tiles = hand_buttons(app)
            assert len(tiles) == 14
            assert [str(b.label) for b in tiles if not b.disabled] == ["E↓"]  # tsumogiri only

    asyncio.run(scenario())


def test_the_browsers_keys_play_and_one_button_stands_for_each_choice() -> None:
    """D discards the drawn tile, P pons, arrows and Enter discard a chosen tile, W
    wins, Enter takes the next hand; the two red dragons give one Pon button."""

    async def scenario() -> None:
        app = table()
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.press("d")  # the drawn South
            await pilot.pause()
            assert len(app.match.kyoku.seats[0].discards) == 1
            pons = [b for b in app.query("#actions Button") if str(b.label).startswith("Pon")]
            assert len(pons) == 1  # either pair of red dragons is the same pon
            await pilot.press("p")
            await pilot.pause()
            assert len(app.match.kyoku.seats[0].melds) == 1
            await pilot.press("left")  # onto the last tile (the East), and discard it
            await pilot.press("enter")
            await pilot.pause()
            assert app.match.kyoku.seats[0].discards[-1].tile >> 2 == 27
            await pilot.press("w")  # ron on the 6s
            await pilot.pause()
            assert app.showing_result
            await pilot.press("enter")
            await pilot.pause()
            assert not app.showing_result and app.match.honba == 1

    asyncio.run(scenario())


def test_two_bots_of_one_kind_are_told_apart_by_seat() -> None:
    from riichi.bots import make_bot
    from riichi.cli.play import seat_names

    bots = [make_bot("expert", "s:1"), make_bot("defensive", "s:2"), make_bot("expert", "s:3")]
    assert seat_names(bots) == ["expert 2 (bot)", "defensive 3 (bot)", "expert 4 (bot)"]


def test_bad_play_options_are_one_line_errors() -> None:
    from click.testing import CliRunner

    from riichi.cli import main
    from riichi.cli.play import opponents, rules_with_length

    for args, expected in [
        (["--rules", "nosuch"], "unknown ruleset 'nosuch'"),
        (["--bots", "foo,bar,baz"], "unknown bot 'foo'"),
        (["--bots", "random"], "the rules seat 3 bots here, got 1"),
        (
            ["--rules", "classic", "--length", "south"],
            "classic is played one-hand, east, not south",
        ),
    ]:
        result = CliRunner().invoke(main, ["play", *args])
        assert result.exit_code == 2, (args, result.output)
        assert expected in result.output and "Traceback" not in result.output
    assert len(opponents(None, 2, 0)) == 2  # three players: two opponents by default
    assert rules_with_length("sanma", None).players == 3


def test_an_outside_bot_at_the_terminal_table() -> None:
    """riichi play --bots takes an mjai bot: it is started, fed the game and stopped."""
    import sys
    from pathlib import Path

    from riichi.bots.mjai_bridge import MjaiProcessBot
    from riichi.cli.play import opponents

    script = Path(__file__).parent / "bots" / "mjai_tsumogiri.py"
    bots = opponents(f"efficiency,mjai:{sys.executable} {script} ok,efficiency", 3, 5, 3.0)
    outside = bots[1]
    assert isinstance(outside, MjaiProcessBot)

    async def scenario() -> None:
        match = Match(find_ruleset("online"), 5, ["you", *(b.name for b in bots)])
        app = TableApp(match, bots)
        async with app.run_test(size=(160, 50)) as pilot:
            for _ in range(6):  # a few of your turns: the outside bot plays between them
                if app.showing_result:
                    break
                buttons = hand_buttons(app)
                await pilot.click(f"#{buttons[-1].id}")
                await pilot.pause()
        theirs = [e for e in app.match.events if e.type == "discard" and e.data["seat"] == 2]
        assert theirs and all(e.data["tsumogiri"] for e in theirs)
        assert outside.warnings == []
        assert outside.process is not None and outside.process.poll() is not None  # stopped

    asyncio.run(scenario())
