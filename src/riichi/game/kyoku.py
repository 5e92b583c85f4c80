"""One hand (kyoku): from the deal to a win, an exhaustive draw or an abort.

The hand is a state machine driven through ``legal_actions`` and ``apply``.
After a draw the seat to act chooses (``TURN``); after a discard, an added
kan or (where kokushi may rob it) a closed kan, every seat that may claim the
tile answers (``RESPONSE``) and the claims are resolved by priority: ron,
then pon or kan, then chi, ties by turn order from the discarder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from riichi.game.actions import (
    DISCARDS,
    KITAS,
    KYUUSHU,
    PASS,
    RIICHIS,
    Action,
    ActionType,
    IllegalActionError,
)
from riichi.game.events import Event
from riichi.game.wall import Wall
from riichi.hand import shanten
from riichi.hand.shanten import necessary_mask, replacement
from riichi.rules import KanDoraTiming, Pao, RuleSet, TripleRon
from riichi.scoring import Meld, MeldType, ScoreResult, WinContext, ron_order, score_if_yaku
from riichi.tiles import (
    DRAGONS,
    EAST,
    NORTH,
    WINDS,
    YAOCHU,
    is_red,
    is_yaochu,
    tiles_name,
)


class Phase(Enum):
    TURN = "turn"
    RESPONSE = "response"
    OVER = "over"


class Claim(Enum):
    """What the tile under response came from."""

    DISCARD = "discard"
    KAKAN = "kakan"  # only ron (chankan)
    ANKAN = "ankan"  # only a thirteen-orphans ron, where allowed
    KITA = "kita"  # a North set aside: only ron


@dataclass(init=False)
class DiscardInfo:
    tile: int
    tsumogiri: bool
    riichi: bool
    called: bool

    # written out: the compiled core runs it natively, a generated one is interpreted
    def __init__(self, tile: int, tsumogiri: bool, riichi: bool, called: bool = False) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called = called

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return DiscardInfo, (self.tile, self.tsumogiri, self.riichi, self.called)


@dataclass
class Seat:
    hand: list[int]
    counts: list[int] = field(default_factory=lambda: [0] * 34)  # kinds in ``hand``
    melds: list[Meld] = field(default_factory=list)
    kita: list[int] = field(default_factory=list)  # Norths set aside (three players)
    discards: list[DiscardInfo] = field(default_factory=list)
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    furiten_temp: bool = False
    furiten_riichi: bool = False
    waits: int = 0  # bitmask of kinds that complete the 3M+1 hand (0 when not tenpai)
    drew: bool = False  # has drawn at least once this hand
    liable: int | None = None  # the seat that fed a pao yakuman

    def __post_init__(self) -> None:
        for t in self.hand:
            self.counts[t >> 2] += 1

    def add(self, tile: int) -> None:
        self.hand.append(tile)
        self.counts[tile >> 2] += 1

    def take(self, tile: int) -> None:
        self.hand.remove(tile)
        self.counts[tile >> 2] -= 1

    @property
    def closed(self) -> bool:
        # only ankan keeps a hand closed; most hands have no melds at all
        return not self.melds or all(m.type is MeldType.ANKAN for m in self.melds)

    def discarded_kinds(self) -> int:
        mask = 0
        for d in self.discards:
            mask |= 1 << (d.tile >> 2)
        return mask


@dataclass
class HandResult:
    """How a hand ended. ``deltas`` include riichi sticks taken by a winner."""

    kind: str  # "win", "exhaustive", "abort"
    deltas: list[int]
    wins: list[tuple[int, int | None, ScoreResult]] = field(default_factory=list)
    abort: str | None = None  # nine-terminals, four-winds, four-riichi, four-kans, triple-ron
    tenpai: list[int] = field(default_factory=list)
    nagashi: list[int] = field(default_factory=list)
    dealer_repeats: bool = False


def kuikae_mask(kind: int, low: int | None) -> int:
    """Kinds (a bit each) a seat may not let go right after calling ``kind``: that kind,
    and for a chi whose run starts at ``low`` the kind at the run's other end."""
    mask = 1 << kind
    if low is not None:  # the other end of the run is forbidden too
        if kind == low and low % 9 <= 5:
            mask |= 1 << (low + 3)
        if kind == low + 2 and low % 9 >= 1:
            mask |= 1 << (low - 1)
    return mask


def _waits_mask(counts: list[int], melds: int) -> int:
    # the engine's own counts are always valid: no check (hand_bytes' is a third of
    # the cost on the hot path of every discard)
    b, sets = bytes(counts), 4 - melds
    r = replacement(b, sets)
    return necessary_mask(b, sets, r) if r == 1 else 0


class Kyoku:
    """The state of one hand. Seats are absolute; ``dealer`` deals and draws first."""

    def __init__(
        self,
        rules: RuleSet,
        wall: Wall,
        *,
        dealer: int,
        round_wind: int,
        honba: int,
        sticks: int,
        scores: list[int],
        deal: bool = True,
    ) -> None:
        n = rules.players
        self.rules = rules
        self.wall = wall
        self.n = n
        self.dealer = dealer
        self.round_wind = round_wind
        self.honba = honba
        self.sticks = sticks
        self.scores = scores  # shared with the match; riichi sticks and results change it
        self.seats = (
            [Seat(hand=list(wall.hands[(s - dealer) % n])) for s in range(n)] if deal else []
        )
        for seat in self.seats:
            seat.waits = _waits_mask(seat.counts, 0)
        self.live = wall.draws + wall.tail()
        self.draw_index = 0
        self.rinshan_index = 0
        self.kan_owners: list[int] = []
        self.kitas = 0  # Norths set aside: each takes a replacement tile, as a kan does
        self.dora_shown = 1
        self.dora_pending = 0  # kan indicators still to show (after a replacement or a discard)
        self.dora_timing = KanDoraTiming.AFTER_DISCARD
        self.phase = Phase.TURN
        self.current = dealer
        self.drawn: int | None = None
        self.after_call = False
        self.from_rinshan = False
        self.first_go_around = True  # no call yet, and nobody's second draw yet
        self.kuikae: int = 0  # kinds the current seat may not discard after its call
        self.riichi_pending: int | None = None  # seat whose riichi discard awaits responses
        self.claim: Claim = Claim.DISCARD
        self.claim_tile: int | None = None
        self.claim_from: int | None = None
        self.options: dict[int, list[Action]] = {}
        self.answers: dict[int, Action] = {}
        self.result: HandResult | None = None
        self.events: list[Event] = []
        self._legal: dict[int, list[Action]] | None = None
        if deal:
            self._emit_start()
            self._draw(dealer, rinshan=False)

    @classmethod
    def resumed(
        cls,
        rules: RuleSet,
        wall: Wall,
        seats: list[Seat],
        *,
        dealer: int,
        round_wind: int,
        honba: int,
        sticks: int,
        scores: list[int],
        current: int,
        drawn: int,
        live: list[int],
        kan_owners: list[int],
        kitas: int,
        dora_shown: int,
    ) -> Kyoku:
        """A hand taken up at ``current``'s turn, just after its draw of ``drawn``: the
        seats as they stand (hands, sets, rivers, riichi), ``live`` the tiles still to
        draw in order, ``wall`` for the dead wall (replacement tiles past those the
        kans and Norths took, the indicators, ``dora_shown`` of them showing). What a
        search plays out on hidden tiles sampled from one seat's view; nothing is
        emitted for what came before."""
        k = cls(
            rules,
            wall,
            dealer=dealer,
            round_wind=round_wind,
            honba=honba,
            sticks=sticks,
            scores=scores,
            deal=False,
        )
        k.seats = seats
        for s, seat in enumerate(seats):
            counts = list(seat.counts)
            if s == current:  # the waits of the hand it held before this draw
                counts[drawn >> 2] -= 1
            seat.waits = _waits_mask(counts, len(seat.melds))
        k.live = live
        k.kan_owners = kan_owners
        k.kitas = kitas
        k.rinshan_index = len(kan_owners) + kitas
        k.dora_shown = dora_shown
        k.current = current
        k.drawn = drawn
        # the first go-around lasts while nobody called and this is the seat's first draw
        k.first_go_around = not seats[current].discards and not any(
            s.melds or s.kita for s in seats
        )
        return k

    # ------------------------------------------------------------------ views

    def live_left(self) -> int:
        return len(self.live) - self.draw_index - len(self.kan_owners) - self.kitas

    def dora_indicators(self) -> list[int]:
        return self.wall.dora[: self.dora_shown]

    def seat_wind(self, seat: int) -> int:
        return EAST + (seat - self.dealer) % self.n

    def legal_actions(self) -> dict[int, list[Action]]:
        """Every seat that must decide now, with its legal actions in a stable order."""
        if self._legal is None:
            if self.phase is Phase.OVER:
                self._legal = {}
            elif self.phase is Phase.TURN:
                self._legal = {self.current: self._turn_options()}
            else:
                self._legal = {
                    s: opts for s, opts in sorted(self.options.items()) if s not in self.answers
                }
        return self._legal

    def summary(self) -> str:
        """A readable state line for error messages."""
        hands = "; ".join(
            f"seat {s}: {tiles_name(st.hand)}" + "".join(f" {m}" for m in st.melds)
            for s, st in enumerate(self.seats)
        )
        waiting = ", ".join(str(s) for s in self.legal_actions()) or "nobody"
        return (
            f"phase {self.phase.value}, seat {self.current} to act, waiting on {waiting},"
            f" {self.live_left()} live tiles; {hands}"
        )

    # ------------------------------------------------------------------ apply

    def apply(self, seat: int, action: Action) -> list[Event]:
        legal = self.legal_actions()
        if seat not in legal:
            raise IllegalActionError(f"seat {seat} may not act now: {self.summary()}")
        if action not in legal[seat] and not self._equivalent_call(seat, action, legal[seat]):
            options = ", ".join(str(a) for a in legal[seat])
            raise IllegalActionError(
                f"{action} is not legal for seat {seat}; legal: {options}. {self.summary()}"
            )
        start = len(self.events)
        self._legal = None
        if self.phase is Phase.TURN:
            self._apply_turn(seat, action)
        else:
            self.answers[seat] = action
            if len(self.answers) == len(self.options):
                self._resolve()
        return self.events[start:]

    def _equivalent_call(self, seat: int, action: Action, legal: list[Action]) -> bool:
        """A call naming other plain copies than the offered one is the same call.

        Calls are offered once per distinct choice (red or plain tiles), with
        the lowest copies; a record may name any copies the hand holds.
        """
        if action.type is ActionType.KITA:  # any North in the hand is the same
            hand = self.seats[seat].hand
            return action.tile in hand and any(a.type is ActionType.KITA for a in legal)
        if action.type not in (ActionType.CHI, ActionType.PON) or not action.tiles:
            return False
        hand = list(self.seats[seat].hand)
        for t in action.tiles:
            if t not in hand:
                return False
            hand.remove(t)
        reds = self.rules.red_fives
        want = sorted((t >> 2, is_red(t, reds)) for t in action.tiles)
        return any(
            a.type is action.type
            and a.tile == action.tile
            and sorted((t >> 2, is_red(t, reds)) for t in a.tiles) == want
            for a in legal
        )

    # ------------------------------------------------------------------ turn

    def _turn_options(self) -> list[Action]:
        # built directly in the stable order (Action.sort_key): discards, riichi
        # discards, tsumo, kans, nine terminals; tiles ascending within each
        seat = self.seats[self.current]
        hand = sorted(seat.hand)
        if self.after_call:
            banned = self.kuikae if self.rules.kuikae_forbidden else 0
            return [DISCARDS[t] for t in hand if not banned >> (t >> 2) & 1]
        drawn = self.drawn
        assert drawn is not None
        if seat.riichi:
            out = [DISCARDS[drawn]]
        else:
            out = [DISCARDS[t] for t in hand]
            out += [RIICHIS[t] for t in self._riichi_discards(hand)]
        if self._can_tsumo():
            out.append(Action(ActionType.TSUMO, drawn))
        out += self._kan_options()
        kita = self._kita_option()
        if kita is not None:
            out.append(kita)
        if self._can_kyuushu():
            out.append(KYUUSHU)
        return out

    def _can_tsumo(self) -> bool:
        assert self.drawn is not None
        if not self.seats[self.current].waits >> (self.drawn >> 2) & 1:
            return False
        return self._score(self.current, self.drawn, tsumo=True) is not None

    def _can_kyuushu(self) -> bool:
        seat = self.seats[self.current]
        if not (self.rules.abort_nine_terminals and self.first_go_around and not seat.discards):
            return False
        kinds = {t >> 2 for t in seat.hand}
        return sum(1 for k in YAOCHU if k in kinds) >= 9

    def _kan_allowed(self) -> bool:
        if self.live_left() <= 0:
            return False
        if len(self.kan_owners) < 4:
            return self.rinshan_index < len(self.wall.rinshan)
        # a fifth kan aborts the hand where the rules say so, unless one player holds
        # all four (going for four kans): nobody may make a fifth then
        return self.rules.four_kan_abort_on_fifth and len(set(self.kan_owners)) > 1

    def _kita_option(self) -> Action | None:
        """Setting a North aside: after a draw, while a replacement tile is left; in
        riichi only the North just drawn (the hand may not change)."""
        seat = self.seats[self.current]
        if not self.rules.kita or not seat.counts[NORTH]:
            return None
        if self.live_left() <= 0 or self.rinshan_index >= len(self.wall.rinshan):
            return None
        drawn = self.drawn
        if seat.riichi:
            return KITAS[drawn] if drawn is not None and drawn >> 2 == NORTH else None
        return KITAS[min(t for t in seat.hand if t >> 2 == NORTH)]

    def _kan_options(self) -> list[Action]:
        seat = self.seats[self.current]
        counts = seat.counts
        has_quad = 4 in counts
        has_pon = any(m.type is MeldType.PON for m in seat.melds)
        if not (has_quad or has_pon) or not self._kan_allowed():
            return []
        out = []
        if has_quad:
            for kind in range(34):
                if counts[kind] == 4 and (not seat.riichi or self._riichi_ankan_ok(kind)):
                    tiles = tuple(sorted(t for t in seat.hand if t >> 2 == kind))
                    out.append(Action(ActionType.ANKAN, tiles[0], tiles))
        if has_pon and not seat.riichi:
            pons = {m.kind for m in seat.melds if m.type is MeldType.PON}
            out += [Action(ActionType.KAKAN, t) for t in sorted(seat.hand) if t >> 2 in pons]
        return out

    def _riichi_ankan_ok(self, kind: int) -> bool:
        """After riichi a closed kan must use the drawn tile and keep the waits."""
        seat = self.seats[self.current]
        assert self.drawn is not None
        if self.drawn >> 2 != kind:
            return False
        rest = list(seat.counts)
        rest[kind] = 0
        return _waits_mask(rest, len(seat.melds) + 1) == seat.waits

    def _riichi_discards(self, hand: list[int]) -> list[int]:
        seat = self.seats[self.current]
        rules = self.rules
        if (
            seat.riichi
            or not seat.closed
            or self.scores[self.current] < rules.riichi_stick
            or self.live_left() < rules.riichi_min_live_tiles
        ):
            return []
        counts = list(seat.counts)
        sets = 4 - len(seat.melds)
        # replacement numbers of the engine's own (valid) counts: 1 is tenpai
        if replacement(bytes(counts), sets) > 1:  # no discard can leave the hand tenpai
            return []
        good_kinds = set()
        for kind in range(34):
            if counts[kind]:
                counts[kind] -= 1
                if replacement(bytes(counts), sets) == 1:
                    good_kinds.add(kind)
                counts[kind] += 1
        return [t for t in hand if t >> 2 in good_kinds]

    def _apply_turn(self, s: int, action: Action) -> None:
        kind = action.type
        if kind is ActionType.TSUMO:
            assert self.drawn is not None
            result = self._score(s, self.drawn, tsumo=True)
            assert result is not None
            self._finish_wins([(s, None, result)], self.drawn)
        elif kind is ActionType.KYUUSHU:
            self._abort("nine-terminals", shown={s: sorted(self.seats[s].hand)})
        elif kind in (ActionType.DISCARD, ActionType.RIICHI):
            assert action.tile is not None
            self._discard(s, action.tile, riichi=kind is ActionType.RIICHI)
        elif kind is ActionType.ANKAN:
            self._declare_ankan(s, action)
        elif kind is ActionType.KAKAN:
            self._declare_kakan(s, action)
        elif kind is ActionType.KITA:
            assert action.tile is not None
            self._declare_kita(s, action.tile)

    def _discard(self, s: int, tile: int, riichi: bool) -> None:
        seat = self.seats[s]
        tsumogiri = tile == self.drawn and not self.after_call
        seat.take(tile)
        seat.discards.append(DiscardInfo(tile, tsumogiri, riichi))
        if self.rules.temporary_furiten_until == "discard":
            seat.furiten_temp = False
        seat.ippatsu = False
        if riichi:
            seat.riichi = True
            seat.double_riichi = self.first_go_around and len(seat.discards) == 1
            seat.ippatsu = self.rules.ippatsu
            self.riichi_pending = s
        seat.waits = _waits_mask(seat.counts, len(seat.melds))
        self.drawn = None
        self.after_call = False
        self.kuikae = 0
        self._emit(
            "discard",
            seat=s,
            tile=tile,
            tsumogiri=tsumogiri,
            riichi=riichi,
        )
        if self.dora_pending:
            self._reveal_dora(self.dora_pending)
            self.dora_pending = 0
        self._open_claims(Claim.DISCARD, tile, s)

    def _declare_ankan(self, s: int, action: Action) -> None:
        if len(self.kan_owners) >= 4:
            self._abort("four-kans")
            return
        seat = self.seats[s]
        for t in action.tiles:
            seat.take(t)
        seat.melds.append(Meld(MeldType.ANKAN, action.tiles))
        seat.waits = _waits_mask(seat.counts, len(seat.melds))
        self.kan_owners.append(s)
        self._emit("ankan", seat=s, tiles=list(action.tiles))
        if self.dora_pending:  # an earlier open kan's indicator comes first
            self._reveal_dora(self.dora_pending)
            self.dora_pending = 0
        self._kan_dora(self.rules.closed_kan_dora)
        tile = action.tiles[0]
        if self.rules.kokushi_robs_closed_kan and self._open_claims(Claim.ANKAN, tile, s):
            return
        self._complete_kan(s, None)

    def _declare_kakan(self, s: int, action: Action) -> None:
        if len(self.kan_owners) >= 4:
            self._abort("four-kans")
            return
        assert action.tile is not None
        seat = self.seats[s]
        tile = action.tile
        index = next(
            i for i, m in enumerate(seat.melds) if m.type is MeldType.PON and m.kind == tile >> 2
        )
        pon = seat.melds[index]
        seat.take(tile)
        seat.melds[index] = Meld(MeldType.KAKAN, (*pon.tiles, tile), pon.called, pon.from_seat)
        seat.waits = _waits_mask(seat.counts, len(seat.melds))
        self.kan_owners.append(s)
        self._emit("kakan", seat=s, tile=tile)
        if self.dora_pending:
            self._reveal_dora(self.dora_pending)
            self.dora_pending = 0
        # ippatsu survives a kan that is robbed: the kan only counts once it stands
        if not self._open_claims(Claim.KAKAN, tile, s):
            self._complete_kan(s, self.rules.open_kan_dora)

    def _declare_kita(self, s: int, tile: int) -> None:
        """A North set aside: the others may ron it, else a replacement draw follows."""
        seat = self.seats[s]
        seat.take(tile)
        seat.kita.append(tile)
        seat.waits = _waits_mask(seat.counts, len(seat.melds))
        self.kitas += 1
        self._emit("kita", seat=s, tile=tile)
        if not self._open_claims(Claim.KITA, tile, s):
            self._kita_stands(s)

    def _kita_stands(self, s: int) -> None:
        """Nobody robbed the North: as a closed kan that stands, it ends every ippatsu
        (Tenhou's logs show it; a robbed one does not) and the first go-around, and its
        owner draws a replacement."""
        self._interrupt()
        self._draw(s, rinshan=True)

    def _complete_kan(self, s: int, timing: KanDoraTiming | None) -> None:
        """The kan stands: it interrupts the go-around, shows its dora, draws a replacement."""
        self._interrupt()
        if timing is not None:
            self._kan_dora(timing)
        self._replacement_draw(s)

    def _kan_dora(self, timing: KanDoraTiming) -> None:
        """Show a kan's new indicator now, or mark it for later (replacement or discard)."""
        if timing is KanDoraTiming.IMMEDIATE:
            self._reveal_dora(1)
        else:
            self.dora_pending += 1
            self.dora_timing = timing

    def _replacement_draw(self, s: int) -> None:
        self._draw(s, rinshan=True)
        if self.dora_pending and self.dora_timing is KanDoraTiming.AFTER_REPLACEMENT:
            self._reveal_dora(self.dora_pending)
            self.dora_pending = 0

    # ------------------------------------------------------------------ draws

    def _draw(self, s: int, rinshan: bool) -> None:
        seat = self.seats[s]
        if rinshan:
            tile = self.wall.rinshan[self.rinshan_index]
            self.rinshan_index += 1
        else:
            tile = self.live[self.draw_index]
            self.draw_index += 1
            if seat.drew:  # a second draw: everyone has had a turn
                self.first_go_around = False
        seat.drew = True
        if self.rules.temporary_furiten_until == "draw":
            seat.furiten_temp = False
        seat.add(tile)
        self.drawn = tile
        self.current = s
        self.phase = Phase.TURN
        self.after_call = False
        self.from_rinshan = rinshan
        self._emit("draw", to=s, seat=s, tile=tile, rinshan=rinshan)
        self._emit("draw", seat=s, rinshan=rinshan, left=self.live_left())

    def _reveal_dora(self, count: int) -> None:
        if not self.rules.kan_dora:
            return
        for _ in range(count):
            if self.dora_shown < 5:
                self.dora_shown += 1
                self._emit("dora", indicator=self.wall.dora[self.dora_shown - 1])

    def _interrupt(self) -> None:
        """Any call or kan: ippatsu ends for everyone, and so does the first go-around."""
        self.first_go_around = False
        for seat in self.seats:
            seat.ippatsu = False

    # ------------------------------------------------------------------ claims

    def _open_claims(self, claim: Claim, tile: int, s: int) -> bool:
        """Ask the other seats about ``tile``; False when nobody may claim it."""
        self.claim, self.claim_tile, self.claim_from = claim, tile, s
        self.options = {}
        self.answers = {}
        for other in range(self.n):
            if other == s:
                continue
            opts = self._claim_options(other, claim, tile, s)
            if opts:
                self.options[other] = [*sorted(opts, key=Action.sort_key), PASS]
        if self.options:
            self.phase = Phase.RESPONSE
            return True
        self._mark_passed(tile, s, [])
        if claim is Claim.DISCARD:
            self._after_discard_passed()
        return False

    def _mark_passed(self, tile: int, s: int, rons: list[int]) -> None:
        """A tile that completed a hand went by: that seat is furiten for now.

        The shape decides, not the yaku: a wait without a yaku counts too.
        In riichi the furiten lasts for the rest of the hand.
        """
        kind = tile >> 2
        for o, seat in enumerate(self.seats):
            if self.claim is Claim.ANKAN:  # only thirteen orphans could have taken it
                waiting = any(a.type is ActionType.RON for a in self.options.get(o, ()))
            else:
                waiting = bool(seat.waits >> kind & 1)
            if o != s and o not in rons and waiting:
                seat.furiten_temp = True
                if seat.riichi:
                    seat.furiten_riichi = True

    def _claim_options(self, o: int, claim: Claim, tile: int, s: int) -> list[Action]:
        seat = self.seats[o]
        kind = tile >> 2
        c = seat.counts
        if (
            not seat.waits >> kind & 1
            and (claim is not Claim.DISCARD or c[kind] < 2)
            and not (o == (s + 1) % self.n and self._chi_shape(c, kind))
        ):
            return []  # the common case: this seat cannot touch the tile
        out: list[Action] = []
        if seat.waits >> kind & 1 and self._may_ron(o, tile, claim):
            out.append(Action(ActionType.RON, tile))
        if claim is not Claim.DISCARD or seat.riichi or self.live_left() <= 0:
            return out
        same = [t for t in seat.hand if t >> 2 == kind]
        if len(same) >= 2:
            for pair in self._variants(same, 2):
                if self._has_discard_after(o, pair, kind, None):
                    out.append(Action(ActionType.PON, tile, pair))
        if len(same) == 3 and self._kan_allowed():
            out.append(Action(ActionType.KAN, tile, tuple(sorted(same))))
        if self.rules.chi_allowed and o == (s + 1) % self.n and kind < 27:
            for lo in (kind - 2, kind - 1, kind):
                if lo < 0 or lo // 9 != kind // 9 or lo % 9 > 6:
                    continue
                others = [k for k in (lo, lo + 1, lo + 2) if k != kind]
                first = [t for t in seat.hand if t >> 2 == others[0]]
                second = [t for t in seat.hand if t >> 2 == others[1]]
                for a in self._variants(first, 1):
                    for b in self._variants(second, 1):
                        used = (a[0], b[0])
                        if self._has_discard_after(o, used, kind, lo):
                            out.append(Action(ActionType.CHI, tile, used))
        return out

    def _chi_shape(self, c: list[int], kind: int) -> bool:
        if kind >= 27 or not self.rules.chi_allowed:
            return False
        r = kind % 9
        return bool(
            (r >= 2 and c[kind - 2] and c[kind - 1])
            or (1 <= r <= 7 and c[kind - 1] and c[kind + 1])
            or (r <= 6 and c[kind + 1] and c[kind + 2])
        )

    def _variants(self, tiles: list[int], size: int) -> list[tuple[int, ...]]:
        """Distinct choices of ``size`` tiles of one kind: red and plain copies differ."""
        reds = sorted(t for t in tiles if is_red(t, self.rules.red_fives))
        plain = sorted(t for t in tiles if not is_red(t, self.rules.red_fives))
        out = []
        for r in range(min(size, len(reds)) + 1):
            if size - r <= len(plain):
                out.append(tuple(sorted(reds[:r] + plain[: size - r])))
        return out

    def _has_discard_after(self, o: int, used: tuple[int, ...], kind: int, low: int | None) -> bool:
        banned = kuikae_mask(kind, low) if self.rules.kuikae_forbidden else 0
        rest = list(self.seats[o].hand)
        for t in used:
            rest.remove(t)
        return any(not banned >> (t >> 2) & 1 for t in rest)

    def _furiten(self, o: int) -> bool:
        seat = self.seats[o]
        return bool(seat.furiten_temp or seat.furiten_riichi or seat.waits & seat.discarded_kinds())

    def _may_ron(self, o: int, tile: int, claim: Claim) -> bool:
        if self._furiten(o):
            return False
        if claim is Claim.ANKAN:
            counts = self.seats[o].counts
            if any(counts[k] == 0 for k in YAOCHU if k != tile >> 2) or self.seats[o].melds:
                return False  # only a thirteen-orphans hand may rob a closed kan
        return self._score(o, tile, tsumo=False) is not None

    def _resolve(self) -> None:
        answers = self.answers
        tile, s = self.claim_tile, self.claim_from
        assert tile is not None and s is not None
        rons = [o for o, a in answers.items() if a.type is ActionType.RON]
        self._mark_passed(tile, s, rons)
        if rons:
            winners = ron_order(s, rons, self.n)
            if len(winners) >= 3:
                rule = self.rules.triple_ron
                if rule is TripleRon.ABORT:
                    self._abort("triple-ron")
                    return
                if rule is TripleRon.HEAD_BUMP:
                    winners = winners[:1]
            elif len(winners) == 2 and not self.rules.double_ron:
                winners = winners[:1]
            wins: list[tuple[int, int | None, ScoreResult]] = []
            for o in winners:
                result = self._score(o, tile, tsumo=False, first=o == winners[0])
                assert result is not None
                wins.append((o, s, result))
            self._finish_wins(wins, tile)
            return
        self.phase = Phase.TURN
        if self.claim is Claim.KAKAN:
            self._complete_kan(s, self.rules.open_kan_dora)
            return
        if self.claim is Claim.ANKAN:
            self._complete_kan(s, None)
            return
        if self.claim is Claim.KITA:
            self._kita_stands(s)
            return
        calls = [(o, a) for o, a in answers.items() if a.type in (ActionType.PON, ActionType.KAN)]
        calls += [(o, a) for o, a in answers.items() if a.type is ActionType.CHI]
        if self._after_discard_passed(calling=bool(calls)):
            return
        if calls:
            self._make_call(*calls[0])

    def _after_discard_passed(self, calling: bool = False) -> bool:
        """The discard was not ronned: riichi stick, aborts, then the next draw.

        Returns True when the hand ended or play moved on without a call.
        """
        s = self.claim_from
        assert s is not None
        if self.riichi_pending is not None:
            r = self.riichi_pending
            self.riichi_pending = None
            self.scores[r] -= self.rules.riichi_stick
            self.sticks += 1
            self._emit("riichi", seat=r, scores=list(self.scores), sticks=self.sticks)
            # "four riichi": every player at the table in riichi
            if self.rules.abort_four_riichi and all(seat.riichi for seat in self.seats):
                self._abort("four-riichi")
                return True
        if self._four_winds():
            self._abort("four-winds")
            return True
        if (
            len(self.kan_owners) == 4
            and len(set(self.kan_owners)) > 1
            and self.rules.abort_four_kans
            and not self.rules.four_kan_abort_on_fifth
        ):
            self._abort("four-kans")
            return True
        if calling:
            return False
        nxt = (s + 1) % self.n
        if self.live_left() <= 0:
            self._exhaustive_draw()
        else:
            self._draw(nxt, rinshan=False)
        return True

    def _four_winds(self) -> bool:
        """Every player's first discard, uninterrupted, is the same wind."""
        if not self.rules.abort_four_winds or not self.first_go_around:
            return False
        if any(len(seat.discards) != 1 for seat in self.seats):
            return False
        firsts = {seat.discards[0].tile >> 2 for seat in self.seats}
        return len(firsts) == 1 and firsts.pop() in WINDS

    def _make_call(self, o: int, action: Action) -> None:
        s = self.claim_from
        tile = self.claim_tile
        assert s is not None and tile is not None
        if action.type is ActionType.KAN and len(self.kan_owners) >= 4:
            self._abort("four-kans")  # a fifth kan, where the rules abort on it
            return
        seat = self.seats[o]
        self.seats[s].discards[-1].called = True
        for t in action.tiles:
            seat.take(t)
        tiles = tuple(sorted((*action.tiles, tile)))
        meld_type = {
            ActionType.CHI: MeldType.CHI,
            ActionType.PON: MeldType.PON,
            ActionType.KAN: MeldType.MINKAN,
        }[action.type]
        seat.melds.append(Meld(meld_type, tiles, tile, s))
        self._interrupt()
        if meld_type is not MeldType.CHI:
            self._track_pao(o, s, tile >> 2)
        self._emit("call", seat=o, call=action.type.value, tile=tile, tiles=list(tiles), source=s)
        if meld_type is MeldType.MINKAN:
            seat.waits = _waits_mask(seat.counts, len(seat.melds))
            self.kan_owners.append(o)
            self._kan_dora(self.rules.open_kan_dora)
            self._replacement_draw(o)
            return
        low = min(t >> 2 for t in tiles) if meld_type is MeldType.CHI else None
        self.kuikae = kuikae_mask(tile >> 2, low)
        self.current = o
        self.phase = Phase.TURN
        self.drawn = None
        self.after_call = True
        self.from_rinshan = False

    def _track_pao(self, o: int, s: int, kind: int) -> None:
        """The call that completes the third dragon or fourth wind set makes ``s`` liable."""
        if self.rules.pao is Pao.NONE:
            return
        seat = self.seats[o]
        kinds = {m.kind for m in seat.melds if not m.is_sequence}
        if (kind in DRAGONS and all(d in kinds for d in DRAGONS)) or (
            kind in WINDS and all(w in kinds for w in WINDS)
        ):
            seat.liable = s

    # ------------------------------------------------------------------ endings

    def _score(self, o: int, tile: int, *, tsumo: bool, first: bool = True) -> ScoreResult | None:
        seat = self.seats[o]
        hand = [t for t in seat.hand if t != tile] if tsumo else list(seat.hand)
        last = self.live_left() <= 0
        claim = self.claim
        context = WinContext(
            tsumo=tsumo,
            seat=o,
            dealer=self.dealer,
            discarder=None if tsumo else self.claim_from,
            round_wind=self.round_wind,
            riichi=seat.riichi,
            double_riichi=seat.double_riichi,
            ippatsu=seat.ippatsu,
            rinshan=tsumo and self.from_rinshan,
            chankan=not tsumo and claim in (Claim.KAKAN, Claim.ANKAN),
            haitei=tsumo and last and not self.from_rinshan,
            houtei=not tsumo and last and claim is Claim.DISCARD,
            tenhou=tsumo and self.first_go_around and not seat.discards and o == self.dealer,
            chiihou=tsumo and self.first_go_around and not seat.discards and o != self.dealer,
            renhou=not tsumo and self.first_go_around and not seat.drew and o != self.dealer,
            dora_indicators=tuple(self.dora_indicators()),
            ura_indicators=tuple(self.wall.ura[: self.dora_shown]) if seat.riichi else (),
            honba=self.honba if first else 0,
            # a riichi declared on the winning discard never put its stick down
            riichi_sticks=self.sticks if first else 0,
            pao=seat.liable,
            kita=len(seat.kita),
        )
        return score_if_yaku(hand, tile, seat.melds, context, self.rules)

    def _finish_wins(self, wins: list[tuple[int, int | None, ScoreResult]], tile: int) -> None:
        transfers = []
        sticks: dict[int, int] = {}
        for o, _, result in wins:
            transfers += [(p.seat, o, p.points) for p in result.payments]
            sticks[o] = result.deltas[o] - sum(p.points for p in result.payments)
        deltas = self._settle(transfers, sticks)
        if self.riichi_pending is not None:
            self.riichi_pending = None  # ronned on the declaration: no stick was paid
        for s, d in enumerate(deltas):
            self.scores[s] += d
        self.sticks = 0
        dealer_won = any(o == self.dealer for o, _, _ in wins)
        self.result = HandResult("win", deltas, wins, dealer_repeats=dealer_won)
        for o, src, result in wins:
            self._emit(
                "win",
                seat=o,
                source=src,
                tile=tile,  # the winning tile, set apart when the hand is shown
                hand=sorted(self.seats[o].hand),
                melds=[str(m) for m in self.seats[o].melds],
                ura=list(self.wall.ura[: self.dora_shown]) if self.seats[o].riichi else [],
                result=result.to_dict(),
            )
        self._end()

    def _exhaustive_draw(self) -> None:
        n = self.n
        tenpai = [
            s for s in range(n) if shanten(self.seats[s].counts, len(self.seats[s].melds)) == 0
        ]
        nagashi = [
            s
            for s, seat in enumerate(self.seats)
            if self.rules.nagashi_mangan
            and seat.discards
            and all(is_yaochu(d.tile >> 2) and not d.called for d in seat.discards)
        ]
        transfers: list[tuple[int, int, int]] = []
        if nagashi:
            for s in nagashi:
                for p in range(n):
                    if p != s:
                        pay = 4000 if s == self.dealer or p == self.dealer else 2000
                        transfers.append((p, s, pay))
        elif 0 < len(tenpai) < n:
            loss = self.rules.noten_payment // (n - len(tenpai))
            for p in range(n):
                if p not in tenpai:
                    transfers += [(p, s, loss // len(tenpai)) for s in tenpai]
        deltas = self._settle(transfers, {})
        for s, d in enumerate(deltas):
            self.scores[s] += d
        self.result = HandResult(
            "exhaustive",
            deltas,
            tenpai=tenpai,
            nagashi=nagashi,
            dealer_repeats=self.dealer in tenpai,
        )
        self._emit(
            "ryuukyoku",
            kind="exhaustive",
            tenpai=tenpai,
            nagashi=nagashi,
            hands={str(s): sorted(self.seats[s].hand) for s in tenpai},
            deltas=deltas,
        )
        self._end()

    def _settle(self, transfers: list[tuple[int, int, int]], sticks: dict[int, int]) -> list[int]:
        """Score changes from (payer, payee, points) transfers plus the sticks a winner
        takes. Under the loss limit a payer pays at most what it has, shared among its
        payees in proportion (in hundreds; the first payee takes the rest)."""
        deltas = [0] * self.n
        owed: dict[int, list[tuple[int, int]]] = {}
        for payer, payee, points in transfers:
            owed.setdefault(payer, []).append((payee, points))
        for payer, items in owed.items():
            total = sum(points for _, points in items)
            have = max(0, self.scores[payer])
            paid = [points for _, points in items]
            if self.rules.loss_limit and total > have:
                paid = [points * have // total // 100 * 100 for points in paid]
                paid[0] += have - sum(paid)
            for (payee, _), points in zip(items, paid, strict=True):
                deltas[payer] -= points
                deltas[payee] += points
        for seat, points in sticks.items():
            deltas[seat] += points
        return deltas

    def _abort(self, why: str, shown: dict[int, list[int]] | None = None) -> None:
        if self.riichi_pending is not None and why == "triple-ron":
            self.riichi_pending = None
        self.result = HandResult("abort", [0] * self.n, abort=why, dealer_repeats=True)
        self._emit(
            "ryuukyoku",
            kind=why,
            hands={str(s): h for s, h in (shown or {}).items()},
            deltas=[0] * self.n,
        )
        self._end()

    def _end(self) -> None:
        self.phase = Phase.OVER
        self.options = {}
        self.answers = {}

    # ------------------------------------------------------------------ events

    def _emit(self, type_: str, to: int | None = None, **data: Any) -> None:
        self.events.append(Event(type_, data, to))

    def _emit_start(self) -> None:
        self._emit(
            "start_hand",
            dealer=self.dealer,
            round_wind=self.round_wind,
            honba=self.honba,
            sticks=self.sticks,
            scores=list(self.scores),
            dora=self.wall.dora[0],
        )
        for s, seat in enumerate(self.seats):
            self._emit("deal", to=s, seat=s, hand=sorted(seat.hand))
