"""The expert bot: every choice by expected points, not by rules of thumb.

Each way to go on (a discard, a riichi, a call or a pass) is valued as

    the chance of winning x what the win is worth
    - the chance of dealing in now and later x what that costs,

against folding, which costs only the tiles let go while folding. The chance of
winning comes from the shanten and live acceptance after the choice, the draws
left, and how likely someone else ends the hand first; what a tenpai hand is
worth comes from the scorer itself (each wait, ron and tsumo, riichi or not);
a hand further off is valued by the han it can still reach (dora, red fives,
value honours, all simples, a flush). Danger is a chance per tile for each
opponent who may be tenpai: genbutsu and tiles let go since its riichi (or,
without one, since its last discard), suji, walls and honours left, tiles near its
first discards, weighted by how likely that opponent is ready (by its turn and
calls, and what its last discards tell: drawn tiles let go, a middle tile from the
hand, a safe tile after a riichi) and what its hand is worth. Points are weighed by
the places they move: in the match's last hand for sure, before it as likely as the
hands still to come make it (a deal-in lifts the seat that wins it, a win lowers the
others). A win and a deal-in are both weighed against the hand ended by another seat's
win, which either forestalls: folding still pays a share of another's tsumo, and a
close leader in the last hand may lose its place to another's win. In the last hand a
win that leaves the seat last is let pass when the same hand won another way would
lift it.

Everything is a function of the observation and the seed: the same situation
is played the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from riichi.bots.defensive import DefensiveBot, declared_at, discard_order
from riichi.bots.efficiency import visible_counts
from riichi.bots.search import melds_of
from riichi.game import Action, ActionType, Observation
from riichi.game.kyoku import kuikae_mask
from riichi.hand import ukeire
from riichi.hand.waits import DiscardOption, Ukeire
from riichi.rules import Length
from riichi.scoring import Meld, MeldType, WinContext, score_if_yaku
from riichi.tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    counts_of,
    dora_of,
    is_red,
    is_yaochu,
)

# A non-dealer's ron by han (30 fu below mangan); a dealer's is half as much again.
HAN_POINTS = (0, 1000, 2000, 3900, 7700, 8000, 12000, 12000, 16000, 16000, 16000, 24000)
YAKUMAN_POINTS = 32000

# The live acceptance a hand usually has at each shanten once it gets there.
TYPICAL_ACCEPTANCE = (5, 18, 32, 44, 52, 56, 60)
SHAPE_CARRY = 0.6

# How often others' discards give a ron beside one's own draws, per wait tile:
# a silent wait is dealt into more than a declared one, which others fold against.
# Counted in arena games as rons per tsumo: 1.9 for open hands, 1.14 for riichi.
RON_SILENT = 1.9
RON_DECLARED = 1.1
# Riichi adds ura dora and ippatsu on top of its han: about this much value.
URA_FACTOR = 1.22

# A chance per opponent turn that someone ends the hand first, and what a riichi
# or a ready open hand adds to it. Set so that what a hand played on against such a
# threat expects to win comes near what such hands won (bench/calibration.py); at 0.07
# it expected 1.4 to 2 times as much at tenpai and 1.2 to 1.6 times before it (others
# fold against the threat too, so fewer of their discards give a ron).
BASE_HAZARD = 0.012
THREAT_HAZARD = 0.12
# Danger: `deal_in` gives a chance per tile against a ready hand (the tables
# below). A tile still to be let go while pushing deals in PUSH_DANGER of the time,
# silent or in riichi alike (a silent hand's care in picking them shows in each tile's
# own risk; discounting it again dealt in more and placed no better); a folding hand
# runs out of safe tiles FOLD_DANGER of the time.
PUSH_DANGER = 0.03
FOLD_DANGER = 0.05
# The chance a tile deals into a ready hand, as counted in arena games with the
# hands open: an honour by copies left (0..4); a number tile by rank from the edge
# (1-9, 2-8, 3-7, 4-6, 5) without suji, with one suji, with both (4-6 and 5 only).
HONOR_DANGER = (0.0, 0.003, 0.012, 0.035, 0.04)
NUMBER_DANGER = (
    (0.06, 0.01, 0.01),
    (0.075, 0.04, 0.04),
    (0.12, 0.09, 0.09),
    (0.10, 0.07, 0.02),
    (0.15, 0.13, 0.05),
)
# A number tile within two of one of the threat's first discards, in its suit, deals
# in about 0.6 as often as the tables say; one that is not, about 1.15 as often (the
# hand had no use for that stretch early on; counted the same way, alike for riichi,
# open and silent hands).
EARLY_TURNS = 6
EARLY_NEAR = 0.6
EARLY_FAR = 1.15
# The chance an opponent is tenpai by its turn (in threes: 0-2, 3-5, .. 18+), counted
# the same way: a closed hand without riichi; an open one by its calls (1, 2, 3, 4);
# two calls showing a yaku and value.
READY_SILENT = (0.0, 0.002, 0.01, 0.025, 0.055, 0.105, 0.15)
READY_OPEN = (
    (0.02, 0.09, 0.25, 0.45, 0.6, 0.77, 0.86),
    (0.1, 0.24, 0.47, 0.63, 0.8, 0.84, 0.92),
    (0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0),
    (0.95, 0.95, 0.95, 0.95, 0.95, 0.95, 0.95),
)
READY_OPEN_VALUE = (0.2, 0.36, 0.57, 0.72, 0.9, 0.99, 1.0)
# What the river's last turns tell, counted the same way: a ready hand lets its draws
# go (tsumogiri), a hand still building keeps them; a middle tile from the hand is let
# go as a hand closes in. The odds of being ready are multiplied by this, by the
# tsumogiri among the last three discards (0..3), without and with a 3-7 from the hand
# among the last two.
READY_TELL = ((0.27, 0.73), (0.53, 1.14), (1.17, 1.67), (2.1, 2.1))
# A hand whose last discard was safe against a riichi declared before it is folding
# more often than not: its odds of being ready are this much of what the rest says
# (counted the same way: 0.2 closed, 0.35 with a call, 0.25 with two).
FOLDING_TELL = 0.3
# What a ready hand is worth, in han, so that its cost matches what deal-ins into such
# hands paid in arena games: a riichi before the dora it shows (5,745 against 5,805
# for a non-dealer), an open hand before its sets' dora and value (3,430 on average),
# a closed hand ready without riichi (4,250, from few deal-ins).
RIICHI_HAN = 2.9
OPEN_HAN = 1.0
SILENT_HAN = 3.0
RIICHI_STICK = 600.0  # the stick, back with a win: about this much lost
PLACE_POINTS = 12000.0  # a place in the last hand, in points
# Before the last hand, places are weighed by how the scores may still move: two
# players' difference by about this much a hand (one standard deviation).
PLACE_SPREAD = 7800.0
# An open hand plays on only with this much yaku in reach: all simples with one stray
# tile, a flush but for one tile, two value pairs.
OPEN_YAKU = 0.6
# Being faster is worth something beside the win: tenpai at the draw, and a hand
# with no value yet still wants to get there. Ties between hands of no value so
# go to the fastest.
SPEED_POINTS = 300.0
# Tenpai at the exhaustive draw: the noten payments, about this much on average.
TENPAI_POINTS = 1500.0
# Another seat's win, when nothing tells its value: about this much for a non-dealer
# (5,250 on average in arena games), this share of them by tsumo (41%).
OTHER_WIN = 5200.0
OTHER_TSUMO = 0.4


@dataclass
class Scene:
    """What one decision needs, worked out once for it."""

    obs: Observation
    melds: list[Meld]  # the seat's own sets
    draws: int  # its draws left
    threats: list[Threat]
    seen: list[int]  # tiles visible outside the own hand, by kind
    out: list[int]  # the same with the own hand
    unseen: int
    hazard: float  # chance per turn that someone else ends the hand
    push_risk: float  # expected deal-in cost of a tile let go while pushing
    fold_cost: float  # of folding: running out of safe tiles
    spread: float  # of the scores at the match's end, as the hands left make it
    place_scale: float  # points a place is worth
    place_now: float  # the place to expect as the scores stand
    safe: dict[int, set[int]]  # by threat: the kinds it cannot ron now
    others_end: float = 0.0  # what the hand ended by others is worth, as places weigh it
    costs: dict[int, float] = field(default_factory=dict)  # of a deal-in, by threat
    risks: dict[int, float] = field(default_factory=dict)  # by kind, filled as asked

    @property
    def closed(self) -> bool:
        return not any(m.is_open for m in self.melds)


class Worth(NamedTuple):
    """What going on from a hand is worth, with its parts: the chance to win the hand
    and what a win would be worth in points (both 0 when folding is worth more)."""

    value: float
    win: float = 0.0
    points: float = 0.0

    def less(self, cost: float) -> Worth:
        return Worth(self.value - cost, self.win, self.points)


NO_WORTH = Worth(float("-inf"))


@dataclass(frozen=True, slots=True)
class Valued:
    """A legal action as ``expert`` values it: ``value`` in expected points as the
    match weighs them (None where a rule of the bot, not a valuation, decides: a win,
    an abort, a North aside, a kan), of which ``risk`` is what letting a tile go now
    is expected to cost in deal-ins; ``win`` the chance to win the hand after it and
    ``points`` what that win would be worth (0 for both: folding)."""

    action: Action
    value: float | None = None
    risk: float = 0.0
    win: float = 0.0
    points: float = 0.0

    @classmethod
    def of(cls, action: Action, worth: Worth, risk: float = 0.0) -> Valued:
        return cls(action, worth.value, risk, worth.win, worth.points)


@dataclass(frozen=True)
class Threat:
    seat: int
    ready: float  # chance it is tenpai now
    cost: float  # what dealing into it costs, in points


def _with_hand(seen: Sequence[int], hand: Sequence[int]) -> list[int]:
    """Tiles of each kind the seat can see, its own hand included (4 at most)."""
    mine = counts_of(hand)
    return [min(4, seen[k] + mine[k]) for k in range(NUM_KINDS)]


def han_points(han: float, dealer: bool) -> float:
    """Points of a ron with ``han`` (fractional: between two han values)."""
    if han <= 0:
        return 0.0
    if han >= 13:
        points = float(YAKUMAN_POINTS)
    else:
        low = int(han)
        high = min(low + 1, len(HAN_POINTS) - 1)
        top = HAN_POINTS[min(low, len(HAN_POINTS) - 1)]
        points = top + (HAN_POINTS[high] - top) * (han - low)
    return points * (1.5 if dealer else 1.0)


_NORMAL_PEAK = 1 / math.sqrt(2 * math.pi)


def _value(worth: Worth) -> float:
    return worth.value


def hands_left(obs: Observation) -> int:
    """The hands the match's length has left after this one, the dealer's staying on
    aside (0: its last; below 0: an extension past it, where any hand may be the last)."""
    if obs.rules.length is Length.ONE_HAND:
        return 0
    n = obs.rules.players
    return _rounds(obs) * n - ((obs.round_wind - EAST) * n + obs.dealer) - 1


def _rounds(obs: Observation) -> int:
    """The winds a match of ``obs``'s length plays (a one-hand match: one)."""
    return 2 if obs.rules.length is Length.SOUTH else 1


def place_of(scores: Sequence[float], seat: int, ties: bool = False) -> float:
    """``seat``'s place (1 = top) by ``scores``; with ``ties``, a level seat counts
    as ahead."""
    me = scores[seat]
    return 1.0 + sum(
        1 for i, s in enumerate(scores) if i != seat and (s > me or (ties and s == me))
    )


def paid_by_all(players: int, winner: int, value: float) -> list[float]:
    """Score changes when ``winner`` takes ``value`` from the others, a share each."""
    share = value / (players - 1)
    return [value if i == winner else -share for i in range(players)]


def paid_by_one(players: int, winner: int, payer: int, value: float) -> list[float]:
    """Score changes when ``winner`` takes ``value`` from ``payer`` alone."""
    deltas = [0.0] * players
    deltas[winner], deltas[payer] = value, -value
    return deltas


def expected_place(scores: Sequence[float], seat: int, spread: float) -> float:
    """The place ``seat`` can expect (1 = top) if each score moves by chance from
    here on, a difference between two by ``spread`` (one standard deviation)."""
    me = scores[seat]
    width = spread * math.sqrt(2)
    place = 1.0
    for i, s in enumerate(scores):
        if i != seat:
            place += 0.5 * (1.0 + math.erf((s - me) / width))
    return place


@lru_cache(maxsize=1 << 16)
def win_chance(
    shanten: int, acceptance: int, draws: int, unseen: int, ron: float, hazard: float
) -> tuple[float, float, float]:
    """(chance to win, expected own discards before the hand ends, chance to be tenpai
    at the exhaustive draw) with ``draws`` draws left: a draw advances a shanten with
    its acceptance over the unseen tiles (the first step with ``acceptance``, later
    ones with a usual figure scaled by it); at tenpai others' discards add ``ron``
    times the draw chance; each turn someone else may end the hand (``hazard``)."""
    pool = max(unseen, 1)
    steps = max(shanten, 0)
    # a hand that accepts more now tends to accept more later too
    shape = min(2.0, max(0.5, acceptance / TYPICAL_ACCEPTANCE[min(steps, 6)])) ** SHAPE_CARRY
    # by shanten s, with the draws counted so far (from the end of the wall back)
    chance = [0.0] * (steps + 1)
    turns = [0.0] * (steps + 1)
    ready = [1.0] + [0.0] * steps
    for _ in range(max(draws, 0)):
        new_chance = [0.0] * (steps + 1)
        new_turns = [0.0] * (steps + 1)
        new_ready = [0.0] * (steps + 1)
        for s in range(steps + 1):
            tiles = acceptance if s == steps else TYPICAL_ACCEPTANCE[min(s, 6)] * shape
            p = min(1.0, tiles / pool)
            if s == 0:
                q = min(0.95, p * (1.0 + ron))
                stay = (1 - q) * (1 - hazard)
                new_chance[s] = q + stay * chance[0]
                new_turns[s] = stay * (1 + turns[0])
                new_ready[s] = stay * ready[0]
            else:
                go_on = 1 - hazard
                new_chance[s] = go_on * (p * chance[s - 1] + (1 - p) * chance[s])
                new_turns[s] = go_on * (1 + p * turns[s - 1] + (1 - p) * turns[s])
                new_ready[s] = go_on * (p * ready[s - 1] + (1 - p) * ready[s])
        chance, turns, ready = new_chance, new_turns, new_ready
    return chance[steps], turns[steps], ready[steps]


def win_context(
    obs: Observation,
    discarder: int | None,
    riichi: bool,
    *,
    honba: int = 0,
    sticks: int = 0,
    ippatsu: bool = False,
    chankan: bool = False,
    last_tile: bool = False,
) -> WinContext:
    """How the seat would win, off ``discarder`` (None: by tsumo), with what the table
    shows; ``last_tile``: on the wall's last tile (haitei by tsumo, houtei by ron)."""
    assert obs.seat is not None
    tsumo = discarder is None
    return WinContext(
        tsumo=tsumo,
        seat=obs.seat,
        dealer=obs.dealer,
        discarder=discarder,
        round_wind=obs.round_wind,
        riichi=riichi,
        ippatsu=ippatsu,
        chankan=chankan,
        haitei=last_tile and tsumo,
        houtei=last_tile and not tsumo,
        dora_indicators=obs.dora_indicators,
        honba=honba,
        riichi_sticks=sticks,
        kita=len(obs.kita[obs.seat]),
    )


class ExpertBot(DefensiveBot):
    """Plays each choice for the most expected points (seeded, keyed tie-breaks)."""

    kind = "expert"

    def act(self, observation: Observation) -> Action:
        return self.evaluate(observation)[0].action

    def evaluate(self, observation: Observation) -> list[Valued]:
        """The legal actions this bot weighs, best first: the first is what it plays
        (``act`` plays it, so the two never disagree). A discard or a riichi of each
        kind to let go, or each call and the pass, with its value; a choice a rule
        makes (a win, an abort, a North aside, a kan) comes first, without one, and the
        rest after it as they would be valued without it."""
        obs = observation
        legal = obs.legal
        taken = self._win_or_abort(obs)
        if taken is not None and self._win_to_pass(obs, taken):
            taken = None
        types = {a.type for a in legal}
        if taken is None and ActionType.KITA in types:
            # a North set aside is a dora and a free draw
            taken = next(a for a in legal if a.type is ActionType.KITA)
        scene = self._scene(obs)
        if ActionType.PASS in types:
            rest = self._answers(scene)
        else:
            if taken is None and not any(t.ready >= 0.5 for t in scene.threats):
                taken = self._kan(obs)
            rest = self._discards(scene)
        return rest if taken is None else [Valued(taken), *rest]

    # ----------------------------------------------------------- a win let pass

    def _win_to_pass(self, obs: Observation, win: Action) -> bool:
        """Whether to let ``win`` pass: it ends the match with this seat still last
        (a riichi's even at twice its value, for the ura it may turn up), while the
        same hand won another way (by tsumo, or off another seat while not furiten)
        would lift it. In the match's last hand only the place counts, and from last
        place there is none to lose."""
        if win.type not in (ActionType.TSUMO, ActionType.RON) or win.tile is None:
            return False
        assert obs.hand is not None and obs.seat is not None
        seat, n, tile = obs.seat, obs.rules.players, win.tile
        if seat == obs.dealer or self._place_spread(obs)[0]:
            return False  # a dealer's win plays on; before the last hand points count
        tsumo = win.type is ActionType.TSUMO
        riichi = obs.riichi[seat]
        hand = list(obs.hand)
        if tsumo:
            hand.remove(tile)
        melds = self._melds_of(obs)
        river = obs.discards[seat]
        ippatsu = riichi and declared_at(river) == len(river) - 1
        if ippatsu:  # unless a call came since the riichi
            order = discard_order(obs)
            since = order[order.index((seat, len(river) - 1)) :]
            ippatsu = not any(obs.discards[s][i][3] for s, i in since)

        # the tile offered sits in the current seat's sets: a kan it adds to, robbed
        robbed = not tsumo and any(tile in t for t in obs.meld_tiles[obs.current])

        def deltas(discarder: int | None, now: bool = False) -> Sequence[int] | None:
            ctx = win_context(
                obs,
                discarder,
                riichi,
                honba=obs.honba,
                sticks=obs.sticks,
                ippatsu=now and ippatsu,
                chankan=now and robbed,
                # a kan counts against the wall at once, so a kan made with one tile
                # left leaves none while it can be robbed; the robbed tile is still
                # no last discard (houtei)
                last_tile=now and obs.live_left == 0 and not robbed,
            )
            result = score_if_yaku(hand, tile, melds, ctx, obs.rules)
            return None if result is None else result.deltas

        def after(won: Sequence[int], times: int = 1) -> list[int]:
            return [s + times * d for s, d in zip(obs.scores, won, strict=True)]

        def last(scores: Sequence[int]) -> bool:
            # ties go to the seat nearer the first dealer
            return all((s, -i) > (scores[seat], -seat) for i, s in enumerate(scores) if i != seat)

        now = deltas(None if tsumo else obs.current, now=True)
        if now is None or not last(after(now, 2 if riichi else 1)):
            return False  # it lifts the seat
        target = obs.rules.extension_target
        if target is not None and max(after(now)) < target:
            return False  # the match plays on: the points still count
        waits = ukeire(counts_of(hand), visible_counts(obs), len(melds)).kinds
        furiten = any(t >> 2 in waits for t, *_ in river) or (riichi and not tsumo)
        others = [] if furiten else [i for i in range(n) if i != seat]
        ways = (deltas(s) for s in [None, *others])
        return any(won is not None and not last(after(won)) for won in ways)

    # ----------------------------------------------------------- who may win

    def read_threats(self, obs: Observation) -> list[Threat]:
        """Each opponent that may be tenpai: how likely, and what its hand is worth."""
        assert obs.seat is not None
        n = obs.rules.players
        order = discard_order(obs) if any(obs.riichi) else []
        out = []
        for s in range(n):
            if s == obs.seat:
                continue
            dealer = s == obs.dealer
            turn = len(obs.discards[s])
            if obs.riichi[s]:
                han = RIICHI_HAN + self._shown_han(obs, s)
                out.append(Threat(s, 1.0, han_points(han, dealer) + 300 * obs.honba))
                continue
            calls = len(obs.meld_tiles[s])
            stage = min(turn // 3, 6)
            if calls == 0:
                ready = self._told(
                    READY_SILENT[stage], obs.discards[s], self._folding(obs, s, order)
                )
                if ready >= 0.01:
                    out.append(Threat(s, ready, han_points(SILENT_HAN, dealer)))
                continue
            table = READY_OPEN[min(calls, 4) - 1]
            ready = table[stage]
            if calls == 2 and self._open_threat(obs, s):
                ready = READY_OPEN_VALUE[stage]
            ready = self._told(ready, obs.discards[s], self._folding(obs, s, order))
            han = OPEN_HAN + self._shown_han(obs, s)
            out.append(Threat(s, ready, han_points(han, dealer) + 300 * obs.honba))
        return out

    @staticmethod
    def _folding(obs: Observation, seat: int, order: Sequence[tuple[int, int]]) -> bool:
        """Whether ``seat``'s last discard was one that no riichi declared before it
        could ron (``order``: `discard_order`, when someone is in riichi)."""
        river = obs.discards[seat]
        if not river or not order:
            return False
        at = {made: i for i, made in enumerate(order)}
        last = at.get((seat, len(river) - 1))
        if last is None:
            return False
        kind = river[-1][0] >> 2
        folding = False
        for r, theirs in enumerate(obs.discards):
            declared = declared_at(theirs)
            if r == seat or declared is None or at.get((r, declared), last) >= last:
                continue
            since = order[at[(r, declared)] + 1 : last]
            safe = {t >> 2 for i, (t, *_) in enumerate(theirs) if at.get((r, i), last) < last}
            safe |= {obs.discards[a][i][0] >> 2 for a, i in since if a != r}
            if kind not in safe:
                return False
            folding = True
        return folding

    @staticmethod
    def _told(
        ready: float, river: Sequence[tuple[int, bool, bool, bool]], folding: bool = False
    ) -> float:
        """``ready`` as the river's last turns change it (READY_TELL, FOLDING_TELL)."""
        if len(river) < 6 or ready <= 0.0 or ready >= 1.0:
            return ready
        drawn = sum(1 for d in river[-3:] if d[1])
        middle = any(not d[1] and d[0] >> 2 < 27 and 2 <= (d[0] >> 2) % 9 <= 6 for d in river[-2:])
        odds = ready / (1.0 - ready) * READY_TELL[drawn][middle]
        if folding:
            odds *= FOLDING_TELL
        return odds / (1.0 + odds)

    def _shown_han(self, obs: Observation, seat: int) -> float:
        """Han an opponent shows: dora and red fives in its sets, value triplets."""
        dora = self._dora_kinds(obs)
        han = 0.0
        for tiles in obs.meld_tiles[seat]:
            for t in tiles:
                han += dora.count(t >> 2) + is_red(t, obs.rules.red_fives)
            if tiles[0] >> 2 == tiles[-1] >> 2:  # a triplet or a kan
                han += self._value_kind(obs, seat, tiles[0] >> 2)
        han += len(obs.kita[seat])
        han += 0.5 * len(obs.dora_indicators)  # dora hidden in the hand, on average
        return han

    def cannot_ron(self, obs: Observation, threat: int) -> set[int]:
        """Kinds ``threat`` cannot ron now: those in its river (furiten), and those
        others let go without its ron since its riichi or, before one, since its last
        discard (a riichi is furiten for good on them, a hand not in riichi until it
        discards again)."""
        river = obs.discards[threat]
        safe = {tile >> 2 for tile, *_ in river}
        declared = declared_at(river) if obs.riichi[threat] else None
        since = len(river) - 1 if declared is None else declared
        return safe | self._passed_since(obs, threat, since)

    def dangers(
        self,
        obs: Observation,
        kinds: Iterable[int],
        shown_to: Callable[[Threat], bool],
        read: Sequence[Threat] | None = None,
    ) -> dict[int, tuple[tuple[int, float], ...]]:
        """For each of ``kinds``, the chance letting it go now deals in to each
        threat that ``shown_to`` picks: how likely that seat is ready times the
        chance the tile is a winning tile of its, as ``_now_risk`` weighs them
        (``read``: what `read_threats` gives, when known)."""
        assert obs.hand is not None
        out = _with_hand(visible_counts(obs), obs.hand)
        read = self.read_threats(obs) if read is None else read
        threats = [t for t in read if shown_to(t)]
        safe = {t.seat: self.cannot_ron(obs, t.seat) for t in threats}
        return {
            kind: tuple(
                (t.seat, t.ready * self.deal_in(obs, t.seat, kind, out, safe[t.seat]))
                for t in threats
            )
            for kind in kinds
        }

    def deal_in(
        self,
        obs: Observation,
        threat: int,
        kind: int,
        out: list[int],
        safe: set[int] | None = None,
    ) -> float:
        """The chance ``kind`` deals into ``threat`` if it is tenpai (``safe``: what
        `cannot_ron` gives, when known)."""
        if kind in (self.cannot_ron(obs, threat) if safe is None else safe):
            return 0.0
        own = {tile >> 2 for tile, *_ in obs.discards[threat]}
        if kind >= 27:
            return HONOR_DANGER[max(0, 4 - out[kind])]
        rank = kind % 9
        low = rank >= 3 and kind - 3 in own
        high = rank <= 5 and kind + 3 in own
        plain, half, both = NUMBER_DANGER[min(rank, 8 - rank)]
        chance = both if low and high else half if low or high else plain
        if self._walled(kind, out):
            chance *= 0.2
        early = (t >> 2 for t, *_ in obs.discards[threat][:EARLY_TURNS])
        if any(e < 27 and e // 9 == kind // 9 and 0 < abs(e - kind) <= 2 for e in early):
            return chance * EARLY_NEAR
        return chance * EARLY_FAR

    # ----------------------------------------------------------- what a hand is worth

    def _dora_kinds(self, obs: Observation) -> list[int]:
        three = obs.rules.players == 3
        return [dora_of(t >> 2, three) for t in obs.dora_indicators]

    def _value_kind(self, obs: Observation, seat: int, kind: int) -> int:
        """Yakuhai han of a triplet of ``kind`` for ``seat``."""
        seat_wind = EAST + (seat - obs.dealer) % obs.rules.players
        return (kind in DRAGONS) + (kind == seat_wind) + (kind == obs.round_wind)

    def _rough_han(
        self, obs: Observation, counts: Sequence[int], melds: Sequence[Meld], reds: int
    ) -> float:
        """The han a hand not yet tenpai can expect; 0 when an open hand has no yaku
        in reach."""
        assert obs.seat is not None
        closed = not any(m.is_open for m in melds)
        dora = self._dora_kinds(obs)
        called = [t >> 2 for m in melds for t in m.tiles]
        everything = list(called)
        for k in range(NUM_KINDS):
            everything += [k] * counts[k]
        han = float(sum(everything.count(d) for d in dora) + len(obs.kita[obs.seat]))
        han += reds + sum(is_red(t, obs.rules.red_fives) for m in melds for t in m.tiles)
        yaku = 0.0
        for m in melds:
            if not m.is_sequence:
                yaku += self._value_kind(obs, obs.seat, m.kind)
        for k in range(27, NUM_KINDS):
            value = self._value_kind(obs, obs.seat, k)
            if value and counts[k] >= 3:
                yaku += value
            elif value and counts[k] == 2:
                yaku += 0.45 * value  # a pair may still be called or drawn to
        simples_called = not any(is_yaochu(k) for k in called)
        if simples_called and (closed or obs.rules.kuitan):
            stray = sum(counts[k] for k in range(NUM_KINDS) if is_yaochu(k))
            yaku += (1.0, 0.6, 0.3, 0.1)[min(stray, 3)]
        suits = [sum(1 for k in everything if k < 27 and k // 9 == s) for s in range(3)]
        main = max(range(3), key=lambda s: suits[s])
        off = sum(suits) - suits[main]
        if off <= 2 and all(k >= 27 or k // 9 == main for k in called):
            flush = 2.0 + closed
            if not any(k >= 27 for k in everything):
                flush += 3.0
            yaku += flush * (1.0, 0.5, 0.2)[off]
        if closed:
            # riichi, ura and tsumo make any closed hand worth something
            yaku += 1.0 + 0.3 + 0.4
        elif yaku < OPEN_YAKU:
            return 0.0
        return han + yaku

    def rough_value(self, obs: Observation, hand: Sequence[int], melds: Sequence[Meld]) -> float:
        """What a win of a hand not yet tenpai can be expected to be worth, in points."""
        reds = sum(1 for t in hand if is_red(t, obs.rules.red_fives))
        han = self._rough_han(obs, counts_of(hand), melds, reds)
        return han_points(han, obs.dealer == obs.seat)

    def _melds_of(self, obs: Observation) -> list[Meld]:
        """The seat's sets as the scorer takes them (which tile was called does not
        change a value)."""
        assert obs.seat is not None
        return melds_of(obs, obs.seat)

    def _tenpai_value(
        self,
        obs: Observation,
        hand: Sequence[int],
        melds: Sequence[Meld],
        waits: Sequence[int],
        live: Sequence[int],
        riichi: bool,
        ron: float,
    ) -> tuple[float, float]:
        """(expected value of a win, effective ron factor) over the waits of a tenpai
        hand, by the scorer: each wait weighed by its live copies, ron and tsumo by
        their shares; a wait without yaku on a ron, or in furiten, wins by tsumo only."""
        assert obs.seat is not None
        used = set(hand) | {t for m in melds for t in m.tiles}
        river = {t >> 2 for t, *_ in obs.discards[obs.seat]}
        furiten = any(k in river for k in waits)
        n = obs.rules.players
        total = 0.0
        weight = 0.0
        ron_weight = 0.0
        extra = obs.sticks * 1000 + obs.honba * 300
        for kind in waits:
            copies = live[kind]
            if copies <= 0:
                continue
            tile = next((kind * 4 + c for c in (3, 2, 1, 0) if kind * 4 + c not in used), None)
            if tile is None:
                continue
            values = []
            for tsumo in (True, False):
                if not tsumo and furiten:
                    values.append(0.0)
                    continue
                ctx = win_context(obs, None if tsumo else (obs.seat + 1) % n, riichi)
                result = score_if_yaku(list(hand), tile, melds, ctx, obs.rules)
                values.append(0.0 if result is None else float(result.points))
            tsumo_value, ron_value = values
            share = ron if ron_value > 0 else 0.0
            value = (tsumo_value + share * ron_value) / (1 + share)
            if value > 0:
                value += extra
            total += copies * value * (1 + share)
            weight += copies * (1 + share)
            ron_weight += copies * share
        if weight == 0:
            return 0.0, 0.0
        live_total = sum(max(0, live[k]) for k in waits)
        factor = URA_FACTOR if riichi else 1.0
        return factor * total / weight, ron_weight / max(1, live_total)

    # ----------------------------------------------------------- the choice

    def _scene(self, obs: Observation) -> Scene:
        assert obs.hand is not None and obs.seat is not None
        n = obs.rules.players
        threats = self.read_threats(obs)
        seen = visible_counts(obs)
        out = _with_hand(seen, obs.hand)
        hazard = BASE_HAZARD * (n - 1) + sum(THREAT_HAZARD * t.ready for t in threats)
        spread, scale = self._place_spread(obs)
        if spread:
            place_now = expected_place(obs.scores, obs.seat, spread)
        else:
            place_now = place_of(obs.scores, obs.seat)
        scene = Scene(
            obs,
            self._melds_of(obs),
            obs.live_left // n,
            threats,
            seen,
            out,
            unseen=sum(4 - c for c in out),
            hazard=round(min(0.5, hazard), 3),
            push_risk=0.0,
            fold_cost=0.0,
            spread=spread,
            place_scale=scale,
            place_now=place_now,
            safe={t.seat: self.cannot_ron(obs, t.seat) for t in threats},
        )
        scene.others_end = self._others_end(scene)
        for t in threats:
            cost = max(0.0, scene.others_end - self._placement(scene, -t.cost, t.seat))
            scene.costs[t.seat] = cost
            scene.push_risk += t.ready * cost * PUSH_DANGER
            scene.fold_cost += t.ready * cost * FOLD_DANGER
        return scene

    def _others_end(self, scene: Scene) -> float:
        """What the hand ended by another seat's win (not off this seat) is worth, as
        the places it moves weigh it, times the chance of that before the wall runs out.
        A close leader in the last hand loses by it, so its own win is worth more."""
        obs = scene.obs
        assert obs.seat is not None
        n, seat = obs.rules.players, obs.seat
        threats = {t.seat: t for t in scene.threats}
        total = 0.0
        for j in range(n):
            if j == seat:
                continue
            threat = threats.get(j)
            if threat is not None and threat.ready >= 0.5:
                value = threat.cost
            else:
                value = OTHER_WIN * (1.5 if j == obs.dealer else 1.0)
            worth = OTHER_TSUMO * self._worth_after(scene, paid_by_all(n, j, value))
            payers = [k for k in range(n) if k not in (seat, j)]
            for k in payers:
                ron = paid_by_one(n, j, k, value)
                worth += (1 - OTHER_TSUMO) * self._worth_after(scene, ron) / len(payers)
            total += worth
        ends = 1.0 - (1.0 - scene.hazard) ** scene.draws
        return ends * total / (n - 1)

    def _worth_after(self, scene: Scene, deltas: Sequence[float]) -> float:
        """What a change of all scores is worth to this seat, as places weigh it."""
        obs = scene.obs
        assert obs.seat is not None
        after = [s + d for s, d in zip(obs.scores, deltas, strict=True)]
        if scene.spread:
            return scene.place_scale * (
                scene.place_now - expected_place(after, obs.seat, scene.spread)
            )
        mine = deltas[obs.seat]
        # a loss that only draws level is taken as the place lost
        place_after = place_of(after, obs.seat, ties=mine < 0)
        return 0.3 * mine + scene.place_scale * (scene.place_now - place_after)

    def _placement(self, scene: Scene, value: float, gainer: int | None = None) -> float:
        """Points as the match weighs them: by the places they move (``gainer``: the
        seat that wins what this seat loses, when known). In the last hand a place is
        PLACE_POINTS; before it, each place is as likely as the hands left make it."""
        if value == 0:
            return value
        obs = scene.obs
        assert obs.seat is not None
        n = obs.rules.players
        if gainer is None:
            # a win is paid by the others, a loss won by them: a share each, on average
            return self._worth_after(scene, paid_by_all(n, obs.seat, value))
        return self._worth_after(scene, paid_by_one(n, obs.seat, gainer, value))

    def _place_spread(self, obs: Observation) -> tuple[float, float]:
        """(the spread of the scores at the match's end, the points a place is worth):
        in the match's last hand the spread is 0 and a place PLACE_POINTS."""
        n = obs.rules.players
        left = hands_left(obs)
        if left <= 0:
            return 0.0, PLACE_POINTS
        rounds = _rounds(obs)
        # a point won takes 1 / (n - 1) from each other seat, so it moves each
        # difference by n / (n - 1): so scaled, a point is worth a point at the start
        scale = PLACE_SPREAD * math.sqrt(rounds * n - 1) / (_NORMAL_PEAK * n)
        return PLACE_SPREAD * math.sqrt(left), scale

    def _going_on(
        self,
        scene: Scene,
        shanten: int,
        acceptance: int,
        value: float,
        ron: float,
        draws: int,
        locked: bool = False,
    ) -> Worth:
        """The worth of playing on from a hand: win x value - the risk of the discards
        to come; folding instead when that is worth more (not after a riichi)."""
        chance, turns, ready = win_chance(
            shanten, acceptance, draws, scene.unseen, round(ron, 2), scene.hazard
        )
        # a win is measured against the hand ended by others, which it forestalls
        won = self._placement(scene, value) - scene.others_end if value > 0 else 0.0
        push = chance * (won + SPEED_POINTS)
        push += ready * TENPAI_POINTS
        push -= turns * scene.push_risk
        if locked or push >= -scene.fold_cost:
            return Worth(push, chance, value)
        return Worth(-scene.fold_cost)

    def _now_risk(self, scene: Scene, kind: int) -> float:
        """What letting ``kind`` go now is expected to cost in deal-ins."""
        risk = scene.risks.get(kind)
        if risk is None:
            obs = scene.obs
            risk = scene.risks[kind] = sum(
                t.ready
                * scene.costs[t.seat]
                * self.deal_in(obs, t.seat, kind, scene.out, scene.safe[t.seat])
                for t in scene.threats
            )
        return risk

    def _options(
        self,
        scene: Scene,
        hand: Sequence[int],
        melds: Sequence[Meld],
        closed: bool,
        draws: int,
        banned: int = 0,
    ) -> list[tuple[Worth, Worth, int, bool]]:
        """(worth as a discard, worth as a riichi, kind, red) for each tile to let go:
        each kind, and a red five apart from a plain five of its kind where the hand
        holds both (letting the red one go loses its han). Only the fastest discards
        play on; the others are worth folding with."""
        rows: list[DiscardOption] = list(ukeire(counts_of(hand), scene.seen, len(melds)).discards)
        best = min(r.shanten for r in rows)
        red_fives = scene.obs.rules.red_fives
        out = []
        for row in rows:
            if banned >> row.discard & 1:  # kuikae
                continue
            risk = self._now_risk(scene, row.discard)
            copies = [t for t in hand if t >> 2 == row.discard]
            reds = sorted({is_red(t, red_fives) for t in copies})  # plain first
            for red in reds:
                if row.shanten > best:
                    out.append((Worth(-scene.fold_cost - risk), NO_WORTH, row.discard, red))
                    continue
                rest = list(hand)
                rest.remove(next(t for t in copies if is_red(t, red_fives) == red))
                worth, riichi_worth = self._worth(scene, rest, melds, closed, row, draws)
                out.append((worth.less(risk), riichi_worth.less(risk), row.discard, red))
        return out

    def _worth(
        self,
        scene: Scene,
        hand: Sequence[int],
        melds: Sequence[Meld],
        closed: bool,
        shape: DiscardOption | Ukeire,
        draws: int,
    ) -> tuple[Worth, Worth]:
        """(worth played silent, worth as a riichi or NO_WORTH) of a hand between draws,
        whose shanten, waits or acceptance and live count ``shape`` gives."""
        obs = scene.obs
        if shape.shanten > 0:
            value = self.rough_value(obs, hand, melds)
            ron = RON_DECLARED if closed else RON_SILENT
            return self._going_on(scene, shape.shanten, shape.tiles, value, ron, draws), NO_WORTH
        live = [4 - c for c in scene.out]
        value, ron = self._tenpai_value(obs, hand, melds, shape.kinds, live, False, RON_SILENT)
        silent = self._going_on(scene, 0, shape.tiles, value, ron, draws)
        if not closed:
            return silent, NO_WORTH
        value, ron = self._tenpai_value(obs, hand, melds, shape.kinds, live, True, RON_DECLARED)
        locked = self._going_on(scene, 0, shape.tiles, value, ron, draws, locked=True)
        return silent, locked.less(RIICHI_STICK)

    def _stay(self, scene: Scene) -> Worth:
        """The worth of the hand as it is, before a draw (passing on a call)."""
        hand, melds = scene.obs.hand, scene.melds
        assert hand is not None
        now = ukeire(counts_of(hand), scene.seen, len(melds))
        return max(self._worth(scene, hand, melds, scene.closed, now, scene.draws), key=_value)

    def _discards(self, scene: Scene) -> list[Valued]:
        """Each kind to let go, as a discard and (where riichi may be declared with
        it) as a riichi, valued, best first: ties go to the riichi, then to the kind
        that keys first."""
        obs = scene.obs
        assert obs.hand is not None
        options = self._options(scene, obs.hand, scene.melds, scene.closed, scene.draws)
        discards = {
            a.tile >> 2 for a in obs.legal if a.type is ActionType.DISCARD and a.tile is not None
        }
        riichis = set()
        if self._riichi_ok(obs):
            riichis = {
                a.tile >> 2 for a in obs.legal if a.type is ActionType.RIICHI and a.tile is not None
            }
        scored: list[tuple[float, bytes, bool, bool, Valued]] = []
        for worth, riichi_worth, kind, red in options:
            chance = self._chance(obs, kind)
            risk = self._now_risk(scene, kind)
            if kind in riichis:
                action = self._one_of(obs, ActionType.RIICHI, kind, red)
                if action is not None:
                    valued = Valued.of(action, riichi_worth, risk)
                    scored.append((riichi_worth.value, chance, False, red, valued))
            if kind in discards:
                action = self._one_of(obs, ActionType.DISCARD, kind, red)
                if action is not None:
                    valued = Valued.of(action, worth, risk)
                    scored.append((worth.value, chance, True, red, valued))
        if not scored:  # a riichi lock narrowed the choice to the drawn tile
            return [Valued(self._discard(obs))]
        # ties: the riichi, then the kind that keys first, then a plain five before a red
        scored.sort(key=lambda x: (-x[0], x[1], x[2], x[3]))
        return [v for *_, v in scored]

    @staticmethod
    def _one_of(obs: Observation, wanted: ActionType, kind: int, red: bool) -> Action | None:
        """The copy of ``kind`` to let go, red or plain as asked (None: no such copy is
        legal): the drawn one last."""
        reds = obs.rules.red_fives
        choices = [
            a
            for a in obs.legal
            if a.type is wanted
            and a.tile is not None
            and a.tile >> 2 == kind
            and is_red(a.tile, reds) == red
        ]
        choices.sort(key=lambda a: a.tile != obs.drawn)
        return choices[0] if choices else None

    def _answers(self, scene: Scene) -> list[Valued]:
        """Each chi and pon on another's discard valued against passing, best first:
        a tie goes to the pass, then to the call listed first."""
        obs, melds, draws = scene.obs, scene.melds, scene.draws
        assert obs.hand is not None
        pass_action = next(a for a in obs.legal if a.type is ActionType.PASS)
        calls = [a for a in obs.legal if a.type in (ActionType.PON, ActionType.CHI)]
        stay = self._stay(scene)
        if not calls:
            return [Valued.of(pass_action, stay)]
        scored: list[tuple[float, int, Valued]] = []
        scored.append((stay.value, -1, Valued.of(pass_action, stay)))
        for i, call in enumerate(calls):
            assert call.tile is not None
            meld_type = MeldType.PON if call.type is ActionType.PON else MeldType.CHI
            tiles = tuple(sorted((call.tile, *call.tiles)))
            meld = Meld(meld_type, tiles, call.tile, obs.current)
            hand = list(obs.hand)
            for t in call.tiles:
                hand.remove(t)
            low = tiles[0] >> 2 if meld_type is MeldType.CHI else None
            banned = kuikae_mask(call.tile >> 2, low) if obs.rules.kuikae_forbidden else 0
            options = self._options(scene, hand, [*melds, meld], False, draws - 1, banned)
            if options:
                worth = max((o[0] for o in options), key=_value)
                scored.append((worth.value, i, Valued.of(call, worth)))
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [v for *_, v in scored]


__all__ = [
    "ExpertBot",
    "Scene",
    "Threat",
    "Valued",
    "Worth",
    "han_points",
    "hands_left",
    "win_chance",
]
