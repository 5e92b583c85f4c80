"""The core's value types: equal by their fields, hashable, and pickled whole on either
core (the compiled one builds them through written-out constructors)."""

from __future__ import annotations

import copy
import pickle

from riichi.game import Action, ActionType
from riichi.game.events import Event
from riichi.hand import decompositions
from riichi.scoring import WinContext, parse_meld, score
from riichi.tiles import parse_counts, parse_tiles


def test_actions_are_equal_by_their_fields_and_hash_alike() -> None:
    chi = Action(ActionType.CHI, 8, (0, 4))
    same = Action(ActionType.CHI, 8, (0, 4))
    assert chi == same and (chi != same) is False and hash(chi) == hash(same)
    assert chi != Action(ActionType.CHI, 8, (1, 4))
    assert chi != Action(ActionType.PON, 8, (0, 4))
    assert chi != "chi"
    assert {chi: 1}[same] == 1


def test_value_types_survive_pickling_and_copies() -> None:
    used: set[int] = set()
    hand = parse_tiles("123m456p789s11z", used)
    win = parse_tiles("1z", used)[0]
    melds = [parse_meld("pon:777z", used)]
    result = score(hand[:10], win, melds, WinContext(tsumo=True))
    readings = decompositions(parse_counts("11123456789999m"), 0)
    values: list[object] = [
        Action(ActionType.RIICHI, 5),
        Event("discard", {"seat": 1, "tile": 5}, to=2),
        result,
        *result.payments,
        *result.yaku,
        *result.fu_items,
        *readings,
        *readings[0].sets,
    ]
    for value in values:
        again = pickle.loads(pickle.dumps(value))
        assert again == value and type(again) is type(value)
        assert copy.deepcopy(value) == value
    assert pickle.loads(pickle.dumps(result)).points == result.points
