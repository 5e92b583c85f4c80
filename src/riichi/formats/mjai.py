"""mjai JSON Lines logs: read them into the same hand steps as Tenhou logs.

mjai names tiles by kind and redness only, so physical ids are handed out
here: red fives take their red copy, plain tiles the lowest free copy that
is never red. Each seat's hand is tracked so that every discard and call
names the very copy the seat holds. Field meanings: FORMATS.md section 3.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from riichi.formats.mjlog import RULES_KEY, LogFormatError, LogGame, LogHand, Step, as_paid
from riichi.game import Event, Match
from riichi.rules import RuleSet
from riichi.scoring import Meld, MeldType
from riichi.tiles import FIVES, P5, mjai_name, parse_mjai

_WINDS = {"E": 0, "S": 4, "W": 8, "N": 12}
_WIND_NAMES = "ESWN"
_CALL_NAMES = {"chi": "chi", "pon": "pon", "kan": "daiminkan"}
_CALLS = {"chi": MeldType.CHI, "pon": MeldType.PON, "daiminkan": MeldType.MINKAN}


class _Tiles:
    """Physical ids for mjai tile names within one hand."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def new(self, name: str) -> int:
        kind, red = parse_mjai(name)
        if red:
            order: tuple[int, ...] = (0, 1) if kind == P5 else (0,)
        elif kind in FIVES:
            order = (3, 2, 1, 0)
        else:
            order = (0, 1, 2, 3)
        for copy in order:
            tile = kind * 4 + copy
            if tile not in self.used:
                self.used.add(tile)
                return tile
        raise LogFormatError(f"a fifth {name}")


def read_mjai(path: str | Path, lenient: bool = False) -> LogGame:
    """Read an mjai log (one event per line) into a LogGame.

    Strict by default: a malformed line raises ``LogFormatError`` naming the
    file and line. ``lenient`` skips such lines and lists them in ``errors``.
    """
    path = Path(path)
    return parse_mjai_text(path.read_text(), str(path), lenient)


def parse_mjai_text(text: str, source: str = "<mjai>", lenient: bool = False) -> LogGame:
    """An mjai log from its text, one event per line (see `read_mjai`)."""
    events: list[dict[str, Any]] = []
    errors: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            problem = f"{source}: line {number}: not JSON: {exc}"
        else:
            if isinstance(event, dict) and "type" in event:
                event["_line"] = number
                events.append(event)
                continue
            problem = f"{source}: line {number}: an event is an object with a type"
        if not lenient:
            raise LogFormatError(problem)
        errors.append(problem)
    game = parse_mjai_events(events, source)
    game.errors = errors
    return game


def parse_mjai_events(events: list[dict[str, Any]], source: str = "<mjai>") -> LogGame:
    players: list[str] = []
    rules: dict[str, Any] | None = None
    reds = True  # copy 0 of a five is the red one
    hands: list[LogHand] = []
    tiles = _Tiles()
    held: list[list[int]] = []
    last_discard: int | None = None
    last_tsumo: int | None = None
    previous = ""
    for e in events:
        kind = e["type"]
        where = f"{source}: line {e.get('_line', '?')}"
        try:
            if kind == "start_game":
                players = [str(x) for x in e.get("names", [])]
                ours = e.get(RULES_KEY)
                rules = ours if isinstance(ours, dict) else None
                reds = rules is None or bool(rules.get("red_fives", 3))
            elif kind == "start_kyoku":
                tiles = _Tiles()
                held = [[tiles.new(t) for t in hand] for hand in e["tehais"]]
                hands.append(
                    LogHand(
                        round=_WINDS[e["bakaze"]] + e["kyoku"] - 1,
                        honba=e["honba"],
                        sticks=e["kyotaku"],
                        dora=tiles.new(e["dora_marker"]),
                        dealer=e["oya"],
                        scores=list(e.get("scores") or []),
                        haipai=[sorted(h) for h in held],
                    )
                )
            elif kind == "tsumo":
                tile = tiles.new(e["pai"])
                held[e["actor"]].append(tile)
                last_tsumo = tile
                hands[-1].steps.append(Step("draw", e["actor"], tile))
            elif kind == "dahai":
                seat = e["actor"]
                if e.get("tsumogiri") and last_tsumo is not None and last_tsumo in held[seat]:
                    tile = last_tsumo
                else:  # from the hand: not the copy just drawn, if another is there
                    others = [t for t in held[seat] if t != last_tsumo]
                    try:
                        tile = _pick(others, e["pai"], reds)
                    except LogFormatError:
                        tile = _pick(held[seat], e["pai"], reds)
                held[seat].remove(tile)
                last_discard = tile
                hands[-1].steps.append(Step("discard", seat, tile))
            elif kind == "reach":
                hands[-1].steps.append(Step("reach", e["actor"], attrs={"step": "1"}))
            elif kind in _CALLS:
                seat = e["actor"]
                assert last_discard is not None
                used = _take(held[seat], e["consumed"], reds)
                meld = Meld(
                    _CALLS[kind], tuple(sorted((*used, last_discard))), last_discard, e["target"]
                )
                hands[-1].steps.append(Step("call", seat, meld=meld))
            elif kind == "ankan":
                seat = e["actor"]
                used = _take(held[seat], e["consumed"], reds)
                hands[-1].steps.append(Step("call", seat, meld=Meld(MeldType.ANKAN, tuple(used))))
            elif kind == "kakan":
                seat = e["actor"]
                added = _pick(held[seat], e["pai"], reds)
                held[seat].remove(added)
                pon = _pon_ids(hands[-1], seat, added >> 2)
                meld = Meld(MeldType.KAKAN, (*pon, added), pon[0], None)
                last_discard = added
                hands[-1].steps.append(Step("call", seat, meld=meld))
            elif kind == "nukidora":  # three players: a North set aside
                seat = e["actor"]
                north = _pick(held[seat], e["pai"], reds)
                held[seat].remove(north)
                last_discard = north  # a ron on it takes this tile
                hands[-1].steps.append(Step("kita", seat, north))
            elif kind == "dora":
                hands[-1].steps.append(Step("dora", tile=tiles.new(e["dora_marker"])))
            elif kind == "hora":
                who, target = e["actor"], e["target"]
                win = last_tsumo if who == target else last_discard
                attrs: dict[str, Any] = {
                    "who": str(who),
                    "fromWho": str(target),
                    "machi": str(win),
                    "deltas": e.get("deltas"),
                }
                markers = e.get("ura_markers") or e.get("uradora_markers") or []
                attrs["ura"] = [tiles.new(m) for m in markers]
                hands[-1].steps.append(Step("agari", who, attrs=attrs))
            elif kind == "ryukyoku":
                # a draw straight after a draw is nine terminals; others the engine finds
                reason = "yao9" if previous == "tsumo" else "?"
                hands[-1].steps.append(
                    Step("ryuukyoku", attrs={"type": reason, "deltas": e.get("deltas")})
                )
            previous = kind
        except (KeyError, IndexError, TypeError, ValueError, AssertionError) as exc:
            raise LogFormatError(f"{where}: {kind}: {exc}") from None
    if not hands:
        raise LogFormatError(f"{source}: no start_kyoku")
    three = len(hands[0].haipai) == 3  # the three-player extension deals three hands
    go = 0x89 | (0x10 if three else 0)
    return LogGame(source, go, players, hands, rules=rules)


def _pick(hand: list[int], name: str, reds: bool = True) -> int:
    """The copy of ``name`` in ``hand``; a plain name never takes a red copy (copy 0,
    where the game has red fives)."""
    kind, red = parse_mjai(name)
    matches = [t for t in hand if t >> 2 == kind]
    if kind in FIVES and reds:
        matches = [t for t in matches if (t % 4 == 0) == red]
    if not matches:
        raise LogFormatError(f"{name} is not in the hand")
    return max(matches)


def _take(hand: list[int], names: list[str], reds: bool = True) -> list[int]:
    """Remove the named tiles from ``hand`` and return their ids."""
    out = []
    for name in names:
        tile = _pick(hand, name, reds)
        hand.remove(tile)
        out.append(tile)
    return out


def _pon_ids(hand: LogHand, seat: int, kind: int) -> tuple[int, ...]:
    for step in reversed(hand.steps):
        if (
            step.kind == "call"
            and step.seat == seat
            and step.meld is not None
            and step.meld.type is MeldType.PON
            and step.meld.kind == kind
        ):
            return step.meld.tiles
    raise LogFormatError(f"kakan of kind {kind} by seat {seat} without a pon")


# ---------------------------------------------------------------- writing


def write_mjai(match: Match) -> list[dict[str, Any]]:
    """A match's events as mjai events (the full, unmasked log)."""
    stream = MjaiStream(match.rules, match.players)
    return [e for event in match.events for e in stream.feed(event)]


class MjaiStream:
    """Our events turned into mjai events: as one seat may see them, or all of them."""

    def __init__(self, rules: RuleSet, players: Sequence[str], viewer: int | None = None) -> None:
        self.rules = rules
        self.players = list(players)
        self.viewer = viewer
        self.start: dict[str, Any] | None = None
        self.pons: dict[tuple[int, int], list[int]] = {}
        self.deals: dict[int, list[str]] = {}
        self.wins: list[dict[str, Any]] = []  # held back to the hand's end (see win)

    def name(self, tile: int) -> str:
        return mjai_name(tile, self.rules.red_fives)

    def feed(self, event: Event) -> list[dict[str, Any]]:
        d, kind = event.data, event.type
        if self.viewer is not None and not event.visible_to(self.viewer):
            return []
        if kind == "start_match":
            start: dict[str, Any] = {"type": "start_game", "names": self.players}
            if self.viewer is not None:
                return [{**start, "id": self.viewer}]
            # the full log: every rule of the game, in a key of ours others ignore
            return [{**start, RULES_KEY: self.rules.to_dict()}]
        if kind == "start_hand":
            self.start, self.pons, self.deals = d, {}, {}
            return []
        if kind == "deal" and self.start is not None:
            self.deals[d["seat"]] = [self.name(t) for t in d["hand"]]
            n = self.rules.players
            if self.viewer is None and len(self.deals) < n:
                return []  # the full log shows every hand at once
            tehais = [self.deals.get(seat, ["?"] * 13) for seat in range(n)]
            s = self.start
            return [
                {
                    "type": "start_kyoku",
                    "bakaze": _WIND_NAMES[s["round_wind"] - 27],
                    "dora_marker": self.name(s["dora"]),
                    "kyoku": s["dealer"] + 1,
                    "honba": s["honba"],
                    "kyotaku": s["sticks"],
                    "oya": s["dealer"],
                    "scores": list(s["scores"]),
                    "tehais": tehais,
                }
            ]
        if kind == "draw":
            if "tile" in d:
                return [{"type": "tsumo", "actor": d["seat"], "pai": self.name(d["tile"])}]
            if self.viewer is not None and d["seat"] != self.viewer:
                return [{"type": "tsumo", "actor": d["seat"], "pai": "?"}]
            return []
        if kind == "discard":
            out = [{"type": "reach", "actor": d["seat"]}] if d["riichi"] else []
            return [
                *out,
                {
                    "type": "dahai",
                    "actor": d["seat"],
                    "pai": self.name(d["tile"]),
                    "tsumogiri": d["tsumogiri"],
                },
            ]
        if kind == "riichi":
            return [{"type": "reach_accepted", "actor": d["seat"]}]
        if kind == "call":
            used = list(d["tiles"])
            used.remove(d["tile"])
            call = {"chi": "chi", "pon": "pon", "kan": "daiminkan"}[d["call"]]
            if call == "pon":
                self.pons[(d["seat"], d["tile"] >> 2)] = list(d["tiles"])
            return [
                {
                    "type": call,
                    "actor": d["seat"],
                    "target": d["source"],
                    "pai": self.name(d["tile"]),
                    "consumed": [self.name(t) for t in used],
                }
            ]
        if kind == "ankan":
            return [
                {
                    "type": "ankan",
                    "actor": d["seat"],
                    "consumed": [self.name(t) for t in d["tiles"]],
                }
            ]
        if kind == "kakan":
            pon = self.pons.get((d["seat"], d["tile"] >> 2), [])
            return [
                {
                    "type": "kakan",
                    "actor": d["seat"],
                    "pai": self.name(d["tile"]),
                    "consumed": [self.name(t) for t in pon],
                }
            ]
        if kind == "kita":  # the three-player extension (Mortal's three-player forks)
            return [{"type": "nukidora", "actor": d["seat"], "pai": self.name(d["tile"])}]
        if kind == "dora":
            return [{"type": "dora", "dora_marker": self.name(d["indicator"])}]
        if kind == "win":
            # held until the hand's end, which says what was paid: under a loss limit
            # a payer pays less than the hands are worth
            source = d["source"] if d["source"] is not None else d["seat"]
            self.wins.append(
                {
                    "type": "hora",
                    "actor": d["seat"],
                    "target": source,
                    "deltas": list(d["result"]["deltas"]),
                    "ura_markers": [self.name(t) for t in d["ura"]],
                }
            )
            return []
        if kind == "ryuukyoku":
            return [{"type": "ryukyoku", "deltas": list(d["deltas"])}]
        if kind == "end_hand":
            wins, self.wins = self.wins, []
            if wins:
                wins[-1]["deltas"] = as_paid([w["deltas"] for w in wins], d["deltas"])
            return [*wins, {"type": "end_kyoku"}]
        if kind == "end_match":
            return [{"type": "end_game"}]
        return []


def to_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
