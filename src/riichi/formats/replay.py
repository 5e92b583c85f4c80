"""Replay real logs through the engine and compare every result with the log.

The wall of each hand is rebuilt from the log (dealt hands, draws in order,
replacement draws, dora and ura indicators; tiles the log never shows fill
the rest), the engine is driven with the logged decisions, and each logged
decision must be among the engine's legal actions at that moment. Every
hand's result (winners, yaku and han, fu, points, each seat's change, draw
kind) must equal the log's, and so must the final scores and points.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from riichi.errors import RiichiError
from riichi.formats.mjlog import LogFormatError, LogGame, LogHand, Step, read_mjlog
from riichi.game import (
    Action,
    ActionType,
    IllegalActionError,
    Match,
    MatchStart,
    Phase,
    Replayed,
    Wall,
    replay_record,
)
from riichi.game.wall import KITA_RINSHAN_TILES, MAX_INDICATORS, RINSHAN_TILES, tile_set
from riichi.rules import Length, RuleSet, find_ruleset
from riichi.scoring import MeldType, ScoreResult

_CALLS = {
    MeldType.CHI: ActionType.CHI,
    MeldType.PON: ActionType.PON,
    MeldType.MINKAN: ActionType.KAN,
}
_ABORTS = {
    "yao9": "nine-terminals",
    "reach4": "four-riichi",
    "ron3": "triple-ron",
    "kan4": "four-kans",
    "kaze4": "four-winds",
}


class UnsupportedLogError(RiichiError):
    """A log whose rules no preset of ours claims (chip or ratio lobbies, Tenhou sanma)."""


@dataclass
class Mismatch:
    source: str
    hand: int  # index in the log
    what: str

    def __str__(self) -> str:
        return f"{self.source}: hand {self.hand}: {self.what}"


@dataclass
class Report:
    source: str
    hands: int = 0
    matched: int = 0
    incomplete: int = 0  # a log cut off inside its last hand
    seeded_walls: bool = False  # the walls came from Tenhou's shuffle seed
    read_errors: list[str] = field(default_factory=list)  # skipped by a lenient read
    mismatches: list[Mismatch] = field(default_factory=list)
    # where the log disagrees with itself (a result its next hand's scores deny) and the
    # engine agrees with the scores: said, not counted as a mismatch
    contradictions: list[Mismatch] = field(default_factory=list)
    final_ok: bool | None = None


def rules_for(game: LogGame) -> RuleSet:
    """The RuleSet a game was played under: the one it carries (our own downloads),
    or a Tenhou game's from its GO type flags."""
    if game.rules is not None:
        try:
            return RuleSet.from_dict(game.rules)
        except ValueError as exc:
            raise LogFormatError(f"{game.source}: its rules: {exc}") from None
    t = game.go_type
    if t & ~0xFF:
        raise UnsupportedLogError(f"{game.source}: lobby rules (GO={t}: chips or ratio)")
    three = bool(t & 0x10)
    mahjong_soul = game.platform == "mahjongsoul"
    rules = find_ruleset("mahjongsoul" if mahjong_soul else "tenhou-sanma" if three else "tenhou")
    first = game.hands[0]
    start = [rules.start_points] * rules.players
    if first.round == 0 and first.honba == 0 and first.scores not in ([], start):
        raise UnsupportedLogError(
            f"{game.source}: lobby {game.lobby} starts at {first.scores[0]} points"
        )
    south = _south(game, rules.extension_target or rules.return_points)
    length = Length.SOUTH if south else Length.EAST
    rules = rules.replace(
        red_fives=0 if t & 0x02 else 3,
        kuitan=not t & 0x04,
        length=length,
        lengths=(length,),
        # older logs show final points rounded to whole thousands, newer ones to 0.1
        round_final_points=not mahjong_soul
        and bool(game.owari)
        and all(float(p).is_integer() for p in game.owari[1::2]),
    )
    if not south and not mahjong_soul and not three:
        rules = rules.replace(uma=_east_uma(game, rules))
    stop = _tenpai_yame(game, rules)
    if stop is not None:
        rules = rules.replace(tenpai_yame=stop)
    return rules


def _south(game: LogGame, goal: int) -> bool:
    """A hanchan or an East game, by the best evidence the log has.

    The log id's game type says it, where the log keeps its id. Else the GO
    flags do, but some archived logs lost the hanchan bit: an East game plays
    a South hand only as its extension, which ends once someone has reached
    the goal at a hand the dealer does not repeat. A log that goes on past
    such a hand is a hanchan whatever its flags say.
    """
    found = re.match(r"\d{10}gm-([0-9a-f]{4})-", game.game_id)
    if found:
        return bool(int(found.group(1), 16) & 0x08)
    if game.go_type & 0x08:
        return True
    return any(
        later.round >= 4
        and later.dealer != earlier.dealer
        and bool(later.scores)
        and max(later.scores) >= goal
        for earlier, later in zip(game.hands, game.hands[1:], strict=False)
    )


def _tenpai_yame(game: LogGame, rules: RuleSet) -> bool | None:
    """Whether the game stops when the last dealer is tenpai at a draw and on top: the log
    says, where that happened in it. Tenhou's rule changed: games of 2009 play on, later
    ones (a Phoenix game of 2022) stop, as the agari-yame after a dealer win does."""
    n = rules.players
    rounds = 2 if rules.length is Length.SOUTH else 1
    last = 4 * (rounds - 1) + n - 1  # Tenhou's round index of the last hand
    goal = rules.extension_target or rules.return_points
    for index, hand in enumerate(game.hands):
        if hand.round < last or not hand.scores:
            continue
        ends = [s for s in hand.steps if s.kind in ("agari", "ryuukyoku")]
        if not ends or ends[-1].kind != "ryuukyoku" or ends[-1].attrs.get("type"):
            continue
        draw = ends[-1].attrs
        deltas = _deltas(draw, n)
        if f"hai{hand.dealer}" not in draw or deltas is None:
            continue  # the dealer was not tenpai: the deal passes anyway
        scores = [s + d for s, d in zip(hand.scores, deltas, strict=True)]
        top = min(range(n), key=lambda s: (-scores[s], s))
        if top != hand.dealer or scores[top] < goal:
            continue
        if "owari" in draw:
            return True
        if index + 1 < len(game.hands):
            return False
    return None


def _east_uma(game: LogGame, rules: RuleSet) -> tuple[int, ...]:
    """Tenhou's east-only uma changed over the years (10/5, later 20/10): the result says."""
    modern, older = rules.uma, (10000, 5000, -5000, -10000)
    if not game.owari:
        return modern
    n = rules.players
    scores = [game.owari[2 * s] * 100 for s in range(n)]
    points = [game.owari[2 * s + 1] for s in range(n)]
    last = min(range(n), key=lambda s: (scores[s], -s))
    base = (scores[last] - rules.return_points) / 1000
    best = min((modern, older), key=lambda uma: abs(base + uma[-1] / 1000 - points[last]))
    return best


def wall_for(hand: LogHand, players: int = 4, replacements: int = RINSHAN_TILES) -> Wall:
    """The hand's wall as far as the log shows it; unseen tiles fill the rest."""
    draws: list[int] = []
    rinshan: list[int] = []
    dora = [hand.dora]
    ura: list[int] = []
    after_kan = False
    for step in hand.steps:
        if step.kind == "draw":
            (rinshan if after_kan else draws).append(step.tile)
            after_kan = False
        elif step.kind == "kita" or (
            step.kind == "call" and step.meld is not None and step.meld.is_kan
        ):
            after_kan = True
        elif step.kind == "dora":
            dora.append(step.tile)
        elif step.kind == "agari" and step.attrs.get("doraHaiUra"):
            ura = [int(x) for x in step.attrs["doraHaiUra"].split(",")]
        elif step.kind == "agari" and step.attrs.get("ura"):
            ura = list(step.attrs["ura"])
    dealt = [t for h in hand.haipai for t in h]
    seen = set(dealt) | set(draws) | set(rinshan) | set(dora) | set(ura)
    spare = [t for t in tile_set(players) if t not in seen]
    live = len(tile_set(players)) - 14 - 13 * players
    if replacements > RINSHAN_TILES:
        # the live wall's last four places are also the fourth and fifth indicator
        # pairs (Wall.tail): each holds the tile drawn there, or the one shown there
        kept = live - 4
        for j, (slots, index) in enumerate(((dora, 4), (ura, 4), (dora, 3), (ura, 3))):
            if kept + j < len(draws):
                tile = draws[kept + j]
            elif index < len(slots):
                continue
            else:
                tile = spare.pop()
            slots += [-1] * (index + 1 - len(slots))
            slots[index] = tile
        del draws[kept:]
        live = kept
    # a kan takes a tile from the end of the live wall for the dead wall
    draws += [spare.pop() for _ in range(live - len(draws))]
    rinshan += [spare.pop() for _ in range(replacements - len(rinshan))]
    dora += [spare.pop() for _ in range(MAX_INDICATORS - len(dora))]
    ura += [spare.pop() for _ in range(MAX_INDICATORS - len(ura))]
    dora = [spare.pop() if t < 0 else t for t in dora]
    ura = [spare.pop() if t < 0 else t for t in ura]
    hands = [hand.haipai[(hand.dealer + i) % players] for i in range(players)]
    wall = Wall(hands, draws, rinshan, dora, ura, players)
    wall.check()
    return wall


def replay_game(game: LogGame) -> Report:
    return replay_to_match(game)[0]


def replay_to_match(game: LogGame) -> tuple[Report, Match]:
    """Replay a log; return the report and the engine's match (for conversion)."""
    rules = rules_for(game)
    n = rules.players
    replacements = KITA_RINSHAN_TILES if rules.kita else RINSHAN_TILES
    walls = [wall_for(h, n, replacements) for h in game.hands]
    report = Report(game.source, read_errors=list(game.errors))
    if game.shuffle.startswith("mt19937ar-sha512-n288-base64,"):
        # Tenhou's own walls from the seed: every tile in place, not only the
        # ones the log shows, so each logged draw checks our wall layout
        from riichi.formats.tenhou_wall import tenhou_walls, wall_from_tenhou

        shuffled = tenhou_walls(game.shuffle, len(game.hands), n)
        walls = [
            wall_from_tenhou(w, h.dealer, n) for w, h in zip(shuffled, game.hands, strict=True)
        ]
        report.seeded_walls = True
    first = game.hands[0]
    # a log may hold only part of a game: start where its first hand starts
    start = MatchStart(
        scores=tuple(first.scores) if first.scores else (rules.start_points,) * n,
        round_index=first.round // 4,  # Tenhou numbers rounds by four, whatever the players
        dealer=first.dealer,
        honba=first.honba,
        sticks=first.sticks,
    )
    match = Match(rules, game.source, game.players or None, walls=walls, start=start)
    for index, hand in enumerate(game.hands):
        if index == len(game.hands) - 1 and not any(
            s.kind in ("agari", "ryuukyoku") for s in hand.steps
        ):
            report.incomplete += 1
            return report, match
        report.hands += 1
        after = game.hands[index + 1].scores if index + 1 < len(game.hands) else None
        settle = _Settle(game.source, index, after, report.contradictions)
        problem = _replay_hand(match, hand, index, n, settle)
        if problem is None:
            report.matched += 1
            continue
        report.mismatches.append(Mismatch(game.source, index, problem))
        return report, match  # later hands start from a state that already differs
    if game.owari:
        report.final_ok = _check_final(match, game, report)
    return report, match


@dataclass
class _Settle:
    """Checks a hand's score changes against the log's, knowing the next hand's scores."""

    source: str
    hand: int
    after: list[int] | None  # the next hand's scores in the log, if there is one
    contradictions: list[Mismatch]

    def check(self, match: Match, what: str, logged: list[int]) -> str | None:
        ours = list(match.results[-1].deltas)
        if ours == logged:
            return None
        problem = f"{what}: engine {ours}, log {logged}"
        if not self.after:
            return problem
        # the scores right after the hand, as the engine has them and as the log's own
        # changes would make them (sticks and riichi payments are the same in both)
        scores = list(match.scores)
        claimed = [s - o + d for s, o, d in zip(scores, ours, logged, strict=True)]
        if claimed == self.after or scores != self.after:
            return problem
        self.contradictions.append(
            Mismatch(
                self.source,
                self.hand,
                f"{problem}; the log's next hand starts at {self.after}, as the engine has it:"
                " the log contradicts itself",
            )
        )
        return None


def _replay_hand(match: Match, hand: LogHand, index: int, n: int, settle: _Settle) -> str | None:
    k = match.kyoku
    # some logs do not give the scores at the start of a hand
    start = (k.dealer, k.honba, k.sticks, list(match.scores) if hand.scores else [])
    logged = (hand.dealer, hand.honba, hand.sticks, hand.scores)
    if start != logged:
        return f"hand starts as (dealer, honba, sticks, scores) {start}, log says {logged}"
    results_before = len(match.results)
    riichi_next: set[int] = set()
    steps = hand.steps
    i = 0
    try:
        while i < len(steps):
            step = steps[i]
            if step.kind == "draw":
                _pass_all(match)
                if match.kyoku.drawn != step.tile or match.kyoku.current != step.seat:
                    return (
                        f"step {i}: log draws {step.tile} for seat {step.seat}, engine has"
                        f" {match.kyoku.drawn} for seat {match.kyoku.current}"
                    )
            elif step.kind == "discard":
                kind = ActionType.RIICHI if step.seat in riichi_next else ActionType.DISCARD
                riichi_next.discard(step.seat)
                match.apply(step.seat, Action(kind, step.tile))
            elif step.kind == "reach" and step.attrs.get("step") == "1":
                riichi_next.add(step.seat)
            elif step.kind == "call":
                _apply_call(match, step)
            elif step.kind == "kita":
                _pass_all(match)
                match.apply(step.seat, Action(ActionType.KITA, step.tile))
            elif step.kind == "agari":
                j = i
                while j < len(steps) and steps[j].kind == "agari":
                    j += 1
                problem = _apply_wins(match, steps[i:j])
                if problem:
                    return f"step {i}: {problem}"
                return _compare_wins(match, steps[i:j], results_before, settle)
            elif step.kind == "ryuukyoku":
                return _apply_draw(match, step, results_before, settle)
            i += 1
    except IllegalActionError as exc:
        return f"step {i} ({steps[i].kind} seat {steps[i].seat}): not legal here: {exc}"
    return "the log ends the hand without a result"


def _pass_all(match: Match, keep: set[int] | None = None) -> None:
    if match.kyoku.phase is not Phase.RESPONSE:
        return
    for seat in list(match.legal_actions()):
        if keep is None or seat not in keep:
            match.apply(seat, Action(ActionType.PASS))


def _apply_call(match: Match, step: Step) -> None:
    meld = step.meld
    assert meld is not None
    if meld.type is MeldType.ANKAN:
        _pass_all(match)
        tiles = tuple(sorted(meld.tiles))
        match.apply(step.seat, Action(ActionType.ANKAN, tiles[0], tiles))
    elif meld.type is MeldType.KAKAN:
        _pass_all(match)
        added = next(t for t in meld.tiles if t not in _pon_tiles(match, step.seat, meld.kind))
        match.apply(step.seat, Action(ActionType.KAKAN, added))
    else:
        called = meld.called
        assert called is not None
        used = tuple(sorted(t for t in meld.tiles if t != called))
        for seat in list(match.legal_actions()):
            if seat != step.seat:
                match.apply(seat, Action(ActionType.PASS))
        match.apply(step.seat, Action(_CALLS[meld.type], called, used))


def _pon_tiles(match: Match, seat: int, kind: int) -> tuple[int, ...]:
    for m in match.kyoku.seats[seat].melds:
        if m.type is MeldType.PON and m.kind == kind:
            return m.tiles
    return ()


def _apply_wins(match: Match, wins: list[Step]) -> str | None:
    first = wins[0]
    if first.attrs["who"] == first.attrs["fromWho"]:
        seat = int(first.attrs["who"])
        tile = int(first.attrs["machi"])
        _pass_all(match)
        match.apply(seat, Action(ActionType.TSUMO, tile))
        return None
    winners = {int(w.attrs["who"]) for w in wins}
    tile = int(first.attrs["machi"])
    for seat in list(match.legal_actions()):
        action = Action(ActionType.RON, tile) if seat in winners else Action(ActionType.PASS)
        match.apply(seat, action)
    missing = winners - {o for o, _, _ in (match.results[-1].wins if match.results else [])}
    if missing:
        return f"seats {sorted(missing)} won in the log but were never offered ron"
    return None


def _yaku_of(result: ScoreResult) -> set[tuple[int, int]]:
    out = {(y.yaku.id, y.han) for y in result.yaku}
    if not result.yakuman:
        out |= {(52, result.dora), (54, result.aka), (53, result.ura)}
    return {(i, h) for i, h in out if h or result.yakuman}


def _logged_yaku(attrs: dict[str, Any]) -> set[tuple[int, int]]:
    if "yakuman" in attrs:
        return {(int(x), 1) for x in attrs["yakuman"].split(",")}
    values = [int(x) for x in attrs.get("yaku", "").split(",") if x]
    return {(values[i], values[i + 1]) for i in range(0, len(values), 2) if values[i + 1]}


def _deltas(attrs: dict[str, Any], players: int) -> list[int] | None:
    """Score changes of a result: Tenhou's ``sc`` (in hundreds) or mjai's ``deltas``."""
    if "sc" in attrs:
        sc = [int(x) for x in attrs["sc"].split(",")]
        return [sc[i] * 100 for i in range(1, len(sc), 2)][:players]
    deltas = attrs.get("deltas")
    return list(deltas)[:players] if deltas is not None else None


def _compare_wins(
    match: Match, wins: list[Step], results_before: int, settle: _Settle
) -> str | None:
    if len(match.results) != results_before + 1:
        return "the engine did not end the hand on the logged win"
    result = match.results[-1]
    ours = {o: r for o, _, r in result.wins}
    total: list[int] | None = [0] * match.rules.players
    for w in wins:
        a = w.attrs
        seat = int(a["who"])
        if seat not in ours:
            return f"seat {seat} wins in the log, not in the engine"
        deltas = _deltas(a, match.rules.players)
        if deltas is None:
            total = None
        elif total is not None:
            total = [x + d for x, d in zip(total, deltas, strict=True)]
        if "ten" not in a:  # mjai: the score changes are all the log has
            continue
        r = ours[seat]
        fu, points, _limit = (int(x) for x in a["ten"].split(","))
        yakuman = "yakuman" in a
        logged = _logged_yaku(a)
        mine = _yaku_of(r)
        if mine != logged:
            return f"seat {seat} yaku: engine {sorted(mine)}, log {sorted(logged)}"
        if r.points != points:
            return f"seat {seat} points: engine {r.points}, log {points}"
        if not yakuman and r.fu != fu:
            return f"seat {seat} fu: engine {r.fu}, log {fu}"
    if total is not None:
        return settle.check(match, "deltas", total)
    return None


def _apply_draw(match: Match, step: Step, results_before: int, settle: _Settle) -> str | None:
    kind = step.attrs.get("type")
    if kind == "yao9":
        _pass_all(match)
        match.apply(match.kyoku.current, Action(ActionType.KYUUSHU))
    elif kind == "ron3":
        for seat in list(match.legal_actions()):
            match.apply(seat, Action(ActionType.RON, match.kyoku.claim_tile))
    else:
        _pass_all(match)
    if len(match.results) != results_before + 1:
        return f"the log draws the hand ({kind or 'exhaustive'}); the engine goes on"
    result = match.results[-1]
    expected = _ABORTS.get(kind or "")
    if expected is not None:
        if result.abort != expected:
            return f"draw kind: engine {result.abort or result.kind}, log {kind}"
    elif kind != "?" and result.kind != "exhaustive":  # "?": the log does not say
        return f"draw kind: engine {result.abort or result.kind}, log exhaustive"
    logged = _deltas(step.attrs, match.rules.players)
    if logged is not None:
        return settle.check(match, "draw deltas", logged)
    return None


def _check_final(match: Match, game: LogGame, report: Report) -> bool:
    if not match.over or match.standings is None:
        report.mismatches.append(
            Mismatch(game.source, len(game.hands), "the engine's match goes on")
        )
        return False
    owari = game.owari
    scores = [int(owari[2 * s]) * 100 for s in range(match.rules.players)]
    points = [owari[2 * s + 1] for s in range(match.rules.players)]
    ours_scores = [x.score for x in match.standings]
    ours_points = [x.points for x in match.standings]
    if ours_scores != scores or any(
        abs(a - b) > 0.05 for a, b in zip(ours_points, points, strict=True)
    ):
        report.mismatches.append(
            Mismatch(
                game.source,
                len(game.hands),
                f"final: engine {ours_scores} {ours_points}, log {scores} {points}",
            )
        )
        return False
    return True


def read_log(path: str | Path, lenient: bool = False) -> LogGame:
    """A Tenhou XML, tenhou.net/6 or mjai log, by its name."""
    name = str(path)
    if name.endswith((".mjson", ".jsonl")):
        from riichi.formats.mjai import read_mjai

        return read_mjai(path, lenient)
    if name.endswith(".json"):
        from riichi.formats.tenhou6 import read_tenhou6

        return read_tenhou6(path)
    return read_mjlog(path, lenient)


def _json_file(path: str | Path) -> Any:
    """A ``.json`` file's content, read once for every reader of it; None when it is
    not one JSON document (the format's own reader then says what is wrong)."""
    if not str(path).endswith(".json"):
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _is_own_record(data: Any) -> bool:
    """Our own record (``Match.record()``, as ``selfplay --out`` and the server's
    downloads write it)."""
    return isinstance(data, dict) and {"version", "rules", "actions"} <= data.keys()


def replay_own(path: str | Path, record: dict[str, Any]) -> Report:
    """Our own record replayed: its actions on its walls must give its events, hand
    by hand, and its standings."""
    return _own_report(str(path), replay_record(record))


def _own_report(source: str, replayed: Replayed) -> Report:
    report = Report(source)
    if replayed.match is None:
        report.mismatches.append(Mismatch(source, -1, f"does not replay: {replayed.error}"))
        return report
    events = replayed.match.events
    starts = [i for i, e in enumerate(events) if e.to_dict()["type"] == "start_hand"]
    report.hands = len(starts)
    if replayed.differs_at is None:
        report.matched = report.hands
    else:
        hand = max(0, sum(1 for i in starts if i <= replayed.differs_at) - 1)
        report.matched = hand
        what = f"event {replayed.differs_at} differs from the record's"
        report.mismatches.append(Mismatch(source, hand, what))
    report.final_ok = replayed.standings_ok
    if not replayed.standings_ok and replayed.differs_at is None:
        report.mismatches.append(
            Mismatch(source, report.hands, "final: the standings differ from the record's")
        )
    return report


def load_match(raw: bytes, source: str = "<log>", lenient: bool = False) -> tuple[Report, Match]:
    """Any log we read, from its bytes (untrusted: a bad one raises `LogFormatError`
    and nothing else happens), replayed into a match: Tenhou XML (plain or gzip),
    tenhou.net/6 JSON, mjai JSON Lines or our own record, told apart by their
    content. The report says where the replay left the log, if it did."""
    from riichi.formats.mjai import parse_mjai_text
    from riichi.formats.mjlog import gunzip, parse_mjlog_bytes
    from riichi.formats.tenhou6 import parse_tenhou6, parse_tenhou6_text

    raw = gunzip(raw, source)
    if raw.lstrip()[:1] == b"<":
        game = parse_mjlog_bytes(raw, source, lenient)
        return replay_to_match(game)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{source}: not UTF-8 text: {exc}") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        data = None
    if _is_own_record(data):
        replayed = replay_record(data)
        if replayed.match is None:
            raise LogFormatError(f"{source}: our record does not replay: {replayed.error}")
        return _own_report(source, replayed), replayed.match
    if isinstance(data, dict) and "log" in data:
        return replay_to_match(parse_tenhou6(data, source))
    first = next((line for line in text.splitlines() if line.strip()), "")
    if '"log"' in first:  # tenhou.net/6 JSON Lines, a hand a line
        return replay_to_match(parse_tenhou6_text(text, source))
    if '"type"' in first:
        return replay_to_match(parse_mjai_text(text, source, lenient))
    raise LogFormatError(
        f"{source}: not a log we read (Tenhou XML, tenhou.net/6 JSON, mjai JSON Lines,"
        " or our own record)"
    )


def replay_path(path: str | Path, lenient: bool = False) -> Report:
    data = _json_file(path)
    if _is_own_record(data):
        return replay_own(path, data)
    try:
        if isinstance(data, dict):  # tenhou.net/6, already read
            from riichi.formats.tenhou6 import parse_tenhou6

            return replay_game(parse_tenhou6(data, str(path)))
        return replay_game(read_log(path, lenient))
    except (LogFormatError, UnsupportedLogError):
        raise
    except RiichiError as exc:
        report = Report(str(path))
        report.mismatches.append(Mismatch(str(path), -1, str(exc)))
        return report
