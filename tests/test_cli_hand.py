"""``riichi hand`` on the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from riichi.cli import main


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_fourteen_tiles_print_the_discard_table() -> None:
    code, out, _ = run("hand", "123m456p789s1122z5z")
    assert code == 0
    assert "shanten  0 (tenpai" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("5z", "1m"))]
    assert rows[0] == ["5z", "0", "4", "12z"]


def test_thirteen_tiles_print_waits() -> None:
    code, out, _ = run("hand", "1112345678999m")
    assert code == 0
    assert "waits    123456789m" in out
    assert "(23 tiles)" in out


def test_karaten_is_flagged() -> None:
    _, out, _ = run("hand", "1111m234p567s789s")
    assert "karaten" in out and "shanten  1" in out


def test_complete_hand_lists_readings() -> None:
    _, out, _ = run("hand", "11122233344455m")
    assert out.count("reading") == 4


def test_json_output() -> None:
    code, out, _ = run("hand", "--json", "123m406p789s1122z")
    data = json.loads(out)
    assert code == 0
    assert data["hand"] == "123m406p789s1122z"
    assert data["shanten"] == 0 and data["waits"] == ["1z", "2z"]
    assert data["forms"]["chiitoitsu"] == 4


def test_bad_input_is_a_one_line_error_and_nonzero_exit() -> None:
    code, _, err = run("hand", "12x")
    assert code == 1
    assert err.strip() == "error: bad character 'x' at position 2 in '12x'"
    code, _, err = run("hand", "123m")
    assert code == 1 and "3 tiles in hand" in err


def test_reads_hands_from_stdin() -> None:
    code, out, _ = run("hand", "--json", stdin="13m\n\nzz\n1z\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [x.get("shanten") for x in lines] == [0, None, 0]
    assert "error" in lines[1]


def test_melds_option() -> None:
    _, out, _ = run("hand", "--json", "--melds", "1", "1112m456p789s")
    assert json.loads(out)["waits"] == ["2m", "3m"]
