"""tenhou.net/6 JSON: the format of most replay viewers and reviewers.

Each hand lists, per seat, the dealt tiles, the tiles taken (draws and calls)
and the tiles given (discards and own kans); the order between seats is not
stored. Writing is direct. Reading interleaves the four lists by playing the
hand forward: after a discard, a seat whose next take is a call on that tile
from that direction calls it, otherwise the next seat draws. Field meanings:
FORMATS.md section 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from riichi.formats.mjlog import RULES_KEY, LogFormatError, LogGame, LogHand, Step, as_paid, game_id
from riichi.game import Match
from riichi.scoring import Meld, MeldType
from riichi.tiles import FIVES, is_red, red_fives_set

_ABORT_NAMES = {
    "nine-terminals": "九種九牌",
    "four-riichi": "四家立直",
    "triple-ron": "三家和了",
    "four-kans": "四槓散了",
    "four-winds": "四風連打",
}
_ABORT_CODES = {
    "九種九牌": "yao9",
    "四家立直": "reach4",
    "三家和了": "ron3",
    "四槓散了": "kan4",
    "四風連打": "kaze4",
}
_LIMITS = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
    "kazoe-yakuman": "役満",
    "yakuman": "役満",
}


def red_count(red_fives: int, suit: int) -> int:
    """How many of the suit's fives are red under a rule with ``red_fives``."""
    return sum(1 for t in red_fives_set(red_fives) if (t >> 2) // 9 == suit)


def tile_code(tile: int, red_fives: int = 3) -> int:
    """Physical id to the tenhou.net/6 number (11..47, 51..53 for red fives)."""
    kind = tile >> 2
    if kind < 27:
        if kind in FIVES and is_red(tile, red_fives):
            return 51 + kind // 9
        return (kind // 9 + 1) * 10 + kind % 9 + 1
    return 41 + kind - 27


# ---------------------------------------------------------------- writing


def write_tenhou6(match: Match) -> dict[str, Any]:
    """A match as tenhou.net/6 JSON (all hands open)."""
    reds = match.rules.red_fives
    n = match.rules.players

    def code(t: int) -> int:
        return tile_code(t, reds)

    log: list[list[Any]] = []
    hand: list[Any] = []
    takes: list[list[Any]] = []
    gives: list[list[Any]] = []
    haipai: list[list[int]] = []
    dora: list[int] = []
    ura: list[int] = []
    result: list[Any] = []
    pons: dict[tuple[int, int], str] = {}
    for event in match.events:
        d, kind = event.data, event.type
        if kind == "start_hand":
            hand = [
                [(d["round_wind"] - 27) * 4 + d["dealer"], d["honba"], d["sticks"]],
                list(d["scores"]),
            ]
            takes, gives = [[] for _ in range(n)], [[] for _ in range(n)]
            haipai = [[] for _ in range(n)]
            dora, ura, result, pons = [code(d["dora"])], [], [], {}
        elif kind == "deal":
            haipai[d["seat"]] = [code(t) for t in d["hand"]]
        elif kind == "draw" and "tile" in d:
            takes[d["seat"]].append(code(d["tile"]))
        elif kind == "discard":
            given: Any = 60 if d["tsumogiri"] else code(d["tile"])
            gives[d["seat"]].append(f"r{given}" if d["riichi"] else given)
        elif kind == "call":
            seat, source, called = d["seat"], d["source"], code(d["tile"])
            rest = [code(t) for t in d["tiles"] if t != d["tile"]]
            text = _call_text(d["call"], _relative(seat, source, n), called, rest)
            takes[seat].append(text)
            if d["call"] == "pon":
                pons[(seat, d["tile"] >> 2)] = text
            if d["call"] == "kan":
                gives[seat].append(0)  # no discard before the replacement draw
        elif kind == "ankan":
            t = [code(x) for x in d["tiles"]]
            gives[d["seat"]].append(f"{t[0]}{t[1]}{t[2]}a{t[3]}")
        elif kind == "kakan":
            pon = pons.get((d["seat"], d["tile"] >> 2), f"p{code(d['tile'])}" * 1)
            gives[d["seat"]].append(pon.replace("p", f"k{code(d['tile'])}", 1))
        elif kind == "kita":  # set aside for a replacement draw, written as Tenhou does
            gives[d["seat"]].append(f"f{code(d['tile'])}")
        elif kind == "dora":
            dora.append(code(d["indicator"]))
        elif kind == "win":
            ura = [code(t) for t in d["ura"]] or ura
            r = d["result"]
            if not result:
                result = ["和了"]
            source = d["source"] if d["source"] is not None else d["seat"]
            result += [
                r["deltas"],
                [
                    d["seat"],
                    source,
                    d["seat"],
                    _points_text(r),
                    *(_yaku_text(y, r) for y in r["yaku"]),
                    *_dora_text(r),
                ],
            ]
        elif kind == "ryuukyoku":
            name = _ABORT_NAMES.get(d["kind"])
            if name is not None:
                result = [name]
            elif d["nagashi"]:
                result = ["流し満貫", list(d["deltas"])]
            else:
                result = ["流局", list(d["deltas"])]
        elif kind == "end_hand":
            if result and result[0] == "和了":
                result[-2] = as_paid(result[1::2], d["deltas"])
            if n < 4:  # three players: the fourth seat's place stays, empty (as Tenhou's)
                hand[1] = [*hand[1], 0]
                haipai.append([])
                takes.append([])
                gives.append([])
                result = [x + [0] * (4 - n) if _is_deltas(x, n) else x for x in result]
            row = [*hand, dora, ura]
            for s in range(4):
                row += [haipai[s], takes[s], gives[s]]
            row.append(result)
            log.append(row)
    out: dict[str, Any] = {
        "title": [str(match.seed), match.rules.name],
        "name": [*match.players, *[""] * (4 - n)],
        "rule": {
            "disp": match.rules.name,
            "aka": 1 if reds else 0,
            # how many red fives of each suit (tenhou.net/6's own fields)
            **{f"aka5{i + 1}": red_count(reds, i) for i in range(3)},
        },
        # ours: every rule the game was played under, for an exact replay; other
        # readers ignore the key
        RULES_KEY: match.rules.to_dict(),
        "log": log,
    }
    if match.standings is not None:
        out["sc"] = [v for x in match.standings for v in (x.score, x.points)]
        out["sc"] += [0, 0] * (4 - n)
    return out


def _relative(caller: int, source: int, n: int) -> int:
    """Where the called tile came from, as a call's text says it: 1 from the left, 2
    from across, 3 from the right (with three players, the right is the next seat)."""
    direction = (caller - source) % n
    return 3 if n == 3 and direction == 2 else direction


def _is_deltas(item: Any, n: int) -> bool:
    """Whether a result entry is a list of score changes (one per player)."""
    return isinstance(item, list) and len(item) == n and all(isinstance(x, int) for x in item)


def _call_text(kind: str, direction: int, called: int, rest: list[int]) -> str:
    """The take string of a call; ``direction`` is (caller - discarder) mod 4:
    1 from the left, 2 from across, 3 from the right, which puts the mark first,
    in the middle or last."""
    if kind == "chi":
        return f"c{called}{rest[0]}{rest[1]}"
    mark = "p" if kind == "pon" else "m"
    parts = [str(t) for t in rest]
    parts.insert({1: 0, 2: 1, 3: len(parts)}[direction], f"{mark}{called}")
    return "".join(parts)


def _points_text(r: dict[str, Any]) -> str:
    pays = sorted({p["points"] for p in r["payments"]})
    if len(r["payments"]) > 1:
        amount = "-".join(str(p) for p in pays) if len(pays) > 1 else f"{pays[0]}∀"
    else:
        amount = str(r["points"])
    limit = _LIMITS.get(r["limit"])
    if limit is not None:
        return f"{limit}{amount}点"
    return f"{r['fu']}符{r['han']}飜{amount}点"


def _yaku_text(y: dict[str, Any], r: dict[str, Any]) -> str:
    return f"{y['ja']}(役満)" if r["yakuman"] else f"{y['ja']}({y['han']}飜)"


def _dora_text(r: dict[str, Any]) -> list[str]:
    if r["yakuman"]:
        return []
    names = (("ドラ", r["dora"]), ("赤ドラ", r["aka"]), ("裏ドラ", r["ura"]))
    return [f"{name}({count}飜)" for name, count in names if count]


# ---------------------------------------------------------------- reading


def code_kind(code: int) -> tuple[int, bool]:
    """A tenhou.net/6 number to ``(kind, is_red)``."""
    if 51 <= code <= 53:
        return (code - 51) * 9 + 4, True
    if 41 <= code <= 47:
        return 27 + code - 41, False
    if 11 <= code <= 39 and code % 10:
        return (code // 10 - 1) * 9 + code % 10 - 1, False
    raise LogFormatError(f"bad tile number {code}")


def _tile_of(code: int, taken: set[int]) -> int:
    """A tenhou.net/6 number to a free physical copy (red numbers take copy 0)."""
    kind, red = code_kind(code)
    copies: tuple[int, ...] = (0,) if red else (3, 2, 1, 0) if kind in FIVES else (0, 1, 2, 3)
    for copy in copies:
        tile = kind * 4 + copy
        if tile not in taken:
            taken.add(tile)
            return tile
    raise LogFormatError(f"a fifth tile {code}")


def _codes(text: str) -> list[int]:
    digits = "".join(ch for ch in text if ch.isdigit())
    return [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]


def read_tenhou6(path: str | Path) -> LogGame:
    path = Path(path)
    return parse_tenhou6_text(path.read_text(), str(path))


def parse_tenhou6_text(text: str, source: str = "<tenhou6>") -> LogGame:
    """A tenhou.net/6 log from its text: one JSON object, or JSON Lines of one-hand
    objects."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        # JSON Lines: one kyoku (a whole object with a one-hand log) per line
        try:
            parts = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise LogFormatError(f"{source}: not JSON: {exc}") from None
        hands = all(isinstance(p, dict) and isinstance(p.get("log"), list) for p in parts)
        if not parts or not hands:
            raise LogFormatError(
                f'{source}: not a tenhou.net/6 log: no "log" list of hands'
            ) from None
        data = {**parts[0], "log": [k for p in parts for k in p["log"]]}
    return parse_tenhou6(data, source)


def parse_tenhou6(data: dict[str, Any], source: str = "<tenhou6>") -> LogGame:
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise LogFormatError(f'{source}: not a tenhou.net/6 log: no "log" list of hands')
    try:
        names = [str(x) for x in data.get("name", [])]
        rule = data.get("rule", {})
        aka = rule.get("aka", 0) or rule.get("aka51", 0)
        disp = str(rule.get("disp", ""))
        # a Japanese room name says 喰 when open tanyao is on and 南 for a hanchan; our
        # own files name a preset and play what they hold. Without a name, rules_for
        # tells an East game's extension from a hanchan
        japanese = any("\u3040" <= ch <= "\u9fff" for ch in disp)
        played_south = any(k[0][0] >= 4 for k in data["log"])
        south = "南" in disp if japanese else bool(disp) and played_south
        no_kuitan = japanese and "喰" not in disp
        ours = data.get(RULES_KEY)
        # three players: our rules say so, a Japanese room name starts 三, or no hand
        # deals the fourth seat a tile (Tenhou keeps its place, empty)
        n = (
            int(ours["players"])
            if isinstance(ours, dict) and isinstance(ours.get("players"), int)
            else 3
            if "三" in disp or (data["log"] and all(not k[13] for k in data["log"]))
            else 4
        )
        go = (0x08 if south else 0) | (0 if aka else 0x02) | (0x04 if no_kuitan else 0)
        go |= 0x10 if n == 3 else 0
        names = names[:n]
        hands = [
            _read_hand(k, f"{source}: hand {i}", bool(aka), n) for i, k in enumerate(data["log"])
        ]
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise LogFormatError(f"{source}: not a tenhou.net/6 log we can read: {exc}") from None
    sc = data.get("sc", [])
    # the XML's owari holds scores in hundreds; tenhou.net/6 in full points.
    # A log that does not start at East 1 is an extract: its sc is another story.
    whole = bool(hands) and hands[0].round == 0 and hands[0].honba == 0
    owari = [float(x) / 100 if i % 2 == 0 else float(x) for i, x in enumerate(sc)]
    # Mahjong Soul logs converted to this format carry a uuid ref or a ...の間 room
    ref = str(data.get("ref", ""))
    soul = "の間" in disp or bool(re.match(r"\d{6}-[0-9a-f]{8}-", ref))
    return LogGame(
        source,
        go,
        names,
        hands,
        owari=owari if whole else [],
        platform="mahjongsoul" if soul else "tenhou",
        game_id=game_id(ref) or game_id(source),
        rules=ours if isinstance(ours, dict) else None,
    )


@dataclass
class _Play:
    """The state of interleaving one hand's four lists (copied at every choice)."""

    takes: list[list[Any]]
    gives: list[list[Any]]
    held: list[list[int]]
    taken: set[int]
    pons: dict[tuple[int, int], tuple[int, ...]]
    steps: list[Step]
    last: tuple[int, int] | None = None  # (seat, tile) that others may claim
    reds: bool = True  # the game has red fives: a plain five is never copy 0
    n: int = 4  # players

    def copy(self) -> _Play:
        return _Play(
            [list(x) for x in self.takes],
            [list(x) for x in self.gives],
            [list(x) for x in self.held],
            set(self.taken),
            dict(self.pons),
            list(self.steps),
            self.last,
            self.reds,
            self.n,
        )

    def done(self) -> bool:
        return not any(self.takes) and not any(self.gives)

    def draw(self, seat: int) -> bool:
        if not self.takes[seat] or not isinstance(self.takes[seat][0], int):
            return False
        tile = _tile_of(self.takes[seat].pop(0), self.taken)
        self.held[seat].append(tile)
        self.steps.append(Step("draw", seat, tile))
        return True

    def call(self, seat: int) -> bool:
        assert self.last is not None
        meld = _call_meld(self.takes[seat].pop(0), seat, self.last, self.held, self.reds)
        self.steps.append(Step("call", seat, meld=meld))
        if meld.type is MeldType.PON:
            self.pons[(seat, meld.kind)] = meld.tiles
        if meld.type is MeldType.MINKAN:
            if not self.gives[seat] or self.gives[seat][0] != 0:
                return False
            self.gives[seat].pop(0)  # the placeholder: no discard before the replacement
            return self.draw(seat)
        return True

    def turn(self, seat: int) -> bool:
        """Own kans (each with its replacement draw), then a discard; False at the end."""
        gives = self.gives[seat]
        while gives and isinstance(gives[0], str) and any(m in gives[0] for m in "akf"):
            text = gives.pop(0)
            if text.startswith("f"):  # a North set aside (three players), then a draw
                north = _pick(self.held[seat], _codes(text)[0], reds=self.reds)
                self.steps.append(Step("kita", seat, north))
                self.last = (seat, north)  # a ron on it ends the hand here
            elif "a" in text:
                used = tuple(_pick(self.held[seat], c, reds=self.reds) for c in _codes(text))
                self.steps.append(Step("call", seat, meld=Meld(MeldType.ANKAN, used)))
            else:
                added = _pick(self.held[seat], _codes(text.split("k")[1])[0], reds=self.reds)
                pon = self.pons.get((seat, added >> 2))
                if pon is None:
                    return False
                meld = Meld(MeldType.KAKAN, (*pon, added), pon[0])
                self.steps.append(Step("call", seat, meld=meld))
                self.last = (seat, added)
            if not self.draw(seat):
                return False
        if not gives or gives[0] == 0:
            return False
        given = gives.pop(0)
        riichi = isinstance(given, str) and given.startswith("r")
        value = int(given[1:]) if riichi else int(given)
        drawn = self.steps[-1].tile if self.steps and self.steps[-1].kind == "draw" else -1
        if riichi:
            self.steps.append(Step("reach", seat, attrs={"step": "1"}))
        tile = (
            self.held[seat].pop()
            if value == 60
            else _pick(self.held[seat], value, avoid=drawn, reds=self.reds)
        )
        self.steps.append(Step("discard", seat, tile))
        self.last = (seat, tile)
        return True


def _orders(play: _Play, seat: int) -> Iterator[_Play]:
    """Every way to play the hand forward from ``seat``'s draw that uses up the lists."""
    if not play.draw(seat) or not play.turn(seat):
        if play.done():
            yield play
        return
    yield from _claims(play)


def _claims(play: _Play) -> Iterator[_Play]:
    """After a discard (or an added kan): each seat that may call it, or nobody."""
    assert play.last is not None
    discarder = play.last[0]
    callers = _callers(play.takes, play.last)
    if not callers:
        yield from _orders(play, (discarder + 1) % play.n)
        return
    for caller in [*callers, None]:
        branch = play.copy()
        try:
            if caller is None:
                yield from _orders(branch, (discarder + 1) % branch.n)
            elif branch.call(caller) and branch.turn(caller):
                yield from _claims(branch)
            elif branch.done():
                yield branch
        except LogFormatError:
            continue


def _read_hand(k: list[Any], where: str, reds: bool = True, n: int = 4) -> LogHand:
    taken: set[int] = set()
    (round_, honba, sticks), scores = k[0], k[1][:n]
    haipai = [[_tile_of(c, taken) for c in k[4 + 3 * s]] for s in range(n)]
    dealer = round_ % 4
    hand = LogHand(
        round_,
        honba,
        sticks,
        _tile_of(k[2][0], taken),
        dealer,
        list(scores),
        [sorted(h) for h in haipai],
    )
    doras = [Step("dora", tile=_tile_of(code, taken)) for code in k[2][1:]]
    play = _Play(
        takes=[list(k[5 + 3 * s]) for s in range(n)],
        gives=[list(k[6 + 3 * s]) for s in range(n)],
        held=[list(h) for h in haipai],
        taken=taken,
        pons={},
        steps=[],
        reds=reds,
        n=n,
    )
    done = next(_orders(play, dealer), None)
    if done is None:
        raise LogFormatError(f"{where}: no order of play fits the {n} seats' lists")
    hand.steps = _steps_of(done, doras, k[3], k[-1])
    return hand


def _steps_of(
    done: _Play, doras: list[Step], ura_codes: list[int], result: list[Any]
) -> list[Step]:
    steps = _place_doras(done.steps, doras)
    taken = set(done.taken)
    ura = [_tile_of(c, taken) for c in ura_codes]
    win_tile = done.last[1] if done.last is not None else -1
    if done.steps and done.steps[-1].kind == "draw":
        win_tile = done.steps[-1].tile
    return steps + _result_steps(result, ura, win_tile)


def _place_doras(steps: list[Step], doras: list[Step]) -> list[Step]:
    """Kan dora indicators go after each kan, in order."""
    out: list[Step] = []
    queue = list(doras)
    for step in steps:
        out.append(step)
        if queue and step.kind == "call" and step.meld is not None and step.meld.is_kan:
            out.append(queue.pop(0))
    return out + queue


def _pick(hand: list[int], code: int, avoid: int = -1, reds: bool = True) -> int:
    """Take the copy of ``code`` from ``hand``; plain fives never take the red copy
    (copy 0) where the game has red fives.

    ``avoid`` (the tile just drawn) is taken last: a discard written as a tile
    number rather than 60 came from the hand, not from the draw.
    """
    kind, red = code_kind(code)
    for tile in sorted(hand, key=lambda t: (t != avoid, t), reverse=True):
        if tile >> 2 == kind and (kind not in FIVES or not reds or (tile % 4 == 0) == red):
            hand.remove(tile)
            return tile
    raise LogFormatError(f"tile {code} is not in the hand")


def _callers(takes: list[list[Any]], last: tuple[int, int]) -> list[int]:
    """Seats whose next take can call the last tile: pon and kan first, then chi."""
    seat, tile = last
    big, small = [], []
    for other in range(len(takes)):
        if other == seat or not takes[other] or not isinstance(takes[other][0], str):
            continue
        text = takes[other][0]
        direction = _relative(other, seat, len(takes))  # 1: the discarder is on the left
        mark = next(ch for ch in text if ch.isalpha())
        if code_kind(_codes(text.split(mark)[1])[0])[0] != tile >> 2:
            continue
        if mark == "c":
            if direction == 1:
                small.append(other)
        else:
            position = text.index(mark)
            if {0: 1, 2: 2}.get(position, 3) == direction:
                big.append(other)
    return big + small


def _call_meld(
    text: str, seat: int, last: tuple[int, int] | None, held: list[list[int]], reds: bool
) -> Meld:
    assert last is not None
    source, tile = last
    mark = next(ch for ch in text if ch.isalpha())
    codes = _codes(text.replace(mark, ""))
    called_index = len(_codes(text.split(mark)[0]))
    own = codes[:called_index] + codes[called_index + 1 :]
    used = tuple(_pick(held[seat], c, reds=reds) for c in own)
    kind = {"c": MeldType.CHI, "p": MeldType.PON, "m": MeldType.MINKAN}[mark]
    return Meld(kind, tuple(sorted((*used, tile))), tile, source)


def _result_steps(result: list[Any], ura: list[int], tile: int) -> list[Step]:
    head = result[0]
    if head == "和了":
        steps = []
        for i in range(1, len(result), 2):
            who, source = result[i + 1][0], result[i + 1][1]
            attrs = {
                "who": str(who),
                "fromWho": str(source),
                "machi": str(tile),
                "deltas": list(result[i]),
                "ura": ura,
            }
            steps.append(Step("agari", who, attrs=attrs))
        return steps
    if head in _ABORT_CODES:
        return [Step("ryuukyoku", attrs={"type": _ABORT_CODES[head], "deltas": None})]
    deltas = result[1] if len(result) > 1 else None
    return [Step("ryuukyoku", attrs={"type": "?", "deltas": deltas})]
