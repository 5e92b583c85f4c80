"""Scoring: yaku, fu, han, limits and payments of a win."""

from riichi.scoring.context import InvalidContextError, WinContext
from riichi.scoring.melds import Meld, MeldType, parse_meld
from riichi.scoring.points import Limit, Payment, base_points, ron_order
from riichi.scoring.score import FuItem, ScoreResult, YakuHan, score, score_if_yaku
from riichi.scoring.yaku import Yaku

__all__ = [
    "FuItem",
    "InvalidContextError",
    "Limit",
    "Meld",
    "MeldType",
    "Payment",
    "ScoreResult",
    "WinContext",
    "Yaku",
    "YakuHan",
    "base_points",
    "parse_meld",
    "ron_order",
    "score",
    "score_if_yaku",
]
