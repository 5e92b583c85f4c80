"""Scoring a win: every reading is tried and the one that pays most is kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from riichi.errors import InvalidHandError, NotAgariError, NoYakuError
from riichi.hand import Form, Reading, Wait
from riichi.hand.decompose import readings_of
from riichi.rules import ONLINE, DoubleYakuman, Pao, Renhou, RuleSet
from riichi.scoring.context import InvalidContextError, WinContext
from riichi.scoring.melds import Meld
from riichi.scoring.points import Limit, Payment, base_points, payments, round_up
from riichi.scoring.yaku import DRAGON_YAKU, ROUND_WIND_YAKU, SEAT_WIND_YAKU, Yaku
from riichi.tiles import (
    DRAGONS,
    EAST,
    GREENS,
    NORTH,
    NUM_KINDS,
    TERMINALS,
    WINDS,
    YAOCHU,
    dora_of,
    is_yaochu,
    kind_name,
    red_fives_set,
    tiles_name,
)

# The result types are immutable (``Final`` fields) dataclasses with their constructors
# written out: the compiled core runs those natively, where a generated one would be
# interpreted, and every score builds several of them.


@dataclass(init=False, unsafe_hash=True)
class YakuHan:
    """A yaku in a result with the han it gave (for yakuman: how many yakuman)."""

    yaku: Final[Yaku]
    han: Final[int]

    def __init__(self, yaku: Yaku, han: int) -> None:
        self.yaku = yaku
        self.han = han

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return YakuHan, (self.yaku, self.han)


@dataclass(init=False, unsafe_hash=True)
class FuItem:
    label: Final[str]
    fu: Final[int]

    def __init__(self, label: str, fu: int) -> None:
        self.label = label
        self.fu = fu

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return FuItem, (self.label, self.fu)


@dataclass(init=False, unsafe_hash=True)
class ScoreResult:
    """The value of a win and how it is paid.

    ``han`` includes dora; for a yakuman hand it is 0 and ``yakuman`` is the
    number of yakuman (doubles counted twice). ``points`` is the hand's value
    before honba and sticks; ``payments`` include honba; ``deltas`` is each
    seat's change, the winner's including the riichi sticks.
    """

    yaku: Final[tuple[YakuHan, ...]]
    han: Final[int]
    fu: Final[int]
    fu_items: Final[tuple[FuItem, ...]]
    dora: Final[int]
    aka: Final[int]
    ura: Final[int]
    yakuman: Final[int]
    limit: Final[Limit]
    base: Final[int]
    points: Final[int]
    payments: Final[tuple[Payment, ...]]
    deltas: Final[tuple[int, ...]]
    reading: Final[Reading]

    def __init__(
        self,
        yaku: tuple[YakuHan, ...],
        han: int,
        fu: int,
        fu_items: tuple[FuItem, ...],
        dora: int,
        aka: int,
        ura: int,
        yakuman: int,
        limit: Limit,
        base: int,
        points: int,
        payments: tuple[Payment, ...],
        deltas: tuple[int, ...],
        reading: Reading,
    ) -> None:
        self.yaku = yaku
        self.han = han
        self.fu = fu
        self.fu_items = fu_items
        self.dora = dora
        self.aka = aka
        self.ura = ura
        self.yakuman = yakuman
        self.limit = limit
        self.base = base
        self.points = points
        self.payments = payments
        self.deltas = deltas
        self.reading = reading

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return ScoreResult, tuple(getattr(self, f.name) for f in fields(self))

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: every field, yaku with ids and both names."""
        r = self.reading
        return {
            "yaku": [
                {"id": y.yaku.id, "key": y.yaku.key, "en": y.yaku.en, "ja": y.yaku.ja, "han": y.han}
                for y in self.yaku
            ],
            "han": self.han,
            "fu": self.fu,
            "fu_items": [{"label": i.label, "fu": i.fu} for i in self.fu_items],
            "dora": self.dora,
            "aka": self.aka,
            "ura": self.ura,
            "yakuman": self.yakuman,
            "limit": self.limit.value,
            "base": self.base,
            "points": self.points,
            "payments": [{"seat": p.seat, "points": p.points} for p in self.payments],
            "deltas": list(self.deltas),
            "reading": {
                "form": r.form.value,
                "sets": [str(b) for b in r.sets],
                "pair": None if r.pair is None else kind_name(r.pair),
                "wait": None if r.wait is None else r.wait.value,
            },
        }

    def __str__(self) -> str:
        if self.yakuman:
            value = "yakuman" if self.yakuman == 1 else f"{self.yakuman}x yakuman"
        else:
            value = f"{self.han} han {self.fu} fu"
            if self.limit is not Limit.NONE:
                value += f" {self.limit.value}"
        return f"{value}: {self.points}"


class _Set:
    __slots__ = ("called", "concealed", "kan", "kind", "sequence")

    def __init__(self, kind: int, sequence: bool, kan: bool, concealed: bool, called: bool) -> None:
        self.kind = kind
        self.sequence = sequence
        self.kan = kan
        self.concealed = concealed  # a closed triplet for fu and the concealed-triplet yaku
        self.called = called  # opens the hand


_DOUBLE: Final = {
    Yaku.KOKUSHI_13: DoubleYakuman.KOKUSHI_13,
    Yaku.SUUANKOU_TANKI: DoubleYakuman.SUUANKOU_TANKI,
    Yaku.JUNSEI_CHUUREN: DoubleYakuman.JUNSEI_CHUUREN,
    Yaku.DAISUUSHII: DoubleYakuman.DAISUUSHII,
}
_NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)
# kinds as bits, for the facts about every tile of a hand (a bit per kind it holds)
_GREEN_MASK: Final = sum(1 << k for k in GREENS)
_YAOCHU_MASK: Final = sum(1 << k for k in YAOCHU)
_TERMINAL_MASK: Final = sum(1 << k for k in TERMINALS)
_MAN_MASK: Final = (1 << 9) - 1
_PIN_MASK: Final = _MAN_MASK << 9
_SOU_MASK: Final = _MAN_MASK << 18
_NUMBER_MASK: Final = (1 << 27) - 1
_HONOR_MASK: Final = ((1 << NUM_KINDS) - 1) & ~_NUMBER_MASK
# fu labels made once: "closed kan 1z" by 4 * kind + 2 * concealed + kan, pairs by kind
_SET_LABELS: Final = tuple(
    f"{'closed' if concealed else 'open'} {'kan' if kan else 'triplet'} {kind_name(k)}"
    for k in range(NUM_KINDS)
    for concealed in (0, 1)
    for kan in (0, 1)
)
_PAIR_LABELS: Final = tuple(
    f"{'dragon' if k in DRAGONS else 'wind'} pair {kind_name(k)}" for k in range(NUM_KINDS)
)
_DOUBLE_WIND_LABELS: Final = tuple(f"double wind pair {kind_name(k)}" for k in WINDS)
_WIND_NAMES = ("East", "South", "West", "North")


def score(
    hand: Sequence[int],
    win_tile: int,
    melds: Sequence[Meld] = (),
    context: WinContext | None = None,
    rules: RuleSet = ONLINE,
) -> ScoreResult:
    """Score a win.

    ``hand`` holds the concealed tiles before the win (physical ids, 13 minus
    three per meld), ``win_tile`` the tile won on, ``melds`` the declared
    sets. Raises ``NotAgariError`` when the tiles are not complete and
    ``NoYakuError`` when no reading has a yaku.
    """
    found = score_if_yaku(hand, win_tile, melds, context, rules)
    if found is None:
        ctx = context or WinContext(tsumo=True)
        seat_wind = ctx.seat_wind(rules.players)
        raise NoYakuError(_NoYakuMessage(hand, win_tile, melds, ctx, seat_wind))
    return found


def score_if_yaku(
    hand: Sequence[int],
    win_tile: int,
    melds: Sequence[Meld] = (),
    context: WinContext | None = None,
    rules: RuleSet = ONLINE,
) -> ScoreResult | None:
    """``score``, but None where the win has no yaku: an engine asks that of many hands,
    and an exception each time would cost more than the answer."""
    ctx = context or WinContext(tsumo=True)
    ctx.check(rules.players)
    all_ids = list(hand)
    all_ids.append(win_tile)
    for m in melds:
        all_ids.extend(m.tiles)
    if not _distinct_tiles(all_ids):
        raise InvalidHandError(f"tiles repeat or are out of range: {tiles_name(all_ids)}")
    if (ctx.riichi or ctx.ippatsu) and any(m.is_open for m in melds):
        raise InvalidContextError("riichi needs a closed hand: it has called sets")
    if (ctx.tenhou or ctx.chiihou or ctx.renhou) and melds:
        raise InvalidContextError(
            "tenhou, chiihou and renhou come before any call or kan: the winner has sets"
        )
    if len(hand) != 13 - 3 * len(melds):
        raise InvalidHandError(
            f"{len(hand)} concealed tiles with {len(melds)} melds: expected {13 - 3 * len(melds)}"
        )
    counts = [0] * NUM_KINDS
    for t in hand:
        counts[t >> 2] += 1
    win = win_tile >> 2
    counts[win] += 1
    # the tiles are checked: distinct ids, 14 - 3 x melds of them
    readings = readings_of(bytes(counts), 4 - len(melds), win)
    if not readings:
        raise NotAgariError(
            f"{tiles_name(hand)} + {tiles_name([win_tile])} with "
            f"{len(melds)} melds is not a complete hand"
        )
    every = [0] * NUM_KINDS
    held = 0  # a bit per kind
    for t in all_ids:
        every[t >> 2] += 1
        held |= 1 << (t >> 2)
    seat_wind = ctx.seat_wind(rules.players)
    info = _HandInfo(held, counts, melds, win)
    dora, aka, ura = _dora(all_ids, every, ctx, rules)
    extra = dora + aka + ura
    # the reading that pays most, then has most han (yakuman first), then most fu
    best: tuple[_Found, Reading, int, Limit] | None = None
    best_value = best_han = best_fu = -1
    for reading in readings:
        found = _evaluate(reading, info, ctx, seat_wind, rules)
        if found is None:
            continue
        han = 0 if found.yakuman else _han(found.yaku) + extra
        base, limit = base_points(han, found.fu, found.yakuman, rules)
        value = _value(base, ctx, rules)
        rank = han + 100 * found.yakuman
        if value > best_value or (
            value == best_value and (rank > best_han or (rank == best_han and found.fu > best_fu))
        ):
            best = (found, reading, base, limit)
            best_value, best_han, best_fu = value, rank, found.fu
    if best is None:
        return None
    found, reading, base, limit = best
    return _price(found, reading, base, limit, (dora, aka, ura), ctx, rules)


def _distinct_tiles(ids: list[int]) -> bool:
    """Whether ``ids`` are distinct tile ids 0..135: a bit each in three words of 62 bits,
    which the compiled core keeps in machine integers (a set costs more)."""
    low = mid = high = 0
    for t in ids:
        if t < 0 or t >= 136:
            return False
        if t < 62:
            if low >> t & 1:
                return False
            low |= 1 << t
        elif t < 124:
            if mid >> (t - 62) & 1:
                return False
            mid |= 1 << (t - 62)
        else:
            if high >> (t - 124) & 1:
                return False
            high |= 1 << (t - 124)
    return True


class _NoYakuMessage:
    """The message of a NoYakuError, formatted only if someone reads it.

    Engines ask about many hands that have no yaku; formatting each would
    cost more than scoring it.
    """

    def __init__(
        self, hand: Sequence[int], win: int, melds: Sequence[Meld], ctx: WinContext, seat: int
    ) -> None:
        self.args = (hand, win, melds, ctx, seat)

    def __str__(self) -> str:
        hand, win, melds, ctx, seat = self.args
        return (
            f"no yaku: {tiles_name(hand)} + {tiles_name([win])}"
            + "".join(f" {m}" for m in melds)
            + f" ({'tsumo' if ctx.tsumo else 'ron'}, seat wind {_WIND_NAMES[seat - EAST]},"
            f" round wind {_WIND_NAMES[ctx.round_wind - EAST]})"
        )


def _han(yaku: list[YakuHan]) -> int:
    han = 0
    for y in yaku:
        han += y.han
    return han


def _value(base: int, ctx: WinContext, rules: RuleSet) -> int:
    """What a win of ``base`` base points pays in all, to rank readings."""
    if not ctx.tsumo:
        return round_up(base * (6 if ctx.is_dealer else 4))
    if ctx.is_dealer:
        return (rules.players - 1) * round_up(2 * base)
    return round_up(2 * base) + (rules.players - 2) * round_up(base)


class _HandInfo:
    """What the readings of one hand share, computed once per score; ``held`` has a bit
    for each kind in the hand and its sets."""

    def __init__(self, held: int, counts: list[int], melds: Sequence[Meld], win: int) -> None:
        self.counts = counts
        self.win = win
        self.no_melds = not melds
        self.meld_sets: list[_Set] = []
        closed = True
        for m in melds:
            opened = m.is_open
            closed = closed and not opened
            self.meld_sets.append(_Set(m.kind, m.is_sequence, m.is_kan, not opened, opened))
        self.closed = closed
        self.all_simple = not held & _YAOCHU_MASK
        self.all_yaochu = not held & ~_YAOCHU_MASK
        self.all_honor = not held & _NUMBER_MASK
        self.all_terminal = not held & ~_TERMINAL_MASK
        self.all_green = not held & ~_GREEN_MASK
        suits = (held & _MAN_MASK != 0) + (held & _PIN_MASK != 0) + (held & _SOU_MASK != 0)
        self.one_suit = suits == 1
        self.has_honor = held & _HONOR_MASK != 0


class _Found:
    __slots__ = ("fu", "fu_items", "pao_count", "yaku", "yakuman")

    def __init__(
        self, yaku: list[YakuHan], yakuman: int, fu: int, fu_items: list[FuItem], pao_count: int
    ) -> None:
        self.yaku = yaku
        self.yakuman = yakuman
        self.fu = fu
        self.fu_items = fu_items
        self.pao_count = pao_count  # yakuman covered by pao in this reading


def _sets_of(reading: Reading, info: _HandInfo, tsumo: bool) -> list[_Set]:
    sets = []
    for i, block in enumerate(reading.sets):
        # a triplet completed by someone else's discard counts as open
        ron_triplet = not tsumo and block.triplet and i == reading.wait_index
        sets.append(
            _Set(block.kind, not block.triplet, False, block.triplet and not ron_triplet, False)
        )
    return sets + info.meld_sets


def _evaluate(
    reading: Reading, info: _HandInfo, ctx: WinContext, seat_wind: int, rules: RuleSet
) -> _Found | None:
    sets = _sets_of(reading, info, ctx.tsumo)
    yakuman = _yakuman(reading, sets, info, ctx, rules)
    if yakuman:
        count = sum(y.han for y in yakuman)
        if not rules.yakuman_stacking:
            yakuman = [max(yakuman, key=lambda y: y.han)]
            count = yakuman[0].han
        pao = sum(y.han for y in yakuman if y.yaku in (Yaku.DAISANGEN, Yaku.DAISUUSHII))
        fu, items = _fu(reading, sets, ctx, seat_wind, info.closed, False, rules)
        return _Found(yakuman, count, fu, items, pao)
    yaku = _yaku(reading, sets, info, ctx, seat_wind, rules)
    if not yaku:
        return None
    pinfu = False
    for y in yaku:
        pinfu = pinfu or y.yaku is Yaku.PINFU
    fu, items = _fu(reading, sets, ctx, seat_wind, info.closed, pinfu, rules)
    return _Found(yaku, 0, fu, items, 0)


def _yakuman(
    reading: Reading, sets: list[_Set], info: _HandInfo, ctx: WinContext, rules: RuleSet
) -> list[YakuHan]:
    found: list[Yaku] = []
    if ctx.tenhou:
        found.append(Yaku.TENHOU)
    if ctx.chiihou:
        found.append(Yaku.CHIIHOU)
    if ctx.renhou and rules.renhou is Renhou.YAKUMAN:
        found.append(Yaku.RENHOU)
    if info.all_honor:
        found.append(Yaku.TSUUIISOU)
    if info.all_terminal:
        found.append(Yaku.CHINROUTOU)
    if info.all_green:
        found.append(Yaku.RYUUIISOU)
    if reading.form is Form.KOKUSHI:
        found.append(Yaku.KOKUSHI_13 if reading.wait is Wait.KOKUSHI_13 else Yaku.KOKUSHI)
    if reading.form is Form.STANDARD:
        concealed = kans = dragons = winds = 0
        for st in sets:
            if st.sequence:
                continue
            if st.concealed:
                concealed += 1
            if st.kan:
                kans += 1
            if st.kind >= DRAGONS[0]:
                dragons += 1
            elif st.kind >= WINDS[0]:
                winds += 1
        if concealed == 4:
            found.append(Yaku.SUUANKOU_TANKI if reading.wait is Wait.TANKI else Yaku.SUUANKOU)
        if dragons == 3:
            found.append(Yaku.DAISANGEN)
        if winds == 4:
            found.append(Yaku.DAISUUSHII)
        elif winds == 3 and reading.pair in WINDS:
            found.append(Yaku.SHOUSUUSHII)
        if kans == 4:
            found.append(Yaku.SUUKANTSU)
        win = info.win
        if info.no_melds and info.one_suit and not info.has_honor:
            suit = win // 9 * 9
            part = info.counts[suit : suit + 9]
            if all(c >= n for c, n in zip(part, _NINE_GATES, strict=True)):
                part[win - suit] -= 1
                pure = tuple(part) == _NINE_GATES
                found.append(Yaku.JUNSEI_CHUUREN if pure else Yaku.CHUUREN)
    return [YakuHan(y, _yakuman_value(y, rules)) for y in found] if found else []


def _yakuman_value(yaku: Yaku, rules: RuleSet) -> int:
    pattern = _DOUBLE.get(yaku)
    return 2 if pattern is not None and pattern in rules.double_yakuman else 1


def _yaku(
    reading: Reading,
    sets: list[_Set],
    info: _HandInfo,
    ctx: WinContext,
    seat_wind: int,
    rules: RuleSet,
) -> list[YakuHan]:
    closed = info.closed
    found: list[Yaku] = []
    if ctx.riichi:
        found.append(Yaku.DOUBLE_RIICHI if ctx.double_riichi else Yaku.RIICHI)
    if ctx.ippatsu and rules.ippatsu:
        found.append(Yaku.IPPATSU)
    if ctx.renhou and rules.renhou is Renhou.MANGAN:
        found.append(Yaku.RENHOU)
    if closed and ctx.tsumo:
        found.append(Yaku.MENZEN_TSUMO)
    if ctx.chankan:
        found.append(Yaku.CHANKAN)
    if ctx.rinshan:
        found.append(Yaku.RINSHAN)
    if ctx.haitei:
        found.append(Yaku.HAITEI)
    if ctx.houtei:
        found.append(Yaku.HOUTEI)
    if info.all_simple and (closed or rules.kuitan):
        found.append(Yaku.TANYAO)
    if info.one_suit:
        found.append(Yaku.HONITSU if info.has_honor else Yaku.CHINITSU)
    if info.all_yaochu:
        found.append(Yaku.HONROUTOU)
    if reading.form is Form.CHIITOITSU:
        found.append(Yaku.CHIITOITSU)
    elif reading.form is Form.STANDARD:
        found += _set_yaku(reading, sets, ctx, seat_wind, closed, rules)
    out = []
    for y in found:
        han = y.han_closed if closed else y.han_open
        if han:  # renhou as a mangan is worth five han on its own
            out.append(YakuHan(y, 5 if y is Yaku.RENHOU else han))
    return out


def _set_yaku(
    reading: Reading,
    sets: list[_Set],
    ctx: WinContext,
    seat_wind: int,
    closed: bool,
    rules: RuleSet,
) -> list[Yaku]:
    found: list[Yaku] = []
    pair = reading.pair
    assert pair is not None
    seqs: list[int] = []
    triplets: list[int] = []
    concealed = kans = 0
    outside = is_yaochu(pair)  # every set and the pair hold a terminal or honour
    for st in sets:
        if st.sequence:
            seqs.append(st.kind)
            outside = outside and st.kind % 9 in (0, 6)
        else:
            triplets.append(st.kind)
            if st.concealed:
                concealed += 1
            if st.kan:
                kans += 1
            outside = outside and is_yaochu(st.kind)
    round_wind = ctx.round_wind
    for t in triplets:
        if t >= 27:
            if t in DRAGONS:
                found.append(DRAGON_YAKU[t - DRAGONS[0]])
            if t == seat_wind:
                found.append(SEAT_WIND_YAKU[t - WINDS[0]])
            if t == round_wind:
                found.append(ROUND_WIND_YAKU[t - WINDS[0]])
            if t == NORTH and rules.north_pon_han:
                found.append(Yaku.NORTH)
    seq_set = set(seqs)
    if closed and seqs:
        if (
            len(seqs) == 4
            and reading.wait is Wait.RYANMEN
            and not (pair in DRAGONS or pair in (seat_wind, round_wind))
        ):
            found.append(Yaku.PINFU)
        peiko = sum(seqs.count(x) // 2 for x in seq_set)
        if peiko == 2:
            found.append(Yaku.RYANPEIKOU)
        elif peiko == 1:
            found.append(Yaku.IIPEIKOU)
    if outside and seqs:
        honors = pair >= 27 or any(t >= 27 for t in triplets)
        found.append(Yaku.CHANTA if honors else Yaku.JUNCHAN)
    if len(seq_set) >= 3:
        for x in seq_set:
            if x % 9 == 0 and x + 3 in seq_set and x + 6 in seq_set:
                found.append(Yaku.ITTSU)
            if x < 9 and x + 9 in seq_set and x + 18 in seq_set:
                found.append(Yaku.SANSHOKU)
    if pair in DRAGONS and sum(d in triplets for d in DRAGONS) == 2:
        found.append(Yaku.SHOUSANGEN)
    if len(triplets) >= 3:
        trip_set = set(triplets)
        if any(x < 9 and x + 9 in trip_set and x + 18 in trip_set for x in trip_set):
            found.append(Yaku.SANSHOKU_DOUKOU)
        if len(triplets) == 4:
            found.append(Yaku.TOITOI)
        if concealed == 3:
            found.append(Yaku.SANANKOU)
        if kans == 3:
            found.append(Yaku.SANKANTSU)
    return found


def _fu(
    reading: Reading,
    sets: list[_Set],
    ctx: WinContext,
    seat_wind: int,
    closed: bool,
    pinfu: bool,
    rules: RuleSet,
) -> tuple[int, list[FuItem]]:
    if reading.form is Form.CHIITOITSU:
        return 25, [FuItem("seven pairs", 25)]
    if reading.form is Form.KOKUSHI:
        return 0, []
    if pinfu and ctx.tsumo:
        return 20, [FuItem("pinfu tsumo", 20)]
    items = [FuItem("base", 20)]
    if closed and not ctx.tsumo:
        items.append(FuItem("closed ron", 10))
    if ctx.tsumo:
        items.append(FuItem("tsumo", 2))
    for s in sets:
        if s.sequence:
            continue
        fu = 2 * (2 if is_yaochu(s.kind) else 1) * (2 if s.concealed else 1) * (4 if s.kan else 1)
        items.append(FuItem(_SET_LABELS[4 * s.kind + 2 * s.concealed + s.kan], fu))
    pair = reading.pair
    assert pair is not None
    if pair in DRAGONS:
        items.append(FuItem(_PAIR_LABELS[pair], 2))
    elif pair == seat_wind and pair == ctx.round_wind:
        items.append(FuItem(_DOUBLE_WIND_LABELS[pair - EAST], rules.double_wind_pair_fu))
    elif pair == ctx.round_wind or pair == seat_wind:
        items.append(FuItem(_PAIR_LABELS[pair], 2))
    wait = reading.wait
    if wait is Wait.KANCHAN:
        items.append(FuItem("kanchan wait", 2))
    elif wait is Wait.PENCHAN:
        items.append(FuItem("penchan wait", 2))
    elif wait is Wait.TANKI:
        items.append(FuItem("tanki wait", 2))
    raw = sum(i.fu for i in items)
    if raw == 20 and not closed:
        items.append(FuItem("open pinfu shape", 10))
        return 30, items
    total = -(-raw // 10) * 10
    if total != raw:
        items.append(FuItem("rounding", total - raw))
    return total, items


def _dora(
    all_ids: list[int], every: list[int], ctx: WinContext, rules: RuleSet
) -> tuple[int, int, int]:
    three = rules.players == 3
    # Norths set aside are dora each, and count as held for the indicators
    dora = ctx.kita + _indicated(ctx.dora_indicators, rules.kan_dora, every, ctx.kita, three)
    ura = 0
    if ctx.riichi and rules.ura_dora:
        ura = _indicated(ctx.ura_indicators, rules.kan_ura, every, ctx.kita, three)
    aka = 0
    if rules.red_fives:
        reds = red_fives_set(rules.red_fives)
        for t in all_ids:
            if t in reds:
                aka += 1
    return dora, aka, ura


def _indicated(
    indicators: Sequence[int], all_count: bool, every: list[int], kita: int, three: bool
) -> int:
    """The held tiles that ``indicators`` make dora (only the first's unless ``all_count``),
    with ``kita`` Norths set aside counted as held."""
    count = 0
    for i, t in enumerate(indicators):
        if i and not all_count:
            break
        kind = dora_of(t >> 2, three)
        count += every[kind] + (kita if kind == NORTH else 0)
    return count


def _price(
    found: _Found,
    reading: Reading,
    base: int,
    limit: Limit,
    bonus: tuple[int, int, int],
    ctx: WinContext,
    rules: RuleSet,
) -> ScoreResult:
    dora, aka, ura = (0, 0, 0) if found.yakuman else bonus
    han = 0 if found.yakuman else _han(found.yaku) + dora + aka + ura
    covered = 0
    if found.pao_count:
        covered = base if rules.pao is Pao.WHOLE else 8000 * found.pao_count
    pays = payments(
        base,
        covered,
        tsumo=ctx.tsumo,
        winner=ctx.seat,
        dealer=ctx.dealer,
        discarder=ctx.discarder,
        liable=ctx.pao if found.pao_count else None,
        honba=ctx.honba,
        rules=rules,
    )
    deltas = [0] * rules.players
    paid = 0
    for p in pays:
        deltas[p.seat] -= p.points
        paid += p.points
    deltas[ctx.seat] += paid + ctx.riichi_sticks * rules.riichi_stick
    honba = (rules.honba_tsumo * (rules.players - 1) if ctx.tsumo else rules.honba_ron) * ctx.honba
    return ScoreResult(
        yaku=tuple(found.yaku),
        han=han,
        fu=found.fu,
        fu_items=tuple(found.fu_items),
        dora=dora,
        aka=aka,
        ura=ura,
        yakuman=found.yakuman,
        limit=limit,
        base=base,
        points=paid - honba,
        payments=tuple(pays),
        deltas=tuple(deltas),
        reading=reading,
    )
