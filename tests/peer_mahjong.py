"""Our deals as arguments for the ``mahjong`` package's HandCalculator (tests and bench)."""

from __future__ import annotations

from typing import Any

from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld as MjMeld

from riichi.rules import RuleSet
from riichi.scoring import MeldType
from winning_hands import Deal

_MJ_MELD = {
    MeldType.CHI: MjMeld.CHI,
    MeldType.PON: MjMeld.PON,
    MeldType.MINKAN: MjMeld.KAN,
    MeldType.ANKAN: MjMeld.KAN,
    MeldType.KAKAN: MjMeld.SHOUMINKAN,
}


def mahjong_request(deal: Deal, rules: RuleSet) -> tuple[list[int], int, dict[str, Any]]:
    """``(tiles, win_tile, keyword arguments)`` for ``estimate_hand_value``."""
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
        # the mahjong package numbers kinds like we do: East is 27
        player_wind=27 + (ctx.seat - ctx.dealer) % 4,
        round_wind=ctx.round_wind,
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
    return (
        tiles,
        deal.win,
        {
            "melds": melds,
            "dora_indicators": list(ctx.dora_indicators),
            "ura_dora_indicators": list(ctx.ura_indicators) or None,
            "config": config,
        },
    )
