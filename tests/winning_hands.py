"""Seeded random winning hands with random situations, for differential scoring tests."""

from __future__ import annotations

import random
from dataclasses import dataclass

from riichi.scoring import Meld, MeldType, WinContext
from riichi.tiles import EAST, YAOCHU


@dataclass
class Deal:
    hand: list[int]  # concealed tiles before the win
    win: int
    melds: list[Meld]
    context: WinContext


class _Pool:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.free = {k: rng.sample(range(k * 4, k * 4 + 4), 4) for k in range(34)}

    def left(self, kind: int) -> int:
        return len(self.free[kind])

    def take(self, kind: int) -> int:
        return self.free[kind].pop()

    def any_tile(self) -> int:
        kind = self.rng.choice([k for k in range(34) if self.free[k]])
        return self.take(kind)


def _standard(rng: random.Random, pool: _Pool) -> tuple[list[int], list[Meld]] | None:
    melds_wanted = rng.choice([0, 0, 0, 0, 1, 1, 2, 3, 4])
    concealed: list[int] = []
    melds: list[Meld] = []
    for i in range(4):
        as_meld = i < melds_wanted
        if rng.random() < 0.55:
            start = rng.randrange(27)
            start -= max(0, start % 9 - 6)
            kinds = [start, start + 1, start + 2]
            if any(pool.left(k) < 1 for k in kinds):
                return None
            tiles = [pool.take(k) for k in kinds]
            if as_meld:
                melds.append(Meld(MeldType.CHI, tuple(tiles), tiles[rng.randrange(3)], 0))
            else:
                concealed += tiles
        else:
            kind = rng.randrange(34)
            meld_type = (
                rng.choice([MeldType.PON] * 5 + [MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN])
                if as_meld
                else None
            )
            size = 4 if meld_type in (MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN) else 3
            if pool.left(kind) < size:
                return None
            tiles = [pool.take(kind) for _ in range(size)]
            if meld_type is None:
                concealed += tiles
            else:
                called = None if meld_type is MeldType.ANKAN else tiles[0]
                seat = None if called is None else rng.randrange(4)
                melds.append(Meld(meld_type, tuple(tiles), called, seat))
    kind = rng.randrange(34)
    if pool.left(kind) < 2:
        return None
    concealed += [pool.take(kind), pool.take(kind)]
    return concealed, melds


def _chiitoi(rng: random.Random, pool: _Pool) -> list[int]:
    return [pool.take(k) for k in rng.sample(range(34), 7) for _ in range(2)]


def _kokushi(rng: random.Random, pool: _Pool) -> list[int]:
    return [pool.take(k) for k in YAOCHU] + [pool.take(rng.choice(YAOCHU))]


def random_deal(rng: random.Random) -> Deal:
    while True:
        pool = _Pool(rng)
        form = rng.random()
        melds: list[Meld] = []
        if form < 0.08:
            tiles = _chiitoi(rng, pool)
        elif form < 0.1:
            tiles = _kokushi(rng, pool)
        else:
            built = _standard(rng, pool)
            if built is None:
                continue
            tiles, melds = built
        win = tiles.pop(rng.randrange(len(tiles)))
        return Deal(tiles, win, melds, _context(rng, pool, melds))


def _context(rng: random.Random, pool: _Pool, melds: list[Meld]) -> WinContext:
    closed = not any(m.is_open for m in melds)
    tsumo = rng.random() < 0.5
    seat, dealer = rng.randrange(4), rng.randrange(4)
    riichi = closed and rng.random() < 0.5
    has_kan = any(m.is_kan for m in melds)
    rinshan = tsumo and has_kan and rng.random() < 0.3
    first_turn = not melds and rng.random() < 0.02
    chankan = not tsumo and rng.random() < 0.05
    ctx = WinContext(
        tsumo=tsumo,
        seat=seat,
        dealer=dealer,
        discarder=None if tsumo else rng.choice([s for s in range(4) if s != seat]),
        round_wind=EAST + rng.choice([0, 0, 1, 1, 2, 3]),
        riichi=riichi,
        double_riichi=riichi and rng.random() < 0.1,
        ippatsu=riichi and rng.random() < 0.2,
        rinshan=rinshan,
        chankan=chankan,
        haitei=tsumo and not rinshan and rng.random() < 0.05,
        houtei=not tsumo and not chankan and rng.random() < 0.05,
        tenhou=first_turn and tsumo and seat == dealer,
        chiihou=first_turn and tsumo and seat != dealer,
        dora_indicators=tuple(pool.any_tile() for _ in range(rng.choice([1, 1, 2, 3]))),
        honba=rng.choice([0, 0, 1, 2, 5]),
        riichi_sticks=rng.choice([0, 0, 1, 3]),
    )
    if riichi:
        ura = tuple(pool.any_tile() for _ in ctx.dora_indicators)
        ctx = WinContext(**{**_as_dict(ctx), "ura_indicators": ura})
    return ctx


def _as_dict(ctx: WinContext) -> dict[str, object]:
    return {name: getattr(ctx, name) for name in ctx.__dataclass_fields__}
