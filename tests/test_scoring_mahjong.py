"""Differential test against the ``mahjong`` package on generated winning hands.

Every hand is scored by both; han, fu, yaku and the winner's total (hand
value, honba and sticks) must agree. The only differences allowed are the
documented rule differences below, each with its own unit test in
``test_scoring.py``:

- equal-value readings: when two readings pay exactly the same (points, han
  and fu), the libraries may report different yaku lists; both are right.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from mahjong.constants import EAST as MJ_EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld as MjMeld

from riichi.errors import NoYakuError
from riichi.rules import ALL_DOUBLE_YAKUMAN, RuleSet
from riichi.scoring import MeldType, ScoreResult, score
from winning_hands import Deal, random_deal

_MJ_MELD = {
    MeldType.CHI: MjMeld.CHI,
    MeldType.PON: MjMeld.PON,
    MeldType.MINKAN: MjMeld.KAN,
    MeldType.ANKAN: MjMeld.KAN,
    MeldType.KAKAN: MjMeld.SHOUMINKAN,
}
_NAMES = {
    "chantai": "chanta",
    "chinroto": "chinroutou",
    "chuuren_poutou": "chuuren",
    "daburu_chuuren_poutou": "junsei-chuuren",
    "daburu_kokushi": "kokushi-13",
    "daburu_riichi": "double-riichi",
    "daisuushi": "daisuushii",
    "honroto": "honroutou",
    "iipeiko": "iipeikou",
    "ryanpeiko": "ryanpeikou",
    "ryuisou": "ryuuiisou",
    "sanshoku_douko": "sanshoku-doukou",
    "shosangen": "shousangen",
    "shosuushi": "shousuushii",
    "suuankou_tanki": "suuankou-tanki",
    "tsumo": "menzen-tsumo",
    "tsuisou": "tsuuiisou",
    "haitei": "haitei",
    "houtei": "houtei",
}
_SKIP = {"dora", "aka_dora", "ura_dora"}


def _mj_key(name: str) -> str:
    if name.startswith(("seat_wind_", "round_wind_")):
        return name.replace("_wind_", "-")
    return _NAMES.get(name, name.replace("_", "-"))


_YAKU_BY_ID = {
    getattr(YakuConfig(), attr).yaku_id: attr
    for attr in dir(YakuConfig())
    if not attr.startswith("_")
}


def mahjong_score(deal: Deal, rules: RuleSet) -> object:
    ctx = deal.context
    tiles = [*deal.hand, deal.win, *(t for m in deal.melds for t in m.tiles)]
    melds = [
        MjMeld(_MJ_MELD[m.type], list(m.tiles), opened=m.is_open, called_tile=m.called)
        for m in deal.melds
    ]
    config = HandConfig(
        is_tsumo=ctx.tsumo,
        is_riichi=ctx.riichi and not ctx.double_riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.tenhou,
        is_chiihou=ctx.chiihou,
        player_wind=MJ_EAST + (ctx.seat - ctx.dealer) % 4,
        round_wind=MJ_EAST + ctx.round_wind - 27,
        tsumi_number=ctx.honba,
        kyoutaku_number=ctx.riichi_sticks,
        options=OptionalRules(
            has_open_tanyao=rules.kuitan,
            has_aka_dora=rules.red_fives == 3,
            has_double_yakuman=bool(rules.double_yakuman),
            kiriage=rules.kiriage,
            kazoe_limit=0 if rules.kazoe_yakuman else 1,
        ),
    )
    return HandCalculator().estimate_hand_value(
        tiles,
        deal.win,
        melds=melds,
        dora_indicators=list(ctx.dora_indicators),
        ura_dora_indicators=list(ctx.ura_indicators) or None,
        config=config,
    )


def compare(deal: Deal, rules: RuleSet) -> str | None:
    """None when both agree; else the name of the difference."""
    theirs = mahjong_score(deal, rules)
    try:
        ours: ScoreResult | None = score(deal.hand, deal.win, deal.melds, deal.context, rules)
    except NoYakuError:
        ours = None
    if ours is None or theirs.error:  # type: ignore[attr-defined]
        if ours is None and theirs.error:  # type: ignore[attr-defined]
            return None
        return f"win only by one side: ours={ours}, theirs={theirs.error}"  # type: ignore[attr-defined]
    t_yaku = {
        _mj_key(_YAKU_BY_ID[y.yaku_id])
        for y in theirs.yaku  # type: ignore[attr-defined]
    } - {_mj_key(n) for n in _SKIP}
    o_yaku = {y.yaku.key for y in ours.yaku}
    t_total = theirs.cost["total"]  # type: ignore[attr-defined]
    o_total = ours.deltas[deal.context.seat]
    if ours.yakuman:
        same_value = theirs.han == 13 * ours.yakuman  # type: ignore[attr-defined]
    else:
        same_value = (theirs.han, theirs.fu) == (ours.han, ours.fu)  # type: ignore[attr-defined]
    if o_total != t_total or not same_value:
        return (
            f"value: ours {ours.han}/{ours.fu}/{o_total}, theirs {theirs.han}/{theirs.fu}/{t_total}"  # type: ignore[attr-defined]
        )
    if t_yaku != o_yaku:
        return "equal-value readings"
    return None


CONFIGS = {
    "online": RuleSet(),
    "double-yakuman": RuleSet(double_yakuman=ALL_DOUBLE_YAKUMAN),
    "no-kuitan-kiriage": RuleSet(kuitan=False, kiriage=True),
    "sanbaiman-cap-no-reds": RuleSet(kazoe_yakuman=False, red_fives=0),
}
HANDS_PER_CONFIG = 12_500  # 50,000 hands in all
EXPLAINED = {"equal-value readings"}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_scores_agree_with_mahjong(config: str) -> None:
    rules = CONFIGS[config]
    rng = random.Random(config)
    outcomes: Counter[str] = Counter()
    unexplained = []
    for _ in range(HANDS_PER_CONFIG):
        deal = random_deal(rng)
        diff = compare(deal, rules)
        outcomes[diff or "agree"] += 1
        if diff and diff not in EXPLAINED:
            unexplained.append((diff, deal))
    assert unexplained[:5] == []
    assert outcomes["agree"] > 0.95 * HANDS_PER_CONFIG
