"""Every yaku, with a stable id (Tenhou's numbering), names and han values."""

from __future__ import annotations

from enum import Enum
from typing import Final


class Yaku(Enum):
    """A yaku: ``(id, key, English, Japanese, closed han, open han)``.

    Open han 0 means closed only. For yakuman the han columns hold the
    yakuman count (1; the double patterns are separate members that count 2
    when the RuleSet allows it, else 1). Ids are Tenhou's, so logs convert
    directly; renhou (36) is not used by Tenhou.
    """

    MENZEN_TSUMO = (0, "menzen-tsumo", "Fully concealed hand", "門前清自摸和", 1, 0)
    RIICHI = (1, "riichi", "Riichi", "立直", 1, 0)
    IPPATSU = (2, "ippatsu", "Ippatsu", "一発", 1, 0)
    CHANKAN = (3, "chankan", "Robbing a kan", "槍槓", 1, 1)
    RINSHAN = (4, "rinshan", "After a kan", "嶺上開花", 1, 1)
    HAITEI = (5, "haitei", "Under the sea", "海底摸月", 1, 1)
    HOUTEI = (6, "houtei", "Under the river", "河底撈魚", 1, 1)
    PINFU = (7, "pinfu", "Pinfu", "平和", 1, 0)
    TANYAO = (8, "tanyao", "All simples", "断幺九", 1, 1)
    IIPEIKOU = (9, "iipeikou", "Pure double sequence", "一盃口", 1, 0)
    SEAT_EAST = (10, "seat-east", "Seat wind East", "自風 東", 1, 1)
    SEAT_SOUTH = (11, "seat-south", "Seat wind South", "自風 南", 1, 1)
    SEAT_WEST = (12, "seat-west", "Seat wind West", "自風 西", 1, 1)
    SEAT_NORTH = (13, "seat-north", "Seat wind North", "自風 北", 1, 1)
    ROUND_EAST = (14, "round-east", "Round wind East", "場風 東", 1, 1)
    ROUND_SOUTH = (15, "round-south", "Round wind South", "場風 南", 1, 1)
    ROUND_WEST = (16, "round-west", "Round wind West", "場風 西", 1, 1)
    ROUND_NORTH = (17, "round-north", "Round wind North", "場風 北", 1, 1)
    HAKU = (18, "haku", "White dragon", "役牌 白", 1, 1)
    HATSU = (19, "hatsu", "Green dragon", "役牌 發", 1, 1)
    CHUN = (20, "chun", "Red dragon", "役牌 中", 1, 1)
    DOUBLE_RIICHI = (21, "double-riichi", "Double riichi", "両立直", 2, 0)
    CHIITOITSU = (22, "chiitoitsu", "Seven pairs", "七対子", 2, 0)
    CHANTA = (23, "chanta", "Half outside hand", "混全帯幺九", 2, 1)
    ITTSU = (24, "ittsu", "Pure straight", "一気通貫", 2, 1)
    SANSHOKU = (25, "sanshoku", "Mixed triple sequence", "三色同順", 2, 1)
    SANSHOKU_DOUKOU = (26, "sanshoku-doukou", "Triple triplets", "三色同刻", 2, 2)
    SANKANTSU = (27, "sankantsu", "Three kans", "三槓子", 2, 2)
    TOITOI = (28, "toitoi", "All triplets", "対々和", 2, 2)
    SANANKOU = (29, "sanankou", "Three concealed triplets", "三暗刻", 2, 2)
    SHOUSANGEN = (30, "shousangen", "Little three dragons", "小三元", 2, 2)
    HONROUTOU = (31, "honroutou", "All terminals and honours", "混老頭", 2, 2)
    RYANPEIKOU = (32, "ryanpeikou", "Twice pure double sequence", "二盃口", 3, 0)
    JUNCHAN = (33, "junchan", "Fully outside hand", "純全帯幺九", 3, 2)
    HONITSU = (34, "honitsu", "Half flush", "混一色", 3, 2)
    CHINITSU = (35, "chinitsu", "Full flush", "清一色", 6, 5)
    RENHOU = (36, "renhou", "Blessing of man", "人和", 1, 0)  # yakuman or mangan by rule
    TENHOU = (37, "tenhou", "Blessing of heaven", "天和", 1, 0)
    CHIIHOU = (38, "chiihou", "Blessing of earth", "地和", 1, 0)
    DAISANGEN = (39, "daisangen", "Big three dragons", "大三元", 1, 1)
    SUUANKOU = (40, "suuankou", "Four concealed triplets", "四暗刻", 1, 0)
    SUUANKOU_TANKI = (
        41,
        "suuankou-tanki",
        "Four concealed triplets, single wait",
        "四暗刻単騎",
        2,
        0,
    )
    TSUUIISOU = (42, "tsuuiisou", "All honours", "字一色", 1, 1)
    RYUUIISOU = (43, "ryuuiisou", "All green", "緑一色", 1, 1)
    CHINROUTOU = (44, "chinroutou", "All terminals", "清老頭", 1, 1)
    CHUUREN = (45, "chuuren", "Nine gates", "九蓮宝燈", 1, 0)
    JUNSEI_CHUUREN = (46, "junsei-chuuren", "Pure nine gates", "純正九蓮宝燈", 2, 0)
    KOKUSHI = (47, "kokushi", "Thirteen orphans", "国士無双", 1, 0)
    KOKUSHI_13 = (48, "kokushi-13", "Thirteen orphans, 13-sided wait", "国士無双十三面", 2, 0)
    DAISUUSHII = (49, "daisuushii", "Big four winds", "大四喜", 2, 2)
    SHOUSUUSHII = (50, "shousuushii", "Little four winds", "小四喜", 1, 1)
    SUUKANTSU = (51, "suukantsu", "Four kans", "四槓子", 1, 1)
    NORTH = (60, "north", "North triplet (three-player)", "北", 1, 1)

    # properties over the value, not attributes set by a custom __init__: the compiled
    # core compiles an Enum only without one, and then reads its members as constants
    @property
    def _row(self) -> tuple[int, str, str, str, int, int]:
        row: tuple[int, str, str, str, int, int] = self._value_
        return row

    @property
    def id(self) -> int:
        return self._row[0]

    @property
    def key(self) -> str:
        return self._row[1]

    @property
    def en(self) -> str:
        return self._row[2]

    @property
    def ja(self) -> str:
        return self._row[3]

    @property
    def han_closed(self) -> int:
        return self._row[4]

    @property
    def han_open(self) -> int:
        return self._row[5]

    @property
    def is_yakuman(self) -> bool:
        return 37 <= self.id <= 51 or self is Yaku.RENHOU

    @classmethod
    def from_id(cls, id_: int) -> Yaku:
        for y in cls:
            if y.id == id_:
                return y
        raise ValueError(f"no yaku with id {id_}")


#: The yakuman whose double value is governed by ``RuleSet.double_yakuman``.
DOUBLE_PATTERNS: Final = {
    Yaku.KOKUSHI_13: "kokushi-13",
    Yaku.SUUANKOU_TANKI: "suuankou-tanki",
    Yaku.JUNSEI_CHUUREN: "junsei-chuuren",
    Yaku.DAISUUSHII: "daisuushii",
}

SEAT_WIND_YAKU: Final = (Yaku.SEAT_EAST, Yaku.SEAT_SOUTH, Yaku.SEAT_WEST, Yaku.SEAT_NORTH)
ROUND_WIND_YAKU: Final = (Yaku.ROUND_EAST, Yaku.ROUND_SOUTH, Yaku.ROUND_WEST, Yaku.ROUND_NORTH)
DRAGON_YAKU: Final = (Yaku.HAKU, Yaku.HATSU, Yaku.CHUN)
