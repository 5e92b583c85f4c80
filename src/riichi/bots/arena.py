"""The arena: bots play seeded matches, optionally duplicate (every seating on every wall).

Each match is a pure function of (rules, seed, seating), so the arena can
farm matches out to processes and still report the same numbers.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from riichi.bots import make_agent
from riichi.bots.play import play_match
from riichi.game import Match
from riichi.game.stats import seat_stats
from riichi.rules import Length, find_ruleset


@dataclass(frozen=True)
class Task:
    rules: str  # preset name (picklable, and what a record would name)
    seed: int
    seating: tuple[str, ...]  # bot name per seat
    length: str | None = None  # the preset's own when None
    timeout: float = 2.0  # seconds an outside (mjai) bot has for each answer


@dataclass
class SeatResult:
    bot: str
    place: int
    score: int
    hands: int
    wins: int
    deal_ins: int
    riichis: int
    calls: int  # hands in which the seat called at least once


def play_task(task: Task) -> tuple[list[SeatResult], dict[str, Any] | None]:
    """Play one match; return each seat's result (and the record)."""
    rules = find_ruleset(task.rules)
    if task.length is not None:
        rules = rules.replace(length=Length(task.length))
    bots = [
        make_agent(name, f"{task.seed}:{seat}", task.timeout)
        for seat, name in enumerate(task.seating)
    ]
    match = play_match(Match(rules, task.seed, [b.name for b in bots]), bots)
    return _seat_results(match, task.seating), match.record()


def _seat_results(match: Match, seating: Sequence[str]) -> list[SeatResult]:
    return [
        SeatResult(
            seating[x.seat], x.place, x.score, x.hands, x.wins, x.deal_ins, x.riichis, x.calls
        )
        for x in seat_stats(match)
    ]


def tasks(
    bots: Sequence[str],
    games: int,
    rules: str,
    seed: int,
    duplicate: bool,
    length: str | None = None,
    timeout: float = 2.0,
) -> list[Task]:
    """The matches to play: with ``duplicate`` every seating on each seed (`seatings`)."""
    return [
        Task(rules, seed + g, seating, length, timeout)
        for g in range(games)
        for seating in (seatings(bots) if duplicate else [tuple(bots)])
    ]


def seatings(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The seatings a duplicate arena plays on each wall, each once: with two bots (two
    against two, one against three) every way to seat them (two against two: six);
    with more, every rotation of the seats as given."""
    if len(set(bots)) <= 2:
        return sorted(set(permutations(bots)))
    rotated = [tuple(bots[(s + r) % len(bots)] for s in range(len(bots))) for r in range(len(bots))]
    return list(dict.fromkeys(rotated))


Played = tuple[list[SeatResult], dict[str, Any] | None]


def run(
    work: list[Task],
    jobs: int = 1,
    on_done: Callable[[], None] | None = None,
    ray: str | None = None,
    play: Callable[[Task], Played] = play_task,
) -> Iterator[Played]:
    """Play every task, over ``jobs`` processes, or as Ray tasks with ``ray`` (a
    cluster's address, or "" for a Ray started here on ``jobs`` CPUs); results come in
    task order. A match is a pure function of its task, so where it runs changes
    nothing of what it gives."""
    if ray is not None:
        yield from _on_ray(work, jobs, on_done, ray, play)
        return
    if jobs <= 1:
        for task in work:
            yield play(task)
            if on_done:
                on_done()
        return
    chunk = max(1, min(CHUNK, len(work) // (jobs * 8)))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(play, work, chunksize=chunk):
            yield result
            if on_done:
                on_done()


# Matches a process takes at a time, at most: few enough that the progress moves every
# minute or so even for a searching bot (a match costs far more than sending it).
CHUNK = 8
# A task whose worker died (a node lost, a process killed) runs again, this many
# times at most; its result is taken once, from the run that finished.
RAY_RETRIES = 3
# Matches in flight per CPU of the cluster: enough to keep every CPU busy, few enough
# that finished records do not pile up in the object store.
RAY_WINDOW = 4


def _on_ray(
    work: list[Task],
    jobs: int,
    on_done: Callable[[], None] | None,
    address: str,
    play: Callable[[Task], Played],
) -> Iterator[Played]:
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'riichi[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(max_retries=RAY_RETRIES)(play)
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
        window = max(1, int(cpus) * RAY_WINDOW)
        pending: deque[Any] = deque()
        queue = iter(work)
        for task in queue:
            pending.append(remote.remote(task))
            if len(pending) >= window:
                break
        while pending:
            result: Played = ray.get(pending.popleft())
            for task in queue:
                pending.append(remote.remote(task))
                break
            yield result
            if on_done:
                on_done()
    finally:
        if started:
            ray.shutdown()


@dataclass
class BotStats:
    """One bot's figures over all its seats, with 95% confidence half-widths."""

    bot: str
    places: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichis: int = 0
    calls: int = 0

    def add(self, r: SeatResult) -> None:
        self.places.append(r.place)
        self.scores.append(r.score)
        self.hands += r.hands
        self.wins += r.wins
        self.deal_ins += r.deal_ins
        self.riichis += r.riichis
        self.calls += r.calls

    @property
    def matches(self) -> int:
        return len(self.places)

    def mean_place(self) -> tuple[float, float]:
        return _mean_ci(self.places)

    def mean_score(self) -> tuple[float, float]:
        return _mean_ci(self.scores)

    def rate(self, count: int, total: int) -> tuple[float, float]:
        if total == 0:
            return 0.0, 0.0
        p = count / total
        return p, 1.96 * math.sqrt(p * (1 - p) / total)

    def table_row(self, players: int) -> dict[str, tuple[float, float]]:
        firsts = sum(1 for p in self.places if p == 1)
        lasts = sum(1 for p in self.places if p == players)
        return {
            "avg place": self.mean_place(),
            "1st": self.rate(firsts, self.matches),
            "last": self.rate(lasts, self.matches),
            "avg score": self.mean_score(),
            "win": self.rate(self.wins, self.hands),
            "deal-in": self.rate(self.deal_ins, self.hands),
            "riichi": self.rate(self.riichis, self.hands),
            "call": self.rate(self.calls, self.hands),
        }


def _mean_ci(values: Sequence[int]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def summarise(results: Iterable[list[SeatResult]]) -> dict[str, BotStats]:
    stats: dict[str, BotStats] = {}
    for seats in results:
        for r in seats:
            stats.setdefault(r.bot, BotStats(r.bot)).add(r)
    return stats
