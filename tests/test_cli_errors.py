"""Every command meets bad arguments and bad files with a clear error, never a traceback."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from riichi.cli import main

# Values that no option of any command takes as they are (a seed takes any whole number).
GARBAGE = ["", "nosuch", "-1", "99999999999999999999", "1e9", "NaN", "\x00", "é" * 300, "{", "[]"]
NOT_NUMBERS = ["", "nosuch", "1e9", "1.5", "NaN", "\x00", "é" * 300, "{", "[]"]


def invoke(*args: str, stdin: str | None = None) -> Result:
    # a command that started a game or a server on arguments it should refuse would
    # never return: fail instead of hanging
    def too_long(signum: int, frame: object) -> None:
        raise TimeoutError(f"riichi {' '.join(args)} did not return")

    previous = signal.signal(signal.SIGALRM, too_long)
    # the suite's own limit on the whole test (pytest-timeout's timer) is put back after
    left, _ = signal.setitimer(signal.ITIMER_REAL, 60)
    began = time.monotonic()
    try:
        return CliRunner().invoke(main, list(args), input=stdin)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if left:
            signal.setitimer(signal.ITIMER_REAL, max(0.001, left - (time.monotonic() - began)))


def assert_clean_error(result: Result, args: tuple[str, ...]) -> None:
    assert result.exit_code != 0, (args, result.output)
    # only a SystemExit (click's or ours) ends the command: no exception escaped
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert "Traceback" not in result.output, (args, result.output)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {
        "binary.xml": b"\x00\xff\xfe" * 50,
        "bad.json": b"{not json",
        "list.json": b"[1, 2, 3]",
        "nolog.json": b'{"a": 1}',
        "badlog.json": b'{"log": [[1, 2]]}',
        "empty.mjson": b"",
        "bad.mjson": b'{"type": "start_game"}\n{"type": "dahai", "actor": 9}\n',
        "text.xml": b"<mjloggm><INIT/></mjloggm>",
        "record.json": b'{"version": 1, "rules": {}, "actions": [{"seat": 0}]}',
    }
    out = {}
    for name, data in made.items():
        path = tmp_path / name
        path.write_bytes(data)
        out[name] = path
    return out


def test_bad_files_are_refused_by_every_command_that_reads_one(
    files: dict[str, Path], tmp_path: Path
) -> None:
    for path in files.values():
        for args in (
            ("replay", str(path)),
            ("convert", str(path), str(tmp_path / "out.json")),
            ("verify", str(path)),
        ):
            assert_clean_error(invoke(*args), args)
    for args in (
        ("replay", str(tmp_path / "missing.xml")),
        ("convert", str(tmp_path / "missing.xml"), "out.json"),
        ("verify", str(tmp_path / "missing.json")),
        ("hand", "12x"),
        ("score", "123m", "4m"),
        ("score", "234567m234p6799s", "8s", "chi:2x"),
    ):
        assert_clean_error(invoke(*args), args)


# Every option of the commands that would run a long job (a game, a server) when their
# arguments are good: each case here has at least one bad value.
BAD_OPTIONS = {
    "play": ["--rules", "--length", "--seed", "--bots"],
    "arena": ["--bots", "--games", "--rules", "--length", "--seed", "--jobs"],
    "selfplay": ["--rules", "--games", "--seed", "--length"],
    "serve": ["--port", "--bot-delay", "--sockets-per-address", "--tables-per-minute"],
    "score": ["--seat-wind", "--round-wind", "--from", "--pao", "--dora", "--honba", "--rules"],
    "hand": ["--melds"],
}


@pytest.mark.parametrize("command", sorted(BAD_OPTIONS))
def test_random_bad_option_values_give_clean_errors(command: str) -> None:
    rng = random.Random(command)
    base = {"score": ["234567m234p6799s", "8s"], "hand": ["123m456p"]}.get(command, [])
    for _ in range(25):
        option = rng.choice(BAD_OPTIONS[command])
        value = rng.choice(NOT_NUMBERS if option == "--seed" else GARBAGE)
        args = (command, *base, option, value)
        result = invoke(*args)
        if result.exit_code == 0:  # a value some options do take (an empty --dora)
            assert command in ("score", "hand"), args
            continue
        assert_clean_error(result, args)


def test_serve_refuses_a_bad_database_in_one_line(tmp_path: Path) -> None:
    result = invoke("serve", "--db", "nosuch://x", "--port", "0")
    assert result.exit_code == 2 and "error: database" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_on_a_busy_port_says_so_before_claiming_to_serve(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = invoke("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert result.exit_code == 2 and "cannot listen" in result.output
    assert "serving" not in result.output


def test_lengths_agree_with_the_rules_everywhere() -> None:
    """The API refuses a length a preset does not offer; so do the commands."""
    for command in ("selfplay", "arena", "play"):
        result = invoke(command, "--rules", "classic", "--length", "south")
        assert result.exit_code == 2 and "not south" in result.output, command
    # the default bots follow the player count; one match is one match
    result = invoke("arena", "--rules", "sanma", "--games", "1", "--length", "east")
    assert result.exit_code == 0 and "1 match under sanma-kansai" in result.output
