"""The efficiency bot: discards by shanten and tile acceptance, riichi at tenpai,
calls only where the call keeps a yaku, always takes a win."""

from __future__ import annotations

import hashlib

from riichi.bots.agent import Bot, winning
from riichi.game import Action, ActionType, Observation
from riichi.hand import shanten, ukeire
from riichi.tiles import DRAGONS, EAST, M2, M8, NUM_KINDS, counts_of, is_red, is_yaochu


def visible_counts(obs: Observation) -> list[int]:
    """Tiles the seat can see outside its own hand: rivers, called sets, dora indicators;
    with three players, 2m to 8m count as all out (the game has none: no hand can be
    waiting on them or draw them)."""
    seen = [t for river in obs.discards for t, _tsumogiri, _riichi, called in river if not called]
    seen += [t for sets in obs.meld_tiles for tiles in sets for t in tiles]
    seen += obs.dora_indicators
    out = [min(4, c) for c in counts_of(seen)]
    if obs.rules.players == 3:
        out[M2 : M8 + 1] = [4] * (M8 + 1 - M2)
    return out


class EfficiencyBot(Bot):
    """Plays for the fastest win it can see (seeded tie breaks)."""

    kind = "efficiency"

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        self.key = f"efficiency-bot:{seed}"

    def _chance(self, obs: Observation, kind: int) -> bytes:
        """A tie-break fixed by the seed and the situation, not by a stream: the same
        decision is taken the same way after a restart (the Daily Wall's computers must
        answer everyone who plays alike alike)."""
        assert obs.seat is not None
        turn = len(obs.discards[obs.seat])
        where = f"{self.key}/{obs.round_wind}/{obs.dealer}/{obs.honba}/{turn}/{kind}"
        return hashlib.sha256(where.encode()).digest()

    def act(self, observation: Observation) -> Action:
        obs = observation
        legal = obs.legal
        win = winning(legal)
        if win is not None:
            return win
        types = {a.type for a in legal}
        if ActionType.PASS in types:
            return self._respond(obs)
        if ActionType.KYUUSHU in types and self._shanten(obs) >= 4:
            return next(a for a in legal if a.type is ActionType.KYUUSHU)
        kan = self._kan(obs)
        if kan is not None:
            return kan
        return self._discard(obs)

    # -------------------------------------------------------------- own turn

    def _melds(self, obs: Observation) -> int:
        assert obs.seat is not None
        return len(obs.meld_tiles[obs.seat])

    def _shanten(self, obs: Observation) -> int:
        assert obs.hand is not None
        return shanten(counts_of(obs.hand), self._melds(obs))

    def _discard(self, obs: Observation) -> Action:
        assert obs.hand is not None
        counts = counts_of(obs.hand)
        table = ukeire(counts, visible_counts(obs), self._melds(obs)).discards
        best = (table[0].shanten, table[0].tiles)
        tied = [row.discard for row in table if (row.shanten, row.tiles) == best]
        # among equals, let go of lone honours and terminals first, then chance
        tied.sort(key=lambda k: (not is_yaochu(k), self._chance(obs, k)))
        kind = tied[0]
        riichi = [
            a
            for a in obs.legal
            if a.type is ActionType.RIICHI and a.tile is not None and a.tile >> 2 == kind
        ]
        options = riichi or [
            a
            for a in obs.legal
            if a.type is ActionType.DISCARD and a.tile is not None and a.tile >> 2 == kind
        ]
        if not options:  # kuikae or riichi lock narrowed the choice
            options = [a for a in obs.legal if a.type is ActionType.DISCARD]
        # keep red fives; prefer letting the drawn tile go
        options.sort(key=lambda a: (is_red(a.tile or 0, obs.rules.red_fives), a.tile != obs.drawn))
        return options[0]

    def _kan(self, obs: Observation) -> Action | None:
        kans = [a for a in obs.legal if a.type in (ActionType.ANKAN, ActionType.KAKAN)]
        if not kans:
            return None
        assert obs.hand is not None
        before = self._shanten(obs)
        for a in kans:
            counts = counts_of(obs.hand)
            if a.type is ActionType.ANKAN:
                counts[a.tiles[0] >> 2] = 0
                melds = self._melds(obs) + 1
            else:
                assert a.tile is not None
                counts[a.tile >> 2] -= 1
                melds = self._melds(obs)
            # after the kan a replacement comes: the 3M+1 tiles left must be no worse
            if shanten(counts, melds) <= before:
                return a
        return None

    # -------------------------------------------------------------- calls

    def _respond(self, obs: Observation) -> Action:
        calls = [a for a in obs.legal if a.type in (ActionType.PON, ActionType.CHI)]
        assert obs.hand is not None and obs.seat is not None
        before = self._shanten(obs)
        best: tuple[int, Action] | None = None
        for a in calls:
            assert a.tile is not None
            counts = counts_of(obs.hand)
            for t in a.tiles:
                counts[t >> 2] -= 1
            melds = self._melds(obs) + 1
            after = min(
                shanten([c - (k == i) for i, c in enumerate(counts)], melds)
                for k in range(NUM_KINDS)
                if counts[k]
            )
            keeps = after < before and self._keeps_yaku(obs, a, counts)
            if keeps and (best is None or after < best[0]):
                best = (after, a)
        if best is not None:
            return best[1]
        return next(a for a in obs.legal if a.type is ActionType.PASS)

    def _keeps_yaku(self, obs: Observation, call: Action, rest: list[int]) -> bool:
        assert call.tile is not None and obs.seat is not None
        kind = call.tile >> 2
        seat_wind = EAST + (obs.seat - obs.dealer) % obs.rules.players
        if call.type is ActionType.PON and kind in (*DRAGONS, seat_wind, obs.round_wind):
            return True
        tiles = [t >> 2 for sets in obs.meld_tiles[obs.seat] for t in sets]
        tiles += [kind] + [t >> 2 for t in call.tiles]
        held = [k for k in range(NUM_KINDS) for _ in range(rest[k])]
        everything = tiles + held
        # open tanyao: all simples but for at most one tile still to let go
        open_simples = obs.rules.kuitan and not any(is_yaochu(k) for k in tiles)
        if open_simples and sum(1 for k in held if is_yaochu(k)) <= 1:
            return True
        # a flush: nearly everything in one suit plus honours
        for suit in range(3):
            in_suit = sum(1 for k in everything if k // 9 == suit or k >= 27)
            if in_suit >= len(everything) - 1 and all(k // 9 == suit or k >= 27 for k in tiles):
                return True
        # a value pair or triplet already in hand keeps yakuhai in reach
        return any(rest[k] >= 2 for k in (*DRAGONS, seat_wind, obs.round_wind))
