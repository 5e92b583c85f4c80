"""Large competitions planned at once, and what another client waits meanwhile. Not a
test.

    python bench/planning.py [--seasons 8] [--members 64] [--rounds 40]

A ``riichi serve`` process on a fresh SQLite file. ``--seasons`` operators (whom the
per-account bounds do not hold) each make a season of ``--members`` roster computers
over ``--rounds`` rounds, then all start their seasons at the same moment, while
another signed-in client asks ``/api/me`` every 20 ms. Printed: each start's answer
and time, how many plans the planner made or refused (one waiting per account, four
in all), and the other client's latency (p50, p90, p99, max) while the plans were made
and the first rounds seated. Before the planner, one such start held the event loop
for 7.7 s and the other client waited up to 47.7 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_helpers import Person, free_port, start_server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seasons", type=int, default=8)
    parser.add_argument("--members", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'plan.db'}"
        port = free_port()
        server = start_server(db, port)
        try:
            run(db, port, args)
        finally:
            server.terminate()
            server.wait(timeout=20)


def run(db: str, port: int, args: argparse.Namespace) -> None:
    organisers = [Person(port, i + 1, f"organiser{i}", block=7) for i in range(args.seasons)]
    for i in range(args.seasons):
        subprocess.run(
            [sys.executable, "-m", "riichi.cli", "operator", f"organiser{i}", "--db", db],
            check=True,
            capture_output=True,
        )
    prober = Person(port, 200, "prober", block=7)
    seasons = []
    for person in organisers:
        body = {
            "name": "Big season",
            "rules": "league",
            "mode": "individual",
            "rounds": args.rounds,
            "switches": {"length": "one-hand", "lengths": ["one-hand", "east", "south"]},
        }
        made = person.post("/api/leagues", json=body)
        assert made.status_code == 201, made.text
        league = made.json()["id"]
        for _ in range(args.members // 8):
            added = person.post(f"/api/leagues/{league}/computers", json={"count": 8})
            assert added.status_code == 200, added.text
        seasons.append(league)
    print(
        f"{args.seasons} seasons of {args.members} computers over {args.rounds} rounds,"
        " started at once"
    )
    latencies: list[float] = []
    stop = threading.Event()

    def probe() -> None:
        while not stop.is_set():
            began = time.perf_counter()
            assert prober.get("/api/me").status_code == 200
            latencies.append(time.perf_counter() - began)
            time.sleep(0.02)

    prober_thread = threading.Thread(target=probe)
    prober_thread.start()
    time.sleep(1.0)  # the quiet baseline is part of the sample: the first second
    answers: list[tuple[int, float, str]] = []

    def start(person: Person, league: str) -> None:
        began = time.perf_counter()
        answer = person.http.post(f"/api/leagues/{league}/start", json={}, timeout=300)
        error = "" if answer.status_code == 200 else answer.json()["error"][:60]
        answers.append((answer.status_code, time.perf_counter() - began, error))

    starters = [
        threading.Thread(target=start, args=(p, league))
        for p, league in zip(organisers, seasons, strict=True)
    ]
    began = time.perf_counter()
    for t in starters:
        t.start()
    for t in starters:
        t.join()
    took = time.perf_counter() - began
    time.sleep(2.0)  # the tables the plans seat start playing
    stop.set()
    prober_thread.join()
    for code, seconds, error in sorted(answers):
        print(f"  start: {code} in {seconds:.2f} s {error}")
    print(f"  answered: {dict(Counter(code for code, _, _ in answers))} in {took:.1f} s")
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100)
    print(
        f"another client's /api/me over {len(ms)} requests: p50 {q[49]:.1f} ms,"
        f" p90 {q[89]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
