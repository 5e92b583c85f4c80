"""Arenas as Ray tasks: on a local Ray with 2 CPUs the same seeds give the same
records and the same table as processes do, and a task whose worker dies runs again
without doubling its match."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from click.testing import CliRunner

from riichi.bots.arena import Played, Task, play_task, run, tasks
from riichi.cli import main

BOTS = "efficiency,random,tsumogiri,random"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def arena(out: Path, *extra: str) -> str:
    common = ["--bots", BOTS, "--games", "1", "--duplicate", "--jobs", "2", "--seed", "41"]
    result = CliRunner().invoke(
        main, ["arena", *common, "--length", "east", "--out", str(out), *extra]
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def test_ray_gives_the_records_and_the_table_processes_give(
    local_ray: None, tmp_path: Path
) -> None:
    table = arena(tmp_path / "processes")
    assert arena(tmp_path / "ray", "--ray") == table
    here = sorted((tmp_path / "processes").glob("match-*.json"))
    there = sorted((tmp_path / "ray").glob("match-*.json"))
    assert len(here) == 4 and [p.name for p in here] == [p.name for p in there]
    for a, b in zip(here, there, strict=True):
        assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_a_task_whose_worker_dies_runs_again_and_counts_once(
    local_ray: None, tmp_path: Path
) -> None:
    work = tasks(["efficiency", "random", "tsumogiri", "defensive"], 3, "online", 5, False, "east")
    dead = tmp_path / "dead"
    dead.mkdir()

    def dies_once(task: Task) -> Played:
        # the first run of each task takes its worker down with it, as a lost node would
        mark = dead / f"{task.seed}-{'-'.join(task.seating)}"
        if not mark.exists():
            mark.touch()
            os._exit(1)
        return play_task(task)

    expected = [play_task(t) for t in work]
    got = list(run(work, 2, ray="", play=dies_once))
    assert len(list(dead.iterdir())) == len(work)  # every task died once
    assert got == expected  # and each was played, and counted, exactly once
