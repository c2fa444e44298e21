"""Simulation work on a local Ray instance gives the results of the local pool, and a bench
sweep on Ray stores every game exactly once (only the starting process writes the store)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray")

from tcgtui.bench.cluster import LOCAL, RayExecutor  # noqa: E402
from tcgtui.cli import main  # noqa: E402
from tcgtui.engine.deck import make as M  # noqa: E402
from tcgtui.engine.deck.simulate import run_task, tasks  # noqa: E402
from tcgtui.games.tcg.packs import load_pack  # noqa: E402


@pytest.fixture(scope="module")
def ray_pool():
    pool = RayExecutor(LOCAL)
    yield pool
    pool.shutdown()


def test_simulation_tasks_on_ray_equal_local_ones(ray_pool) -> None:
    import random
    pack = load_pack("frontier")
    cand = M.candidate(pack, random.Random(1))
    work = tasks(pack, [cand.deck(0), cand.deck(1)], M.field(pack, 1, 0), 2, 20, seed=5, chunk=10)
    remote = list(ray_pool.map(run_task, work))
    local = [run_task(t) for t in work]
    assert len(remote) == len(work) == 4           # 2 options x 1 opponent deck x 2 seats
    assert all(np.array_equal(a, b) for a, b in zip(remote, local))


def test_a_bench_on_ray_stores_each_game_once(tmp_path: Path, ray_pool) -> None:
    db = tmp_path / "t.sqlite3"
    argv = ["bench", "--agent", "mc:3", "--vs", "random", "--games", "4", "--db", str(db), "--ray", LOCAL]
    assert main(argv) == 0
    assert main(argv) == 0                     # resuming finds every game stored: nothing runs twice
    rows = sqlite3.connect(db).execute("SELECT game_index, COUNT(*) FROM games GROUP BY game_index").fetchall()
    assert rows == [(0, 1), (1, 1), (2, 1), (3, 1)]
