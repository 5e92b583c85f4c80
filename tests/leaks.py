"""What a viewer may know, rebuilt from the finished game, to check what it was sent.

A tile is hidden from a viewer when it is neither in the viewer's own hand nor
on the table for all to see (rivers, melds, shown dora indicators): other
hands, the live wall, the dead wall and the ura indicators. A message leaks
when a tile field in it names a tile that was hidden from its receiver both
before and after the action that produced it; the only exceptions are what
the rules reveal at a hand's end (the winner's hand and ura indicators, the
hands shown at a draw), and those are checked against the truth too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from riichi.game import Kyoku, Match
from riichi.game.wall import tile_set

# Fields whose integers are tile ids, wherever they appear in a message.
TILE_KEYS = frozenset(
    {
        "tile",
        "tiles",
        "hand",
        "drawn",
        "dora",
        "indicator",
        "dora_indicators",
        "discards",
        "meld_tiles",
        "called",  # meld_info's called tile
        "added",  # meld_info's added tile of a kakan
        "kita",
        "ura",
        "hands",
        "legal",
        "red",
    }
)
# Every field a seat's state may carry: a new one must be added here knowingly.
STATE_KEYS = frozenset(
    {
        "seat",
        "rules",
        "round_wind",
        "dealer",
        "honba",
        "sticks",
        "scores",
        "live_left",
        "dora_indicators",
        "hand",
        "drawn",
        "hand_sizes",
        "melds",
        "meld_tiles",
        "kita",
        "discards",
        "riichi",
        "current",
        "legal",
        "over",
        "players",
        "red",
        "standings",
        "final",  # at the end: each seat's uma, oka and chips, from the standings
        "meld_info",  # the called sets again, tile ids checked under TILE_KEYS
        "last_discard",  # [seat, place in its river]
        # the seat's own waits: kinds and how many it has not seen, counted from its
        # hand and the table (so no tile of anyone else's); its keys must never be
        # named like a tile field, or its kinds and counts would read as tile ids
        "tenpai",
    }
)
# Every field each event may carry, so a new field (a leak by another name) is noticed.
EVENT_KEYS = {
    "start_match": {"players", "rules"},
    "start_hand": {"dealer", "dora", "honba", "round_wind", "scores", "sticks"},
    "deal": {"hand", "seat", "to"},
    "draw": {"left", "rinshan", "seat", "tile", "to"},
    "discard": {"riichi", "seat", "tile", "tsumogiri"},
    "riichi": {"scores", "seat", "sticks"},
    "call": {"call", "seat", "source", "tile", "tiles"},
    "ankan": {"seat", "tiles"},
    "kakan": {"seat", "tile"},
    "kita": {"seat", "tile"},
    "dora": {"indicator"},
    "win": {"hand", "melds", "result", "seat", "source", "tile", "ura"},
    "ryuukyoku": {"deltas", "hands", "kind", "nagashi", "tenpai"},
    "end_hand": {"deltas", "honba", "kind", "scores", "sticks"},
    "end_match": {"standings"},
}
# What the rules reveal at a hand's end: the winner's hand (and its reading), the ura
# indicators, the hands shown at a draw.
REVEALED = {"win": ("hand", "tile", "ura", "result"), "ryuukyoku": ("hands",)}


def tile_ids(value: Any, under_tile_key: bool = False) -> Iterator[int]:
    """Every integer under a tile key, at any depth (booleans are not tiles)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from tile_ids(item, under_tile_key or key in TILE_KEYS)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from tile_ids(item, under_tile_key)
    elif under_tile_key and type(value) is int:
        yield value


class Truth:
    """The finished match replayed action by action: visibility per seat at every version."""

    def __init__(self, record: dict[str, Any]) -> None:
        match = Match.from_record(record)
        again = Match(match.rules, match.seed, match.players)
        self.players = match.rules.players
        self.universe = frozenset(tile_set(self.players))
        self.seats: list[int | None] = [*range(self.players), None]
        # After k actions: versions[k], hidden[k][seat], hands[k][seat]; when action k
        # ended a hand, ended[k] is the hidden sets of that hand at its end, and
        # dealt[k] the index of the next hand's first event.
        self.versions = [len(again.events)]
        self.hidden = [self._hidden(again.kyoku)]
        self.hands = [self._hands(again.kyoku)]
        self.ended: list[dict[int | None, frozenset[int]]] = [self.hidden[0]]
        self.dealt: list[int | None] = [None]
        self.action_of_event = [0] * len(again.events)
        for seat, action in match.actions:
            kyoku, start = again.kyoku, len(again.events)
            again.apply(seat, action)
            self.action_of_event += [len(self.versions)] * (len(again.events) - start)
            self.versions.append(len(again.events))
            self.hidden.append(self._hidden(again.kyoku))
            self.hands.append(self._hands(again.kyoku))
            self.ended.append(self._hidden(kyoku))
            starts = [
                i for i in range(start, len(again.events)) if again.events[i].type == "start_hand"
            ]
            self.dealt.append(starts[0] if starts else None)
        self.events = [e.to_dict() for e in again.events]
        # Spectators may stand at a hand's end with the next hand cut off: the version
        # is then the index of the next hand's start_hand, and the hand is as it ended.
        first = next(i for i, e in enumerate(self.events) if e["type"] == "start_hand")
        self.cuts = {first: 0} | {d: k for k, d in enumerate(self.dealt) if d is not None}

    def _hidden(self, kyoku: Kyoku) -> dict[int | None, frozenset[int]]:
        """Per viewer, the tiles it cannot see in this hand as it stands."""
        public = set(kyoku.dora_indicators())
        for seat in kyoku.seats:
            public.update(d.tile for d in seat.discards)
            for meld in seat.melds:
                public.update(meld.tiles)
        out = {None: self.universe - public}
        for s, seat in enumerate(kyoku.seats):
            out[s] = self.universe - public - set(seat.hand)
        return out

    def _hands(self, kyoku: Kyoku) -> list[frozenset[int]]:
        return [frozenset(s.hand) for s in kyoku.seats]

    def step_of(self, version: int) -> int:
        """How many actions had been applied when the table was at ``version``."""
        return self.versions.index(version)

    def check_state(self, state: dict[str, Any], seat: int | None, version: int) -> list[str]:
        problems = []
        extra = set(state) - STATE_KEYS
        if extra:
            problems.append(f"v{version}: state has unknown fields {sorted(extra)}")
        if version in self.cuts:
            hidden = self.ended[self.cuts[version]][seat]
        else:
            hidden = self.hidden[self.step_of(version)][seat]
        red = set(state.get("red", ()))
        leaked = {t for t in tile_ids({k: v for k, v in state.items() if k != "red"})} & hidden
        if leaked:
            problems.append(f"v{version}: seat {seat} state shows hidden tiles {sorted(leaked)}")
        if not red <= self.universe:
            problems.append("red fives outside the tile set")
        return problems

    def check_event(self, event: dict[str, Any], index: int, seat: int | None) -> list[str]:
        """Event number ``index`` as received by ``seat``."""
        if event != self.events[index]:
            return [f"event {index} differs from the match's: {event}"]
        unknown = set(event) - {"type"} - EVENT_KEYS.get(event["type"], set())
        if unknown:
            return [f"event {index} ({event['type']}) has unknown fields {sorted(unknown)}"]
        to = event.get("to")
        if to is not None and to != seat:
            return [f"event {index} for seat {to} reached seat {seat}"]
        step = self.action_of_event[index]
        before = self.hidden[max(step - 1, 0)][seat]
        dealt = self.dealt[step]
        after = (self.ended if dealt is not None and index < dealt else self.hidden)[step][seat]
        exempt = REVEALED.get(event["type"], ())
        plain = {k: v for k, v in event.items() if k not in exempt}
        problems = []
        leaked = set(tile_ids(plain)) & before & after
        if leaked:
            problems.append(f"event {index} ({event['type']}) shows hidden tiles {sorted(leaked)}")
        hands_before = self.hands[max(step - 1, 0)]
        public = self.universe - before  # on the table before this action
        if (
            event["type"] == "win"
            and not set(event["hand"]) <= hands_before[event["seat"]] | public
        ):
            problems.append(f"event {index}: the win shows tiles not in the winner's hand")
        for shown, tiles in event.get("hands", {}).items() if event["type"] == "ryuukyoku" else ():
            if not set(tiles) <= hands_before[int(shown)] | public:
                problems.append(f"event {index}: a draw shows tiles not in seat {shown}'s hand")
        return problems
