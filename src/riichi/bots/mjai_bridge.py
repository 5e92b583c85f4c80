"""Outside bots at our tables: a subprocess speaking mjai over stdin and stdout.

The protocol is Mortal's (FORMATS.md section 3): the bot reads one event per
line and writes one reaction line only when it can act. A bot that times out,
crashes or answers with something illegal gets a safe default (discard the
drawn tile, or pass) and a logged warning; the match goes on.

Answers are matched to questions by what the bot writes, never by how fast it
writes it. Some bots answer every event (gimite's protocol: ``none`` where they
cannot act), others only the questions (Mortal's): a bot shows which it is by
writing ``none`` where ``none`` cannot answer (its own turn), or by answers
that came unasked; until then it is taken at its word. Lines a bot owes (an
every-event bot's ``none`` to each event that was not a question, a late
answer to a question that timed out) are read and set aside before its next
answer, and a line that could only answer an earlier event (``none`` on its own
turn, a discard when asked about another's tile) is dropped wherever it comes.
The events go out in the reference mjai server's order: the bot's own ``reach``
once (echoed when it declares, not again before its discard), and a kan's new
indicator before the kan player's discard.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import Any

from riichi.bots.agent import BOT_LABEL
from riichi.formats.mjai import MjaiStream
from riichi.game import Action, ActionType, Event, Observation
from riichi.rules import RuleSet
from riichi.tiles import mjai_name, parse_mjai

log = logging.getLogger(__name__)

_CALL_TYPES = {"chi": ActionType.CHI, "pon": ActionType.PON, "daiminkan": ActionType.KAN}
# what a bot answers on its own turn (draw or call), never about another's tile
_TURN_ANSWERS = {"dahai", "reach", "ankan", "kakan", "ryukyoku"}


class MjaiProcessBot:
    """An outside bot run as ``command``, one per seat, with a time limit per answer."""

    def __init__(self, command: Sequence[str], timeout: float = 2.0, label: str = "mjai") -> None:
        self.command = list(command)
        self.timeout = timeout
        self.name = f"{label} {BOT_LABEL}"
        self.warnings: list[str] = []
        self.stream: MjaiStream | None = None
        self.pending: list[dict[str, Any]] = []
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.late = 0  # questions that timed out: their answers may still come
        self.nones = 0  # events sent that were not questions (an every-event bot's nones)
        self.echoed_reach = False  # the bot's reach was sent back already
        self.last_sent: dict[str, Any] | None = None
        # gimite-style bots answer every event (none where they cannot act); Mortal-
        # style ones only the events marked can_act. None: not shown yet.
        self.answers_every: bool | None = None
        self.kan_by: int | None = None  # who called the open kan whose indicator is due
        self.ignored = 0  # lines the bot wrote unasked, thrown away
        # what the bot's last answer said beside its choice (Mortal: its q values)
        self.last_meta: dict[str, Any] | None = None

    # -------------------------------------------------------------- lifecycle

    def start_match(self, rules: RuleSet, players: Sequence[str], seat: int) -> None:
        self.stream = MjaiStream(rules, players, seat)
        self.process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)  # the bot's output ended (it exited or crashed)

    def end_match(self) -> None:
        self._flush()
        self.close()

    def close(self) -> None:
        if self.process is not None:
            if self.process.stdin is not None and not self.process.stdin.closed:
                with contextlib.suppress(OSError):
                    self.process.stdin.close()
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def on_events(self, events: Sequence[Event]) -> None:
        """New events this seat may see; sent before the bot's next decision."""
        assert self.stream is not None
        for event in events:
            for message in self.stream.feed(event):
                if (
                    message["type"] == "reach"
                    and message.get("actor") == self.stream.viewer
                    and self.echoed_reach
                ):
                    self.echoed_reach = False  # the bot saw its reach when it declared
                    continue
                kind = message["type"]
                if kind in ("daiminkan", "kakan"):
                    self.kan_by = message.get("actor")
                elif kind == "dora" and self.kan_by is not None:
                    self.kan_by = None
                    last = self.pending[-1] if self.pending else None
                    if last is not None and last["type"] == "dahai":
                        # the reference server shows a kan's indicator before the kan
                        # player's discard; ours reveals it after (the same tile)
                        self.pending.insert(len(self.pending) - 1, message)
                        continue
                elif kind in ("start_kyoku", "hora", "ryukyoku"):
                    self.kan_by = None
                self.pending.append(message)

    # -------------------------------------------------------------- acting

    def _send(self, message: dict[str, Any]) -> bool:
        if self.process is None or self.process.stdin is None or self.process.poll() is not None:
            return False
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            self.last_sent = message
            return True
        except OSError:
            return False

    def _drain(self) -> None:
        """Read what the bot wrote while no question was open: lines it owed (an
        every-event bot's nones, late answers) and lines nobody asked for."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:  # the end of its output stays for the next reader
                self.lines.put(None)
                return
            if self.answers_every is None and not self.late and _says_none(line):
                self.answers_every = True  # it answers what it was not asked
            self._owed(line)

    def _owed(self, line: str) -> None:
        """Set aside a line that answers no open question."""
        if self.answers_every and self.nones:
            self.nones -= 1
        elif self.late:
            self.late -= 1
        else:
            self.ignored += 1
            log.debug("%s: wrote %r unasked; ignored", self.name, line.strip()[:60])

    def _flush(self, deciding: bool = False) -> None:
        # can_act tells the bot which event it must answer: only the last one
        # before a decision (Mortal's convention; the others say false). A bot that
        # answers every event owes a line for each of the others.
        for i, message in enumerate(self.pending):
            last = deciding and i == len(self.pending) - 1
            if self._send({**message, "can_act": last}) and not last:
                self.nones += 1
        self.pending.clear()

    def _answer(self, deadline: float) -> tuple[str | None, dict[str, Any] | None]:
        """The bot's next line by ``deadline`` and what it says (None: no line, or
        not a JSON object; warned)."""
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._warn("timed out")
            self.late += 1  # its answer may come later: it is not the next one's
            return None, None
        if line is None:
            self._warn("stopped (exited or crashed)")
            self.lines.put(None)
            return None, None
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            self._warn(f"answered with something not JSON: {line.strip()[:80]!r}")
            return line, None
        return line, answer if isinstance(answer, dict) else None

    def _warn(self, what: str) -> None:
        text = f"{self.name}: {what}; playing the safe default"
        self.warnings.append(text)
        log.warning(text)

    def _note(self, what: str) -> None:
        text = f"{self.name}: {what}"
        self.warnings.append(text)
        log.info(text)

    def _ask(self, observation: Observation) -> tuple[dict[str, Any] | None, Action | None]:
        """The bot's answer to the question just sent, and the legal action it names:
        lines it owes are set aside first, and lines that can only answer an earlier
        event are dropped, within one time limit."""
        deadline = time.monotonic() + self.timeout
        own_turn = not any(a.type is ActionType.PASS for a in observation.legal)
        while True:
            line, answer = self._answer(deadline)
            if line is None or answer is None:
                return None, None
            if self.answers_every and self.nones:
                self.nones -= 1  # a none it owed for an earlier event
                continue
            kind = answer.get("type")
            action = self._to_action(observation, answer)
            if action is None and kind != "reach":
                if self.answers_every is None and kind == "none" and own_turn:
                    # none cannot answer its own turn: it answers every event; this
                    # one was for the first event it was sent
                    self.answers_every = True
                    self.nones = max(0, self.nones - 1)
                    continue
                earlier = (kind == "none") if own_turn else kind in _TURN_ANSWERS
                if self.late or earlier:
                    self._owed(line)  # a late answer, or one that fits an earlier event
                    self._note(f"answered {json.dumps(answer)[:60]} for an earlier event; ignored")
                    continue
                return answer, None
            if self.answers_every is None and kind != "none":
                self.answers_every = False  # it answered a question, and only that
                self.nones = 0
            return answer, action

    def act(self, observation: Observation) -> Action:
        self._drain()
        if self.pending:
            self._flush(deciding=True)
        elif self.last_sent is not None:
            # nothing new happened: the same event again, now as the question (an
            # event type the bot knows, never an invented one)
            self._send({**self.last_sent, "can_act": True})
        answer, action = self._ask(observation)
        meta = answer.get("meta") if answer is not None else None
        self.last_meta = meta if isinstance(meta, dict) else None
        if action is None and answer is not None and answer.get("type") == "reach":
            if not any(a.type is ActionType.RIICHI for a in observation.legal):
                self._warn("declared riichi, which is not legal now")
                return safe_default(observation)
            # the declaration is sent back; the discard that goes with it comes next
            assert observation.seat is not None
            self._send({"type": "reach", "actor": observation.seat, "can_act": True})
            self.echoed_reach = True
            follow, _ = self._ask(observation)
            if follow is not None and follow.get("type") == "dahai":
                action = self._match(observation, ActionType.RIICHI, follow.get("pai"))
            if action is None:  # no riichi after all: the bot must not think it is in one
                self.echoed_reach = False
        if action is None:
            if answer is not None:
                self._warn(f"answered {json.dumps(answer)[:80]}, which is not legal now")
            return safe_default(observation)
        return action

    def _to_action(self, obs: Observation, answer: dict[str, Any]) -> Action | None:
        kind = answer.get("type")
        if kind == "none":
            return next((a for a in obs.legal if a.type is ActionType.PASS), None)
        if kind == "hora":
            return next(
                (a for a in obs.legal if a.type in (ActionType.TSUMO, ActionType.RON)), None
            )
        if kind == "ryukyoku":
            return next((a for a in obs.legal if a.type is ActionType.KYUUSHU), None)
        if kind == "dahai":
            return self._match(
                obs, ActionType.DISCARD, answer.get("pai"), tsumogiri=answer.get("tsumogiri")
            )
        if kind in _CALL_TYPES:
            return self._match(obs, _CALL_TYPES[kind], answer.get("pai"), answer.get("consumed"))
        if kind == "ankan":
            return self._match(obs, ActionType.ANKAN, None, answer.get("consumed"))
        if kind == "kakan":
            return self._match(obs, ActionType.KAKAN, answer.get("pai"))
        return None

    def _match(
        self,
        obs: Observation,
        kind: ActionType,
        pai: Any,
        consumed: Any = None,
        tsumogiri: Any = None,
    ) -> Action | None:
        """The legal action of ``kind`` naming the same tiles (kinds and red fives)."""
        try:
            want = parse_mjai(pai) if isinstance(pai, str) else None
            used = sorted(parse_mjai(c) for c in consumed) if isinstance(consumed, list) else None
        except ValueError:
            return None
        reds = obs.rules.red_fives
        candidates = []
        for a in obs.legal:
            if a.type is not kind:
                continue
            if (
                want is not None
                and a.tile is not None
                and (a.tile >> 2, mjai_name(a.tile, reds).endswith("r")) != want
            ):
                continue
            if (
                used is not None
                and kind is not ActionType.ANKAN
                and sorted((t >> 2, mjai_name(t, reds).endswith("r")) for t in a.tiles) != used
            ):
                continue
            if (
                used is not None
                and kind is ActionType.ANKAN
                and (not a.tiles or a.tiles[0] >> 2 != used[0][0])
            ):
                continue
            candidates.append(a)
        if not candidates:
            return None
        if tsumogiri is not None and obs.drawn is not None:
            candidates.sort(key=lambda a: (a.tile == obs.drawn) != bool(tsumogiri))
        return candidates[0]


def _says_none(line: str) -> bool:
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(message, dict) and message.get("type") == "none"


def safe_default(obs: Observation) -> Action:
    """Pass when asked about a tile, otherwise discard the drawn tile (or any tile)."""
    for a in obs.legal:
        if a.type is ActionType.PASS:
            return a
    for a in obs.legal:
        if a.type is ActionType.DISCARD and a.tile == obs.drawn:
            return a
    return next(a for a in obs.legal if a.type is ActionType.DISCARD)
