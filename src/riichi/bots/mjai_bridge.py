"""Outside bots at our tables: a subprocess speaking mjai over stdin and stdout.

The protocol is Mortal's (FORMATS.md section 3): the bot reads one event per
line and writes one reaction line only when it can act. A bot that times out,
crashes or answers with something illegal gets a safe default (discard the
drawn tile, or pass) and a logged warning; the match goes on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from riichi.bots.agent import BOT_LABEL
from riichi.formats.mjai import MjaiStream
from riichi.game import Action, ActionType, Event, Observation
from riichi.rules import RuleSet
from riichi.tiles import mjai_name, parse_mjai

log = logging.getLogger(__name__)

_CALL_TYPES = {"chi": ActionType.CHI, "pon": ActionType.PON, "daiminkan": ActionType.KAN}


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
            self.pending += self.stream.feed(event)

    # -------------------------------------------------------------- acting

    def _send(self, message: dict[str, Any]) -> bool:
        if self.process is None or self.process.stdin is None or self.process.poll() is not None:
            return False
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            return True
        except OSError:
            return False

    def _flush(self, deciding: bool = False) -> None:
        # can_act tells the bot which event it must answer: only the last one
        # before a decision (Mortal's convention; the others say false)
        for i, message in enumerate(self.pending):
            last = deciding and i == len(self.pending) - 1
            self._send({**message, "can_act": last})
        self.pending.clear()

    def _answer(self) -> dict[str, Any] | None:
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            self._warn("timed out")
            return None
        if line is None:
            self._warn("stopped (exited or crashed)")
            self.lines.put(None)
            return None
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            self._warn(f"answered with something not JSON: {line.strip()[:80]!r}")
            return None
        return answer if isinstance(answer, dict) else None

    def _warn(self, what: str) -> None:
        text = f"{self.name}: {what}; playing the safe default"
        self.warnings.append(text)
        log.warning(text)

    def act(self, observation: Observation) -> Action:
        if not self.pending:  # nothing new happened: ask again with an empty event
            self.pending.append({"type": "none"})
        self._flush(deciding=True)
        answer = self._answer()
        action = self._to_action(observation, answer) if answer is not None else None
        if action is None and answer is not None and answer.get("type") == "reach":
            # the declaration first; the discard that goes with it comes next
            assert observation.seat is not None
            self._send({"type": "reach", "actor": observation.seat, "can_act": True})
            follow = self._answer()
            if follow is not None and follow.get("type") == "dahai":
                action = self._match(observation, ActionType.RIICHI, follow.get("pai"))
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


def safe_default(obs: Observation) -> Action:
    """Pass when asked about a tile, otherwise discard the drawn tile (or any tile)."""
    for a in obs.legal:
        if a.type is ActionType.PASS:
            return a
    for a in obs.legal:
        if a.type is ActionType.DISCARD and a.tile == obs.drawn:
            return a
    return next(a for a in obs.legal if a.type is ActionType.DISCARD)
