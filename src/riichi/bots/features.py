"""What the learned player sees: a seat's observation, and each option it weighs, as
numbers a small network reads.

The state is one flat vector from the seat's own point of view (the others by their
place after it: right, across, left): its hand by kind as counts 1 to 4 and its red
fives; the tiles it has not seen; the dora; for each other seat its score against
this seat's, dealer or not, riichi, calls, river length and every kind in its river
(the tiles it can never ron); the seat's wind, the round, honba, sticks, the live
wall left and its place; then every seat's calls by kind (after ``FIRST_STATE_SIZE``,
so that a network trained before them reads them as zeros); then what expert reads of
each other seat (how likely it is tenpai, what dealing in would cost it, whether its
last discard came from the hand), the seat's shanten and acceptance, what yaku and
dora its tiles lean to, how many hands the match has left, and the seat's own river.
An option is one of the choices ``expert`` weighs (a discard,
a riichi, a call or the pass): its kind of action, the tile it lets go or takes,
whether that is a dora or a red five, whether each other seat has it in its river,
and expert's own valuation of it against its best (the value, the deal-in risk, the
chance to win and what the win is worth); then the tile's place in the hand
(``SHAPE_SIZE`` numbers, appended for the same reason: its copies held, its
neighbours in its suit, honour, terminal or a yakuhai, the copies unseen, whether it
is suji against each other seat's river, and the hand's shanten and tiles accepted
once it is let go); then, for a tile let go, each other seat's chance to ron it as
expert reads it and whether it cannot, and for a call, the hand after it
(``READ_OPTION``) and the yaku it keeps in reach (``YAKU_OPTION``). A small network
can hardly multiply the tile by the hand to see these itself. The network learns what
expert's numbers leave out.

Only the observation is read: nothing here can see another seat's concealed tiles.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from riichi.bots.efficiency import visible_counts
from riichi.bots.expert import ExpertBot, Threat, Valued, hands_left
from riichi.game import Action, ActionType, Observation
from riichi.hand.waits import Ukeire, ukeire
from riichi.tiles import DRAGONS, EAST, NORTH, NUM_KINDS, counts_of, dora_of, is_red, is_yaochu

# expert's best options a network weighs at one decision, unless it was trained on more
# (``Network.options``): self-play rounds weigh four
OPTIONS = 4
_TYPES = (
    ActionType.DISCARD,
    ActionType.RIICHI,
    ActionType.PASS,
    ActionType.CHI,
    ActionType.PON,
    ActionType.KAN,
)
_OTHER_SEAT = 1 + 1 + 1 + 1 + 1 + NUM_KINDS  # score, dealer, riichi, calls, river, kinds
# the state as every network before the melds' kinds read it (``Network.load``)
FIRST_STATE_SIZE = NUM_KINDS * 4 + 3 + NUM_KINDS * 2 + 3 * _OTHER_SEAT + 4 + 2 + 3 + 4 + 1
# then the seat's own calls (how many, their kinds) and each other seat's calls' kinds
MELDS_SIZE = 1 + NUM_KINDS + 3 * NUM_KINDS
# then what expert reads of each other seat (how likely it is tenpai, what dealing in
# would cost, whether its last discard came from the hand) and the seat's own progress
# (shanten 0 to 3 or more, the tiles its best shape accepts) and what yaku and dora
# its tiles lean to (``_composition``)
COMPOSITION = 7
READ_STATE = 3 * 3 + 4 + 1 + COMPOSITION
# then how near the match's end is (the hands left in its length: none, one, two,
# three or more, and as a number; past its length, in an extension) and the seat's own
# river (its length and kinds: its furiten and what its discards tell the others)
HANDS_LEFT = 8
TIME_STATE = 4 + 1 + 1 + 1 + NUM_KINDS
TIME_AT = FIRST_STATE_SIZE + MELDS_SIZE + READ_STATE
STATE_SIZE = TIME_AT + TIME_STATE
# the tile's place in the hand: copies held (4), neighbours (4), honour, terminal,
# yakuhai, copies unseen, suji against each other seat (3); and the hand after letting
# it go: shanten above the best discard's, tenpai, tiles accepted, and those against
# the most any discard of the best shanten accepts
SHAPE_SIZE = 4 + 4 + 3 + 1 + 3 + 4
SHAPE_AT = len(_TYPES) + 1 + NUM_KINDS + 2 + 3 + 5 + 1
# then, for a tile let go, each other seat's chance to ron it as expert reads it and
# whether it cannot (its river, or passed since its riichi); for a call, the hand
# after it: shanten against now's, tenpai, tiles accepted, those against now's
READ_OPTION = 3 * 2 + 4
READ_AT = SHAPE_AT + SHAPE_SIZE
# then, for a call, the yaku the hand keeps open after it (``_yaku_after_call``): all
# simples, a flush, a yakuhai set, all triplets
YAKU_OPTION = 6
YAKU_AT = READ_AT + READ_OPTION
OPTION_SIZE = YAKU_AT + YAKU_OPTION
RED_KINDS = (4, 13, 22)  # 5m, 5p, 5s
_LET_GO = (ActionType.DISCARD, ActionType.RIICHI)
_CALLS = (ActionType.CHI, ActionType.PON, ActionType.KAN)
# expert's reading of the others (read_threats, dangers, cannot_ron) keeps no state
_READER = ExpertBot(0)


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the state and the options of one decision both read, worked out once."""

    counts: list[int]  # the seat's hand by kind
    visible: list[int]  # the other tiles it can see (three players: 2m to 8m all out)
    acceptance: Ukeire  # the hand's (its discard table on a discard's turn)
    threats: list[Threat]  # expert's reading of who may be tenpai


_last: tuple[Observation, _Reading] | None = None


def _reading(obs: Observation) -> _Reading:
    """The ``_Reading`` of ``obs``, kept for the last observation asked about."""
    global _last
    kept = _last  # read once: another thread may replace it
    if kept is not None and kept[0] is obs:
        return kept[1]
    assert obs.hand is not None
    counts, visible = counts_of(obs.hand), visible_counts(obs)
    # the sets called follow from the hand's size
    found = _Reading(counts, visible, ukeire(counts, visible), _READER.read_threats(obs))
    _last = (obs, found)
    return found


def state_features(obs: Observation) -> np.ndarray:
    """The observation of a seat as ``STATE_SIZE`` numbers."""
    assert obs.seat is not None and obs.hand is not None
    out = np.zeros(STATE_SIZE, dtype=np.float32)
    seat, n, reds = obs.seat, len(obs.scores), obs.rules.red_fives
    read = _reading(obs)
    counts = read.counts
    for kind, c in enumerate(counts):
        if c:
            out[kind * 4 : kind * 4 + c] = 1.0
    at = NUM_KINDS * 4
    for i, kind in enumerate(RED_KINDS):
        out[at + i] = float(any(t >> 2 == kind and is_red(t, reds) for t in obs.hand))
    at += 3
    seen = [c + v for c, v in zip(counts, read.visible, strict=True)]
    for kind in range(NUM_KINDS):
        out[at + kind] = max(0, 4 - seen[kind]) / 4
    at += NUM_KINDS
    three = n == 3
    for t in obs.dora_indicators:
        out[at + dora_of(t >> 2, three)] += 1.0
    at += NUM_KINDS
    mine = obs.scores[seat]
    for step in range(1, 4):
        if step < n:
            other = (seat + step) % n
            out[at] = (obs.scores[other] - mine) / 10000
            out[at + 1] = float(other == obs.dealer)
            out[at + 2] = float(obs.riichi[other])
            out[at + 3] = len(obs.meld_tiles[other]) / 4
            out[at + 4] = len(obs.discards[other]) / 24
            for tile, _, _, _ in obs.discards[other]:
                out[at + 5 + (tile >> 2)] = 1.0
        at += _OTHER_SEAT
    out[at + (seat - obs.dealer) % n] = 1.0  # the seat's wind
    at += 4
    out[at + min(obs.round_wind - EAST, 1)] = 1.0  # East's round, or a later one
    at += 2
    out[at] = obs.honba / 4
    out[at + 1] = obs.sticks / 4
    out[at + 2] = obs.live_left / 70
    at += 3
    place = sum(1 for s in range(n) if obs.scores[s] > mine or (obs.scores[s] == mine and s < seat))
    out[at + place] = 1.0
    at += 4
    out[at] = mine / 25000 - 1
    at += 1
    out[at] = len(obs.meld_tiles[seat]) / 4
    at += 1
    for step in range(4):
        if step < n:
            for meld in obs.meld_tiles[(seat + step) % n]:
                for t in meld:
                    out[at + (t >> 2)] += 0.25
        at += NUM_KINDS
    threats = {t.seat: t for t in read.threats}
    for step in range(1, 4):
        if step < n:
            other = (seat + step) % n
            threat = threats.get(other)
            if threat is not None:
                out[at] = threat.ready
                out[at + 1] = threat.cost / 10000
            river = obs.discards[other]
            out[at + 2] = float(bool(river) and not river[-1][1])
        at += 3
    out[at + min(max(read.acceptance.shanten, 0), 3)] = 1.0
    out[at + 4] = min(34, _accepted(read.acceptance)) / 34
    at += 5
    out[at : at + COMPOSITION] = _composition(obs, counts)
    at += COMPOSITION
    left = hands_left(obs)
    out[at + min(max(left, 0), 3)] = 1.0
    out[at + 4] = min(max(left, 0), HANDS_LEFT) / HANDS_LEFT
    out[at + 5] = float(left < 0)
    river = obs.discards[seat]
    out[at + 6] = len(river) / 24
    for tile, _, _, _ in river:
        out[at + 7 + (tile >> 2)] = 1.0
    return out


def _valued(obs: Observation) -> set[int]:
    """The kinds whose triplet is a yakuhai for the seat: dragons, its wind, the round's."""
    assert obs.seat is not None
    return {*DRAGONS, EAST + (obs.seat - obs.dealer) % len(obs.scores), obs.round_wind}


def _composition(obs: Observation, counts: Sequence[int]) -> list[float]:
    """What yaku the seat's tiles lean to, and what they are worth: terminals and
    honours held (against tanyao), the most of one suit (a flush), honours, pairs,
    yakuhai pairs or better, dora held (red fives, the sets' and Norths aside too), and
    whether a called set is a yakuhai triplet (an open hand with its yaku)."""
    assert obs.seat is not None and obs.hand is not None
    valued = _valued(obs)
    ends = sum(c for k, c in enumerate(counts) if is_yaochu(k))
    suit = max(sum(counts[s * 9 : s * 9 + 9]) for s in range(3))
    sets = obs.meld_tiles[obs.seat]
    dora = [dora_of(t >> 2, len(obs.scores) == 3) for t in obs.dora_indicators]
    held = [*obs.hand, *(t for tiles in sets for t in tiles)]
    worth = sum(dora.count(t >> 2) + is_red(t, obs.rules.red_fives) for t in held)
    worth += len(obs.kita[obs.seat]) * (1 + dora.count(NORTH))
    return [
        ends / 14,
        suit / 14,
        sum(counts[27:]) / 14,
        sum(1 for c in counts if c >= 2) / 7,
        min(3, sum(1 for k in valued if counts[k] >= 2)) / 3,
        min(8, worth) / 8,
        float(any(t[0] >> 2 == t[-1] >> 2 and t[0] >> 2 in valued for t in sets)),
    ]


def option_features(obs: Observation, options: Sequence[Valued]) -> np.ndarray:
    """``options`` (expert's, best first; valued) as ``OPTION_SIZE`` numbers each."""
    assert obs.seat is not None
    out = np.zeros((len(options), OPTION_SIZE), dtype=np.float32)
    best = options[0].value or 0.0
    n = len(obs.scores)
    dora = {dora_of(t >> 2, n == 3) for t in obs.dora_indicators}
    rivers = [{tile >> 2 for tile, _, _, _ in obs.discards[(obs.seat + s) % n]} for s in (1, 2, 3)]
    shape = _shape(obs, {o.action.tile >> 2 for o in options if o.action.tile is not None})
    others = [(obs.seat + s) % n for s in range(1, n)]
    let_go = {
        o.action.tile >> 2
        for o in options
        if o.action.type in _LET_GO and o.action.tile is not None
    }
    chances: dict[tuple[int, int], float] = {}
    safe: dict[int, set[int]] = {}
    if let_go:
        threats = _reading(obs).threats
        for let, dealt in _READER.dangers(obs, let_go, lambda _: True, threats).items():
            chances.update({(let, seat): chance for seat, chance in dealt})
        safe = {other: _READER.cannot_ron(obs, other) for other in others}
    for row, option in enumerate(options):
        action = option.action
        kind = action.type
        at = len(_TYPES) + 1
        if kind in _TYPES:
            out[row, _TYPES.index(kind)] = 1.0
        else:
            out[row, len(_TYPES)] = 1.0
        tile = action.tile
        if tile is not None:
            out[row, at + (tile >> 2)] = 1.0
            out[row, at + NUM_KINDS] = float((tile >> 2) in dora)
            out[row, at + NUM_KINDS + 1] = float(is_red(tile, obs.rules.red_fives))
            for s, river in enumerate(rivers[: n - 1]):
                out[row, at + NUM_KINDS + 2 + s] = float((tile >> 2) in river)
        at += NUM_KINDS + 5
        value = option.value or 0.0
        out[row, at] = (value - best) / 1000
        out[row, at + 1] = option.risk / 1000
        out[row, at + 2] = option.win
        out[row, at + 3] = option.points / 10000
        out[row, at + 4] = value / 10000
        out[row, at + 5] = float(row == 0)
        if tile is not None:
            out[row, SHAPE_AT:READ_AT] = shape[tile >> 2]
        if kind in _LET_GO and tile is not None:
            for s, other in enumerate(others):
                out[row, READ_AT + 2 * s] = chances.get((tile >> 2, other), 0.0)
                out[row, READ_AT + 2 * s + 1] = float((tile >> 2) in safe[other])
        elif kind in _CALLS and action.tiles:
            left = list(_reading(obs).counts)  # the hand once the call takes its tiles
            for t in action.tiles:
                left[t >> 2] -= 1
            out[row, READ_AT + 6 : YAKU_AT] = _after_call(obs, left)
            out[row, YAKU_AT:OPTION_SIZE] = _yaku_after_call(obs, action, left)
    return out


def _shape(obs: Observation, kinds: set[int]) -> dict[int, np.ndarray]:
    """``SHAPE_SIZE`` numbers for each of ``kinds`` (the options' tiles): its place in
    the seat's hand and against the others' rivers."""
    assert obs.seat is not None and obs.hand is not None
    n, seat = len(obs.scores), obs.seat
    read = _reading(obs)
    mine, visible = read.counts, read.visible
    rivers = [{tile >> 2 for tile, _, _, _ in obs.discards[(seat + s) % n]} for s in range(1, n)]
    valued = _valued(obs)
    out = {kind: np.zeros(SHAPE_SIZE, np.float32) for kind in kinds}
    for kind, row in out.items():
        if mine[kind]:
            row[min(mine[kind], 4) - 1] = 1.0
        rank = kind % 9
        if kind < 27:
            for i, step in enumerate((-2, -1, 1, 2)):
                if 0 <= rank + step < 9:
                    row[4 + i] = mine[kind + step] / 4
            row[9] = float(rank in (0, 8))
            for s, river in enumerate(rivers):
                sides = [kind + d for d in (-3, 3) if 0 <= rank + d < 9]
                row[12 + s] = float(all(k in river for k in sides))
        else:
            row[8] = 1.0
            row[10] = float(kind in valued)
        row[11] = max(0, 4 - mine[kind] - visible[kind]) / 4
    if len(obs.hand) % 3 == 2:  # a discard's turn: what each discard leaves
        table = read.acceptance.discards
        best = table[0]
        for d in table:
            if d.discard not in out:
                continue
            row = out[d.discard]
            row[15] = min(2, d.shanten - best.shanten) / 2
            row[16] = float(d.shanten == 0)
            row[17] = min(34, d.tiles) / 34
            row[18] = d.tiles / max(1, best.tiles) if d.shanten == best.shanten else 0.0
    return out


def _accepted(found: Ukeire) -> int:
    """The tiles a hand accepts: its best discard's, on a discard's turn."""
    return found.discards[0].tiles if found.discards else found.tiles


def _after_call(obs: Observation, left: Sequence[int]) -> list[float]:
    """The hand ``left`` by a call (counts by kind; and its best discard, where one
    follows): shanten gained over now's (-1 to 1), tenpai, tiles accepted (of 34), and
    those against now's where the shanten is the same."""
    read = _reading(obs)
    after = ukeire(list(left), read.visible)
    shanten = after.discards[0].shanten if after.discards else after.shanten
    now = read.acceptance
    tiles = _accepted(after)
    same = shanten == now.shanten
    return [
        max(-1, min(1, now.shanten - shanten)),
        float(shanten == 0),
        min(34, tiles) / 34,
        min(2.0, tiles / max(1, _accepted(now))) / 2 if same else 0.0,
    ]


def _yaku_after_call(obs: Observation, action: Action, counts: Sequence[int]) -> list[float]:
    """The yaku an open hand still has in reach after the call ``action``, which leaves
    ``counts`` in the hand: all simples (no set with a terminal or honour, and the
    terminals and honours left in the hand), a flush (every set in one suit or honours,
    and the hand's tiles outside it), a yakuhai set called, all triplets (every set
    one, and the hand's pairs)."""
    assert obs.seat is not None and action.tiles is not None
    made = [t >> 2 for t in action.tiles]
    if action.tile is not None:
        made.append(action.tile >> 2)
    sets = [[t >> 2 for t in tiles] for tiles in obs.meld_tiles[obs.seat]] + [made]
    suits = {k // 9 for tiles in sets for k in tiles if k < 27}
    if not suits:  # honours called: the flush would be in the suit held most
        suits = {max(range(3), key=lambda s: sum(counts[s * 9 : s * 9 + 9]))}
    flush = len(suits) == 1
    outside = sum(c for k, c in enumerate(counts[:27]) if k // 9 not in suits)
    triplets = [tiles for tiles in sets if tiles[0] == tiles[-1]]
    valued = _valued(obs)
    return [
        float(not any(is_yaochu(k) for tiles in sets for k in tiles)),
        sum(c for k, c in enumerate(counts) if is_yaochu(k)) / 14,
        float(flush),
        min(14, outside) / 14 if flush else 1.0,
        float(any(tiles[0] in valued for tiles in triplets)),
        sum(1 for c in counts if c >= 2) / 5 if len(triplets) == len(sets) else 0.0,
    ]


def _kinds(suits: Sequence[int], mirrored: bool = False) -> list[int]:
    """Where each tile kind goes when the suits trade places (``suits[s]`` is where
    suit ``s`` goes; the honours stay) and, ``mirrored``, each suit's ranks run the
    other way (1 for 9, 2 for 8: a five stays a five)."""
    return [
        suits[k // 9] * 9 + (8 - k % 9 if mirrored else k % 9) if k < 27 else k
        for k in range(NUM_KINDS)
    ]


# the option's neighbours in its suit, two and one below and above (``_shape``): mirrored,
# below is above
_NEIGHBOURS = SHAPE_AT + 4 + np.arange(4)


def suit_swap(suits: Sequence[int], mirrored: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Index maps for a state and an option with the suits traded (``state[:, map]``):
    four players' mahjong is the same game whatever the suits are called, so one
    position is six. (Not three players': their manzu has only its terminals.) With
    ``mirrored`` the ranks run the other way too: runs, terminals, suji and the red
    fives are the same game read from 9 down (so is three players' manzu, whose 1 and 9
    trade places); only the dora's indicator, which the features never read (they
    read the dora itself), stops being the tile before it."""
    kinds = _kinds(suits, mirrored)
    state = np.arange(STATE_SIZE)
    for kind in range(NUM_KINDS):
        to = kinds[kind]
        state[to * 4 : to * 4 + 4] = np.arange(kind * 4, kind * 4 + 4)
    at = NUM_KINDS * 4
    for s in range(3):
        state[at + suits[s]] = at + s
    at += 3
    for _ in range(2):  # the unseen tiles, the dora
        state[at + np.array(kinds)] = at + np.arange(NUM_KINDS)
        at += NUM_KINDS
    for _ in range(3):  # each other seat's river
        state[at + 5 + np.array(kinds)] = at + 5 + np.arange(NUM_KINDS)
        at += _OTHER_SEAT
    at = FIRST_STATE_SIZE + 1
    for _ in range(4):  # each seat's calls
        state[at + np.array(kinds)] = at + np.arange(NUM_KINDS)
        at += NUM_KINDS
    at = TIME_AT + 7  # the seat's own river
    state[at + np.array(kinds)] = at + np.arange(NUM_KINDS)
    option = np.arange(OPTION_SIZE)
    at = len(_TYPES) + 1
    option[at + np.array(kinds)] = at + np.arange(NUM_KINDS)
    if mirrored:
        option[_NEIGHBOURS] = _NEIGHBOURS[::-1]
    return state, option


def suit_copies(
    state: np.ndarray, options: np.ndarray, players: int, swap: bool, mirror: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Positions (``state`` rows, ``options`` blocks) written once more per way to trade
    a four-player game's suits (with ``swap``: six in all) and again with the ranks
    read from 9 down (with ``mirror``); the stacked rows, the stacked blocks and how
    many copies of each position they hold, the positions themselves first."""
    ways: list[tuple[Sequence[int], bool]] = [((0, 1, 2), False)]
    if swap and players == 4:
        ways = [(suits, False) for suits in itertools.permutations(range(3))]
    if mirror:
        ways += [(suits, True) for suits, _ in ways]
    maps = [suit_swap(suits, mirrored) for suits, mirrored in ways]
    return (
        np.concatenate([state[:, s] for s, _ in maps]),
        np.concatenate([options[:, :, o] for _, o in maps]),
        len(maps),
    )


def weighed(options: Sequence[Valued], width: int = OPTIONS) -> list[Valued]:
    """The options a network weighs: expert's best ``width`` valued ones, or none
    where a rule of expert's decides (a win, an abort, a kan) or one option is all."""
    if not options or options[0].value is None:
        return []
    kept = [o for o in options if o.value is not None][:width]
    return kept if len(kept) > 1 else []


__all__ = [
    "FIRST_STATE_SIZE",
    "OPTIONS",
    "OPTION_SIZE",
    "READ_AT",
    "READ_OPTION",
    "READ_STATE",
    "SHAPE_AT",
    "SHAPE_SIZE",
    "STATE_SIZE",
    "TIME_AT",
    "TIME_STATE",
    "option_features",
    "state_features",
    "suit_copies",
    "suit_swap",
    "weighed",
]
