"""RuleSet, presets and their JSON form."""

from __future__ import annotations

import json

import pytest

from riichi.rules import (
    PRESETS,
    DoubleYakuman,
    InvalidRulesetError,
    Length,
    Pao,
    RuleSet,
    Settlement,
    TripleRon,
    UnknownRulesetError,
    find_ruleset,
)

NAMES = [
    "online",
    "agari",
    "daily-wall",
    "classic",
    "riichi-basic",
    "ema",
    "sanma-kansai",
    "league",
    "tenhou",
    "tenhou-sanma",
    "mahjongsoul",
]


def test_every_preset_exists() -> None:
    assert sorted(PRESETS) == sorted(NAMES)
    for name in NAMES:
        assert find_ruleset(name).name == name


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("Agari", "agari"),
        ("ONLINE", "online"),
        ("sanma", "sanma-kansai"),
        ("M-League", "league"),
        ("daily wall", "daily-wall"),
        ("Riichi_Basic", "riichi-basic"),
    ],
)
def test_aliases_are_case_insensitive(alias: str, name: str) -> None:
    assert find_ruleset(alias).name == name


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownRulesetError, match="known: agari, classic, daily-wall"):
        find_ruleset("gentlemen")


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_is_exact(name: str) -> None:
    rules = find_ruleset(name)
    again = RuleSet.from_json(rules.to_json())
    assert again == rules
    assert again.to_json() == rules.to_json()


def test_unknown_keys_and_bad_values_are_errors() -> None:
    data = json.loads(find_ruleset("online").to_json())
    with pytest.raises(InvalidRulesetError, match="unknown ruleset keys: flowers"):
        RuleSet.from_dict({**data, "flowers": True})
    with pytest.raises(InvalidRulesetError, match="'kuitan': bad value 'yes'"):
        RuleSet.from_dict({**data, "kuitan": "yes"})
    with pytest.raises(InvalidRulesetError, match="'triple_ron'"):
        RuleSet.from_dict({**data, "triple_ron": "sometimes"})
    with pytest.raises(InvalidRulesetError, match="red_fives must be 0, 3 or 4"):
        RuleSet.from_dict({**data, "red_fives": 2})
    with pytest.raises(InvalidRulesetError, match="uma needs 4 values"):
        RuleSet.from_dict({**data, "uma": [1, 2, 3]})
    with pytest.raises(InvalidRulesetError, match="does not parse"):
        RuleSet.from_json("{")
    with pytest.raises(InvalidRulesetError, match="'start_points'"):
        RuleSet.from_dict({**data, "start_points": True})


def test_partial_json_takes_defaults() -> None:
    assert RuleSet.from_dict({"red_fives": 0}) == RuleSet(red_fives=0)


def test_preset_differences_follow_presets_md() -> None:
    online, agari, classic = find_ruleset("online"), find_ruleset("agari"), find_ruleset("classic")
    assert online.uma == (15000, 5000, -5000, -15000) and online.oka_points == 20000
    assert online.triple_ron is TripleRon.ABORT and agari.triple_ron is TripleRon.ALL_WIN
    assert agari.kokushi_robs_closed_kan and not online.kokushi_robs_closed_kan
    assert agari.four_kan_abort_on_fifth
    assert agari.double_yakuman == frozenset(DoubleYakuman)
    assert classic.red_fives == 0 and classic.extension_target is None
    assert classic.pao is Pao.PORTION and online.pao is Pao.WHOLE
    assert classic.uma == (20000, 10000, -10000, -20000)
    assert find_ruleset("league").uma == (30000, 10000, -10000, -30000)
    basic, ema = find_ruleset("riichi-basic"), find_ruleset("ema")
    assert not basic.double_ron and ema.double_ron and not ema.kuitan
    assert ema.renhou.value == "yakuman" and basic.renhou.value == "none"
    sanma = find_ruleset("sanma-kansai")
    assert sanma.players == 3 and not sanma.chi_allowed and sanma.north_pon_han
    assert sanma.tsumo_loss and not sanma.abort_four_riichi and sanma.noten_payment == 2000
    assert sanma.oka_points == 15000 and sanma.uma == (20000, 0, -20000)
    daily = find_ruleset("daily-wall")
    assert daily.settlement is Settlement.RAW and daily.length is Length.ONE_HAND
    assert daily.oka_points == 0 and not daily.leftover_sticks_to_first
    assert find_ruleset("tenhou").double_yakuman == frozenset()


def test_rulesets_are_frozen_and_validated_on_replace() -> None:
    rules = find_ruleset("online")
    with pytest.raises(AttributeError):
        rules.kuitan = False  # type: ignore[misc]
    with pytest.raises(InvalidRulesetError):
        rules.replace(players=5)
    assert rules.replace(kuitan=False).kuitan is False


def test_the_written_out_field_types_are_the_declared_ones() -> None:
    """RuleSet.from_dict reads the types of generic fields from a table, because a
    compiled RuleSet keeps only `tuple` at run time; the table must say what the source
    says. Read from the source file itself, whichever core is loaded."""
    import ast
    import inspect
    from pathlib import Path

    import riichi.rules as rules_module
    from riichi.rules import field_types

    source = Path(rules_module.__file__).with_suffix(".py")
    if not source.exists():  # the compiled module: its source sits beside it
        source = Path(rules_module.__file__).parent / "rules.py"
    tree = ast.parse(source.read_text())
    ruleset = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "RuleSet")
    declared = {
        node.target.id: ast.unparse(node.annotation)
        for node in ruleset.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
    }
    found = field_types()
    assert set(found) == set(declared)
    for name, text in declared.items():
        if "[" in text or "|" in text:
            assert str(found[name]).replace("riichi.rules.", "") == text, name
    assert inspect.isclass(rules_module.RuleSet)
