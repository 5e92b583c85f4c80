"""The defensive bot: the efficiency bot plus reading danger and choosing to push or fold.

Against a riichi or a big open hand every tile gets a danger estimate from
what the table shows: genbutsu (the threat's own discards, and tiles that
passed after its riichi), suji, kabe and one-chance walls, how many copies of
an honour are out, and the threat's furiten. The bot pushes with a close,
valuable hand and folds to the safest tile otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from riichi.bots.agent import winning
from riichi.bots.efficiency import EfficiencyBot, visible_counts
from riichi.game import Action, ActionType, Observation
from riichi.hand import shanten_kokushi, ukeire
from riichi.tiles import DRAGONS, EAST, NUM_KINDS, counts_of, dora_of, is_red

SAFE = 0.0


def discard_order(obs: Observation) -> list[tuple[int, int]]:
    """Every discard of the hand as (seat, number in its river), in the order they
    were made: the turn passes to the next seat, or to the seat that called the
    discard (the one whose sets hold that very tile). Kept for the last observation
    asked about, which every threat and every tile of one decision reads again."""
    global _ordered
    kept = _ordered  # read once: another thread may replace it
    if kept is not None and kept[0] is obs:
        return kept[1]
    n = obs.rules.players
    caller = {t: seat for seat, sets in enumerate(obs.meld_tiles) for tiles in sets for t in tiles}
    rivers = obs.discards
    made = [0] * n
    seat = obs.dealer
    order = []
    while made[seat] < len(rivers[seat]):
        tile, _, _, called = rivers[seat][made[seat]]
        order.append((seat, made[seat]))
        made[seat] += 1
        seat = caller.get(tile, (seat + 1) % n) if called else (seat + 1) % n
    _ordered = (obs, order)
    return order


_ordered: tuple[Observation, list[tuple[int, int]]] | None = None


def declared_at(river: Sequence[tuple[int, bool, bool, bool]]) -> int | None:
    """The number of the discard that declared riichi in ``river``, if one did."""
    return next((i for i, d in enumerate(river) if d[2]), None)


class DefensiveBot(EfficiencyBot):
    """Efficient when nobody threatens, careful when someone does (seeded)."""

    kind = "defensive"

    def act(self, observation: Observation) -> Action:
        obs = observation
        legal = obs.legal
        taken = self._win_or_abort(obs)
        if taken is not None:
            return taken
        threats = self.threats(obs)
        types = {a.type for a in legal}
        if ActionType.PASS in types:
            if threats and self._shanten(obs) > 1:
                return next(a for a in legal if a.type is ActionType.PASS)
            return self._respond(obs)
        if not threats:
            return super().act(obs)
        return self._guarded_discard(obs, threats)

    @staticmethod
    def _win_or_abort(obs: Observation) -> Action | None:
        """A win when offered; a nine-terminals abort of a hopeless start, unless
        thirteen orphans is close."""
        win = winning(obs.legal)
        if win is not None:
            return win
        abort = next((a for a in obs.legal if a.type is ActionType.KYUUSHU), None)
        if abort is not None:
            assert obs.hand is not None
            if shanten_kokushi(counts_of(obs.hand)) > 2:
                return abort
        return None

    # -------------------------------------------------------------- reading the table

    def threats(self, obs: Observation) -> list[int]:
        """Opponents in riichi, or with an open hand that can win with value.

        Calls alone are no threat: an open hand needs a yaku. Two calls with a
        value triplet, or three calls that keep a flush, all triplets or all
        simples, are.
        """
        assert obs.seat is not None
        out = []
        for s in range(obs.rules.players):
            if s == obs.seat:
                continue
            if obs.riichi[s] or self._open_threat(obs, s):
                out.append(s)
        return out

    def _open_threat(self, obs: Observation, seat: int) -> bool:
        sets = obs.meld_tiles[seat]
        if len(sets) < 2:
            return False
        kinds = [[t >> 2 for t in tiles] for tiles in sets]
        triplets = [k[0] for k in kinds if k[0] == k[-1]]
        wind = EAST + (seat - obs.dealer) % obs.rules.players
        if any(k in (*DRAGONS, wind, obs.round_wind) for k in triplets):
            return True
        if len(sets) < 3:
            return False
        flat = [k for group in kinds for k in group]
        suits = {k // 9 for k in flat if k < 27}
        simples = all(k < 27 and k % 9 not in (0, 8) for k in flat)
        return len(suits) <= 1 or len(triplets) == len(sets) or simples

    def danger(self, obs: Observation, threat: int, kind: int) -> float:
        """How likely ``kind`` deals into ``threat`` (0 safe .. about 10 most dangerous)."""
        river = obs.discards[threat]
        own = {tile >> 2 for tile, *_ in river}
        if kind in own:
            return SAFE  # genbutsu, and the threat is furiten on it
        if obs.riichi[threat]:
            declared = declared_at(river)
            passed = self._passed_since(obs, threat, len(river) if declared is None else declared)
            if kind in passed:
                return SAFE  # it went by after the riichi without a ron
        seen = visible_counts(obs)
        assert obs.hand is not None
        mine = counts_of(obs.hand)
        out = [min(4, seen[k] + mine[k]) for k in range(NUM_KINDS)]
        if kind >= 27:
            left = 4 - out[kind]
            return {0: SAFE, 1: 0.5, 2: 2.0}.get(left, 3.0)
        rank = kind % 9  # 0..8
        base = 5.0 if rank in (0, 8) else 6.0 if rank in (1, 7) else 8.0
        if self._suji(kind, own):
            base *= 0.4
        if self._walled(kind, out):
            base *= 0.3
        dora = {dora_of(t >> 2) for t in obs.dora_indicators}
        if kind in dora:
            base *= 1.3
        return base

    def _passed_since(self, obs: Observation, threat: int, declared: int) -> set[int]:
        """Kinds others let go after the threat's discard number ``declared``."""
        order = discard_order(obs)
        try:
            start = order.index((threat, declared)) + 1
        except ValueError:  # not yet let go
            return set()
        return {obs.discards[s][i][0] >> 2 for s, i in order[start:] if s != threat}

    @staticmethod
    def _suji(kind: int, own: set[int]) -> bool:
        rank = kind % 9
        low, high = kind - 3, kind + 3
        if rank <= 2:
            return high in own
        if rank >= 6:
            return low in own
        return low in own and high in own

    @staticmethod
    def _walled(kind: int, out: list[int]) -> bool:
        """No-chance: the neighbours a two-sided wait would need are all out."""
        rank = kind % 9
        needs = []
        if rank >= 2:
            needs.append(kind - 1)  # waits like (k-2, k-1) need k-1
        if rank <= 6:
            needs.append(kind + 1)
        return bool(needs) and all(out[k] >= 4 for k in needs)

    # -------------------------------------------------------------- choosing

    def _guarded_discard(self, obs: Observation, threats: list[int]) -> Action:
        assert obs.hand is not None and obs.seat is not None
        counts = counts_of(obs.hand)
        melds = self._melds(obs)
        rows = ukeire(counts, visible_counts(obs), melds).discards
        best_shanten = rows[0].shanten
        push = self._should_push(obs, best_shanten)

        def risk(kind: int) -> float:
            return max(self.danger(obs, t, kind) for t in threats)

        if push:
            # keep the best shanten, and among those discards take the safest
            keep = [r for r in rows if r.shanten == best_shanten]
            keep.sort(key=lambda r: (risk(r.discard) > 6.0, -r.tiles, risk(r.discard)))
            kind = keep[0].discard
        else:
            kind = min(rows, key=lambda r: (risk(r.discard), r.shanten, -r.tiles)).discard
        choices = [
            a
            for a in obs.legal
            if a.type is ActionType.DISCARD and a.tile is not None and a.tile >> 2 == kind
        ]
        if push:
            choices = [
                a
                for a in obs.legal
                if a.type is ActionType.RIICHI
                and a.tile is not None
                and a.tile >> 2 == kind
                and self._riichi_ok(obs)
            ] or choices
        if not choices:
            choices = [a for a in obs.legal if a.type is ActionType.DISCARD]
        choices.sort(key=lambda a: (is_red(a.tile or 0, obs.rules.red_fives), a.tile != obs.drawn))
        return choices[0]

    def _should_push(self, obs: Observation, best_shanten: int) -> bool:
        if best_shanten <= 0:
            return True  # tenpai after the discard: keep going
        if best_shanten >= 2:
            return False
        # one-shanten: push only with value (dora, red fives, a value triplet)
        assert obs.hand is not None and obs.seat is not None
        dora = [dora_of(t >> 2) for t in obs.dora_indicators]
        tiles = list(obs.hand) + [t for m in obs.meld_tiles[obs.seat] for t in m]
        value = sum(1 for t in tiles if t >> 2 in dora)
        value += sum(1 for t in tiles if is_red(t, obs.rules.red_fives))
        counts = counts_of(tiles)
        seat_wind = EAST + (obs.seat - obs.dealer) % obs.rules.players
        value += sum(1 for k in (*DRAGONS, seat_wind, obs.round_wind) if counts[k] >= 3)
        return value >= 2 and obs.live_left > 8

    def _riichi_ok(self, obs: Observation) -> bool:
        """No riichi that would make it four (an abortive draw) or on the last draws."""
        assert obs.seat is not None
        others = sum(1 for s, r in enumerate(obs.riichi) if r and s != obs.seat)
        return others < 3 and obs.live_left >= 4
