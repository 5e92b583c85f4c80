"""Search over hidden tiles: worlds sampled from one seat's view, played out fast.

A world is one way the tiles the seat cannot see may lie: the other seats'
concealed hands, the live wall in drawing order, the dead wall's hidden
indicators and replacement tiles. It is drawn from exactly the tiles the seat has
not seen (its observation, nothing else), and where a seat is in riichi its hand
is drawn ready and not furiten on its own river, as a riichi says it is; any other
hand is drawn as its seat would have built it, taking one more tile and letting the
least useful go once for each tile it let go from the hand. Each world
becomes a `Kyoku` taken up at the seat's turn (`Kyoku.resumed`; where the seat may
call a discard, at the discarder's turn, the tile let go again), on which an option
is played out to the end of the hand with a fast policy for every seat: win when
able, riichi when ready and closed, otherwise the discard that keeps the hand
nearest to ready, no calls, and folding (the tiles a riichi cannot ron first)
when another seat is in riichi and the hand is two or more from ready, or when
the searching seat chose to fold; and where the searching seat let go a tile it
could have declared riichi with, it stays silent for the rest of the hand (with
``dama``: else the policy would declare at its next discard, and the silent option
would be valued as a riichi one turn late). Or played out by players given (one a
seat), each shown the hand as its seat sees it (`riichi.game.observe.hand_view`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from riichi.bots.agent import Agent
from riichi.game import Action, ActionType, Observation
from riichi.game.actions import DISCARDS, RIICHIS
from riichi.game.kyoku import DiscardInfo, Kyoku, Phase, Seat
from riichi.game.observe import hand_view
from riichi.game.wall import KITA_RINSHAN_TILES, MAX_INDICATORS, RINSHAN_TILES, Wall, tile_set
from riichi.hand.shanten import replacement
from riichi.scoring import Meld, MeldType
from riichi.tiles import NUM_KINDS, is_red

HONOR_START = 27
# tries at drawing a riichi hand that is ready and not furiten, before any hand will do
READY_TRIES = 60
# a hand is drawn as built from this many more tiles at most than it holds, one for
# each tile its seat let go from the hand rather than as drawn
MAX_CHOSEN = 8
# a rollout ends the hand; this many actions is past any hand's end (a guard)
MAX_STEPS = 600


@dataclass(frozen=True, slots=True)
class World:
    """Where the hidden tiles lie in one sample: each seat's concealed hand (the
    searching seat's as it is), the live wall still to draw, and the dead wall."""

    hands: tuple[tuple[int, ...], ...]
    live: tuple[int, ...]
    rinshan: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]


def unseen(obs: Observation) -> list[int]:
    """The physical tiles ``obs.seat`` has not seen, in ascending order."""
    assert obs.hand is not None
    seen = set(obs.hand)
    seen.update(t for river in obs.discards for t, _, _, _ in river)
    seen.update(t for sets in obs.meld_tiles for tiles in sets for t in tiles)
    seen.update(obs.dora_indicators)
    seen.update(t for north in obs.kita for t in north)
    return [t for t in tile_set(obs.rules.players) if t not in seen]


def _kan_count(obs: Observation) -> tuple[list[int], int]:
    owners = [s for s, sets in enumerate(obs.meld_tiles) for tiles in sets if len(tiles) == 4]
    return owners, sum(len(k) for k in obs.kita)


def sample_world(obs: Observation, rng: random.Random) -> World:
    """One world consistent with everything ``obs.seat`` has seen."""
    assert obs.hand is not None and obs.seat is not None
    pool = unseen(obs)
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = [()] * obs.rules.players
    hands[obs.seat] = tuple(obs.hand)
    others = [s for s in range(obs.rules.players) if s != obs.seat]
    # riichi hands first: they take the tiles their waits need
    for s in sorted(others, key=lambda s: not obs.riichi[s]):
        size = obs.hand_sizes[s]
        sets = len(obs.meld_tiles[s])
        drawn = _ready_hand(pool, size, sets, obs.discards[s], rng) if obs.riichi[s] else None
        if drawn is None:
            chosen = sum(1 for _, tsumogiri, _, _ in obs.discards[s] if not tsumogiri)
            drawn = built_hand(pool, size, sets, min(chosen, MAX_CHOSEN))
        for t in drawn:
            pool.remove(t)
        hands[s] = tuple(drawn)
    rng.shuffle(pool)  # the tiles a built hand let go are no likelier to come first
    owners, kitas = _kan_count(obs)
    live = pool[: obs.live_left]
    rest = pool[obs.live_left :]
    hidden_dora = MAX_INDICATORS - len(obs.dora_indicators)
    dora = (*obs.dora_indicators, *_take(rest, hidden_dora))
    ura = tuple(_take(rest, MAX_INDICATORS))
    used = len(owners) + kitas
    size = KITA_RINSHAN_TILES if obs.rules.kita else RINSHAN_TILES
    # replacement tiles already drawn are never read again: any tile holds their place.
    # (Three players setting Norths aside have eight replacement tiles in a dead wall
    # of fourteen, whose last slots are also the live wall's end: here the last ones
    # may repeat a tile, a copy a rollout draws rarely and scores alike.)
    rinshan = (*[0] * used, *_take(rest, size - used))
    # the wall's end moved into the dead wall by kans and Norths is never drawn
    return World(tuple(hands), (*live, *[0] * used), rinshan, dora, ura)


def built_hand(pool: Sequence[int], size: int, sets: int, chosen: int) -> list[int]:
    """A hand of ``size`` from the front of ``pool`` as a player builds one: ``size``
    tiles, then ``chosen`` times one more taken and the least useful let go (a seat that
    let go ``chosen`` tiles from its hand kept what it wanted, not what came)."""
    tiles = list(pool[:size])
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t >> 2] += 1
    for t in pool[size : size + chosen]:
        tiles.append(t)
        counts[t >> 2] += 1
        kind, _after = _least_useful(counts, 4 - sets)
        counts[kind] -= 1
        tiles.remove(next(x for x in tiles if x >> 2 == kind))
    return tiles


def _take(rest: list[int], count: int) -> list[int]:
    """``count`` tiles off the front of ``rest`` (a placeholder where none are left:
    a slot the hand can no longer reach)."""
    taken = rest[:count]
    del rest[:count]
    return taken + [0] * (count - len(taken))


def _ready_hand(
    pool: Sequence[int],
    size: int,
    sets: int,
    river: Sequence[tuple[int, bool, bool, bool]],
    rng: random.Random,
) -> list[int] | None:
    """``size`` tiles of ``pool`` that make a ready hand not furiten on ``river``,
    built from sets, a pair and a partial shape; None if the tries find none."""
    by_kind: dict[int, list[int]] = {}
    for t in pool:
        by_kind.setdefault(t >> 2, []).append(t)
    discarded = 0
    for t, _, _, _ in river:
        discarded |= 1 << (t >> 2)
    need_sets = (size - 1) // 3
    for _ in range(READY_TRIES):
        counts = [len(by_kind.get(k, ())) for k in range(NUM_KINDS)]
        kinds: list[int] = []
        tanki = rng.random() < 0.15
        shapes = need_sets if tanki else need_sets - 1
        ok = True
        for _ in range(shapes):
            ok = _take_shape(counts, kinds, rng, rng.random() < 0.75, 3)
            if not ok:
                break
        if ok and tanki:
            ok = _take_kinds(counts, kinds, [rng.randrange(NUM_KINDS)])
        elif ok:
            ok = _take_shape(counts, kinds, rng, False, 2) and _take_shape(
                counts, kinds, rng, rng.random() < 0.8, 2
            )
        if not ok or len(kinds) != size:
            continue
        hand = [0] * NUM_KINDS
        for k in kinds:
            hand[k] += 1
        b = bytes(hand)
        if replacement(b, 4 - sets) != 1:
            continue
        waits = _waits(hand, sets)
        if waits and not waits & discarded:
            picked: dict[int, int] = {}
            out = []
            for k in kinds:
                out.append(by_kind[k][picked.get(k, 0)])
                picked[k] = picked.get(k, 0) + 1
            return out
    return None


def _waits(hand: list[int], sets: int) -> int:
    mask = 0
    for k in range(NUM_KINDS):
        if hand[k] < 4:
            hand[k] += 1
            if replacement(bytes(hand), 4 - sets) == 0:
                mask |= 1 << k
            hand[k] -= 1
    return mask


def _take_kinds(counts: list[int], kinds: list[int], wanted: list[int]) -> bool:
    for k in wanted:
        if counts[k] <= 0:
            for j in wanted[: wanted.index(k)]:
                counts[j] += 1
            return False
        counts[k] -= 1
    kinds.extend(wanted)
    return True


def _take_shape(
    counts: list[int], kinds: list[int], rng: random.Random, run: bool, size: int
) -> bool:
    """A random run of ``size`` (two: a run waiting on its side or its middle) or a
    set of one kind (a triplet, or a pair) from ``counts``."""
    for _ in range(8):
        if run:
            suit, rank = rng.randrange(3), rng.randrange(10 - size)
            k = suit * 9 + rank
            if size == 3:
                wanted = [k, k + 1, k + 2]
            else:
                wanted = [k, k + 2] if rank < 7 and rng.random() < 0.25 else [k, k + 1]
        else:
            wanted = [rng.randrange(NUM_KINDS)] * size
        if _take_kinds(counts, kinds, wanted):
            return True
    return False


def melds_of(obs: Observation, seat: int) -> list[Meld]:
    """A seat's sets as its observation shows them."""
    melds = []
    for text, tiles in zip(obs.melds[seat], obs.meld_tiles[seat], strict=True):
        kind = MeldType(text.partition(":")[0])
        called = None if kind is MeldType.ANKAN else tiles[0]
        melds.append(Meld(kind, tuple(tiles), called))
    return melds


def answering(obs: Observation) -> tuple[int, int, bool] | None:
    """Where ``obs.seat`` may call another seat's discard: that seat, the tile, and
    whether it declared riichi with it (the stick not yet paid)."""
    if obs.drawn is not None or obs.current == obs.seat:
        return None
    if not any(a.type is ActionType.PON or a.type is ActionType.CHI for a in obs.legal):
        return None
    tile, _, riichi, _ = obs.discards[obs.current][-1]
    return obs.current, tile, riichi


def resume(obs: Observation, world: World) -> Kyoku:
    """The hand at ``obs.seat``'s turn (it has drawn), its hidden tiles as ``world``;
    where ``obs.seat`` answers a discard instead, at the discarder's turn with the
    tile back in its hand as if just drawn (`pending` lets it go again)."""
    assert obs.seat is not None
    claim = answering(obs)
    current, drawn = (claim[0], claim[1]) if claim is not None else (obs.seat, obs.drawn)
    assert drawn is not None
    n = obs.rules.players
    seats = []
    for s in range(n):
        hand, river, riichi = list(world.hands[s]), list(obs.discards[s]), obs.riichi[s]
        if claim is not None and s == claim[0]:
            hand.append(claim[1])
            river.pop()
            riichi = riichi and not claim[2]  # declared with this very tile
        seat = Seat(hand=hand)
        seat.melds = melds_of(obs, s)
        seat.kita = list(obs.kita[s])
        seat.discards = [DiscardInfo(t, g, r, c) for t, g, r, c in river]
        seat.riichi = riichi
        if riichi:
            seat.double_riichi = bool(river) and river[0][2] and len(river) <= 1
            # a riichi declared with the seat's last discard still has its ippatsu,
            # unless a call broke it
            seat.ippatsu = obs.rules.ippatsu and river[-1][2] and not any(obs.melds)
        seat.drew = bool(seat.discards) or s == current
        seats.append(seat)
    owners, kitas = _kan_count(obs)
    wall = Wall(
        [list(h) for h in world.hands],
        list(world.live),
        list(world.rinshan),
        list(world.dora),
        list(world.ura),
        n,
    )
    return Kyoku.resumed(
        obs.rules,
        wall,
        seats,
        dealer=obs.dealer,
        round_wind=obs.round_wind,
        honba=obs.honba,
        sticks=obs.sticks,
        scores=list(obs.scores),
        current=current,
        drawn=drawn,
        live=list(world.live),
        kan_owners=owners,
        kitas=kitas,
        dora_shown=len(obs.dora_indicators),
    )


def pending(obs: Observation, kyoku: Kyoku) -> None:
    """On a hand `resume` took up where ``obs.seat`` answers a discard: the discard
    let go again, so that the seat's answer is asked for as it was."""
    claim = answering(obs)
    if claim is not None:
        discarder, tile, riichi = claim
        kyoku.apply(discarder, (RIICHIS if riichi else DISCARDS)[tile])


def play_out(
    kyoku: Kyoku,
    folding: int | None = None,
    players: Sequence[Agent] | None = None,
    silent: int | None = None,
) -> list[int]:
    """Play ``kyoku`` to the hand's end with the fast policy (``folding``: a seat that
    folds whatever its hand; ``silent``: a seat that never declares riichi), or with
    ``players``, one a seat, each shown what its seat sees; each seat's change of score."""
    start = list(kyoku.scores)
    for _ in range(MAX_STEPS):
        waiting = kyoku.legal_actions()
        if not waiting:
            break
        seat, legal = next(iter(waiting.items()))
        if players is None:
            action = _policy(kyoku, seat, legal, seat == folding, seat == silent)
        else:
            view = hand_view(kyoku.rules, kyoku, seat, tuple(kyoku.scores), tuple(legal))
            action = players[seat].act(view)
        kyoku.apply(seat, action)
    return [after - before for after, before in zip(kyoku.scores, start, strict=True)]


def _policy(kyoku: Kyoku, s: int, legal: list[Action], folding: bool, silent: bool) -> Action:
    for action in legal:
        if action.type is ActionType.TSUMO or action.type is ActionType.RON:
            return action
    if kyoku.phase is not Phase.TURN:
        return next(a for a in legal if a.type is ActionType.PASS)
    seat = kyoku.seats[s]
    if seat.riichi:
        return legal[0]  # the drawn tile
    threats = [o for o in range(kyoku.n) if o != s and kyoku.seats[o].riichi]
    sets = 4 - len(seat.melds)
    counts = seat.counts
    if folding:  # against every other seat where none is in riichi
        return _safest(kyoku, threats or [o for o in range(kyoku.n) if o != s], legal)
    if threats and replacement(bytes(counts), sets) >= 3:
        return _safest(kyoku, threats, legal)
    kind, after = _least_useful(counts, sets)
    tile = _tile_of(kyoku, seat, kind)
    if after == 1 and not silent and not kyoku.after_call and RIICHIS[tile] in legal:
        return RIICHIS[tile]
    action = DISCARDS[tile]
    return action if action in legal else legal[0]


def _least_useful(counts: list[int], sets: int) -> tuple[int, int]:
    """The kind to let go that leaves the hand nearest to ready (of those, the one that
    holds it together least), and the tiles it is then from complete."""
    nearest, kinds = 99, []
    for k in range(NUM_KINDS):
        if not counts[k]:
            continue
        counts[k] -= 1
        r = replacement(bytes(counts), sets)
        counts[k] += 1
        if r < nearest:
            nearest, kinds = r, [k]
        elif r == nearest:
            kinds.append(k)
    return min(kinds, key=lambda k: _keep(counts, k)), nearest


def _keep(counts: list[int], k: int) -> int:
    """How much a kind holds the hand together: its copies and its neighbours."""
    if k >= HONOR_START:
        return counts[k] * 3
    rank = k % 9
    return sum(counts[max(k - rank, k - 2) : min(k - rank + 8, k + 2) + 1]) + (rank not in (0, 8))


def _tile_of(kyoku: Kyoku, seat: Seat, kind: int) -> int:
    """The tile of ``kind`` to let go: not a red five where there is another."""
    tiles = [t for t in seat.hand if t >> 2 == kind]
    plain = [t for t in tiles if not is_red(t, kyoku.rules.red_fives)]
    return (plain or tiles)[0]


def _safest(kyoku: Kyoku, threats: list[int], legal: list[Action]) -> Action:
    rivers = [kyoku.seats[o].discarded_kinds() for o in threats]
    best: tuple[int, int] | None = None
    choice = legal[0]
    for action in legal:
        if action.type is not ActionType.DISCARD or action.tile is None:
            continue
        k = action.tile >> 2
        unsafe = sum(1 for river in rivers if not river >> k & 1)
        if k >= HONOR_START:
            shape = 0
        else:
            rank = k % 9
            shape = 1 if rank in (0, 8) else 2 if rank in (1, 7) else 3
        key = (unsafe, shape)
        if best is None or key < best:
            best, choice = key, action
    return choice


def passes_riichi(obs: Observation, action: Action) -> bool:
    """Whether ``action`` lets go, without declaring, a tile ``obs.seat`` could have
    declared riichi with: it chose to stay silent."""
    return (
        action.type is ActionType.DISCARD
        and action.tile is not None
        and RIICHIS[action.tile] in obs.legal
    )


def option_values(
    obs: Observation,
    options: Sequence[tuple[Action, bool]],
    worlds: Sequence[World],
    players: Sequence[Agent] | None = None,
    dama: bool = False,
) -> list[list[list[int]]]:
    """For each (action, folds after it) option, each world's changes of score when
    the option is taken in it and the hand played out (by the fast policy, or by
    ``players``, who decide for themselves whether to fold); with ``dama``, an option
    that passes a riichi by is played out silent."""
    assert obs.seat is not None
    out = []
    for action, folds in options:
        silent = obs.seat if dama and passes_riichi(obs, action) else None
        results = []
        for world in worlds:
            kyoku = resume(obs, world)
            pending(obs, kyoku)
            kyoku.apply(obs.seat, action)
            results.append(play_out(kyoku, obs.seat if folds else None, players, silent))
        out.append(results)
    return out


def worlds_for(obs: Observation, count: int, key: str) -> list[World]:
    """``count`` worlds, the same for the same ``key`` (a seed and the situation)."""
    rng = random.Random(key)
    return [sample_world(obs, rng) for _ in range(count)]


__all__ = [
    "World",
    "answering",
    "built_hand",
    "option_values",
    "passes_riichi",
    "pending",
    "play_out",
    "resume",
    "sample_world",
    "unseen",
    "worlds_for",
]
