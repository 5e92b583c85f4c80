"""``riichi score`` and its ``--jsonl`` stream."""

from __future__ import annotations

import json

from click.testing import CliRunner

from riichi.cli import main


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_readable_breakdown() -> None:
    code, out, _ = run("score", "234567m234p6799s", "8s", "--riichi", "--dora", "1m")
    assert code == 0
    assert "Riichi" in out and "Pinfu" in out and "Dora" in out
    assert "fu       30  (20 base + 10 closed ron)" in out
    assert "value    3 han 30 fu: 3900" in out
    assert "seat 0 (E) pays 3900" in out


def test_melds_pao_and_json() -> None:
    code, out, _ = run(
        "score",
        "2345m",
        "5m",
        "pon:555z",
        "pon:666z",
        "pon:777z",
        "--pao",
        "N",
        "--from",
        "W",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert [y["key"] for y in data["yaku"]] == ["daisangen"]
    assert data["payments"] == [{"seat": 2, "points": 16000}, {"seat": 3, "points": 16000}]


def test_tsumo_with_honba() -> None:
    _, out, _ = run("score", "123m456p789s1122z", "1z", "--tsumo", "--honba", "2")
    assert "seat 0 (E) pays 1500" in out and "seat 1 (S) receives 3300" in out


def test_errors_are_one_line() -> None:
    code, _, err = run("score", "234567m234p6799s", "8s", "chi:234m")
    assert code == 1 and err.startswith("error: ")
    code, _, err = run("score", "567m234p1189s", "7s", "chi:234m")
    assert code == 1 and "no yaku" in err


def test_jsonl_stream_goes_on_after_bad_lines() -> None:
    lines = [
        json.dumps({"id": "a", "hand": "234567m234p6799s", "win": "8s", "riichi": True}),
        "not json",
        json.dumps({"id": "c", "hand": "12x", "win": "1m"}),
        json.dumps({"id": "d", "hand": "234567m234p6799s"}),
        json.dumps({"id": "e", "hand": "567m234p1189s", "win": "7s", "melds": ["chi:234m"]}),
        json.dumps({"id": "f", "hand": "234567m234p6799s", "win": "8s", "colour": "red"}),
        json.dumps(
            {
                "id": "g",
                "hand": [0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 108],
                "win": 109,
                "tsumo": True,
                "rules": "agari",
            }
        ),
        json.dumps(
            {
                "id": "h",
                "hand": "2345m",
                "win": "5m",
                "melds": [{"type": "pon", "tiles": "555z"}, "pon:666z", "pon:777z@3"],
                "pao": 3,
                "discarder": 2,
            }
        ),
    ]
    code, out, _ = run("score", "--jsonl", stdin="\n".join(lines) + "\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 8
    a, b, c, d, e, f, g, h = results
    assert a["id"] == "a" and a["han"] == 2 and a["points"] == 2000
    assert b["kind"] == "RequestError" and b["line"] == 2
    assert c["kind"] == "InvalidNotationError" and "position 2" in c["error"]
    assert "missing field 'win'" in d["error"]
    assert e["kind"] == "NoYakuError"
    assert "unknown fields: colour" in f["error"]
    assert g["yakuman"] == 2 and g["points"] == 64000
    assert h["payments"] == [{"seat": 2, "points": 16000}, {"seat": 3, "points": 16000}]
