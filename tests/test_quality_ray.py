"""``tcgtui analyze --ray``: the values a local Ray instance computes are those of one process, each
game stored once by the starting process; several games go in one task."""

from __future__ import annotations

import socket
import sqlite3
import time
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.quality.compute import Job, batches
from tcgtui.store import Store

pytest.importorskip("ray")


def _values(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT game_id, idx, evaluator, seat, move_values, chosen, best, regret, agrees"
                            " FROM decision_values ORDER BY game_id, idx").fetchall()
    finally:
        conn.close()


def _run(db: Path, *bench: str) -> str:
    assert main(["bench", "--db", str(db), *bench]) == 0
    with Store(db) as store:
        return store.runs()[-1].name


def test_batches_hold_several_games_and_every_game_once() -> None:
    jobs = [Job(f"g{i}", None, "perfect", tuple(range(n))) for i, n in enumerate([3, 4, 1, 5, 2, 5])]
    cut = list(batches(jobs, 3))                   # 20 decisions in 3 tasks: at least 7 each but the last
    assert [[j.game_id for j in b] for b in cut] == [["g0", "g1"], ["g2", "g3", "g4"], ["g5"]]
    assert list(batches(jobs, 100)) == [[j] for j in jobs]
    assert list(batches(jobs, 1)) == [jobs]
    assert list(batches([], 4)) == []


def test_analyze_on_ray_stores_the_values_of_one_process(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    runs = [(_run(db, "--agent", "random", "--vs", "mc:5", "--games", "3", "--seed", "3"), "mc:20"),
            (_run(db, "--game", "connect4", "--agent", "random", "--vs", "ab:2", "--games", "3", "--seed", "1"),
             "ab:3")]
    for run, evaluator in runs:
        assert main(["analyze", "--run", run, "--db", str(db), "--evaluator", evaluator, "--workers", "1"]) == 0
    alone = _values(db)
    assert len(alone) > 20 and {v[2] for v in alone} == {"mc:20", "ab:3"}
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM decision_values")
    capsys.readouterr()
    for run, evaluator in runs:
        assert main(["analyze", "--run", run, "--db", str(db), "--evaluator", evaluator, "--ray", "local"]) == 0
        assert "0 were stored already" in capsys.readouterr().out
    assert _values(db) == alone
    assert main(["analyze", "--run", runs[1][0], "--db", str(db), "--evaluator", "ab:3", "--ray", "local"]) == 0
    assert "0 decisions valued now" in capsys.readouterr().out


def test_a_bad_address_is_one_line(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    run = _run(db, "--game", "tictactoe", "--agent", "random", "--vs", "random", "--games", "1")
    capsys.readouterr()
    code = main(["analyze", "--run", run, "--db", str(db), "--ray", "no-port-here"])
    err = capsys.readouterr().err
    assert code == 2 and "--ray: no-port-here: Invalid address" in err and len(err.strip().splitlines()) == 1, err
    # a well-formed address where nothing listens: one line at once (Ray itself would retry for minutes)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        started = time.monotonic()
        code = main(["analyze", "--run", run, "--db", str(db), "--ray", address])
        err = capsys.readouterr().err
        assert code == 2 and f"--ray: {address}: no Ray cluster answers there" in err, err
        assert len(err.strip().splitlines()) == 1 and time.monotonic() - started < 30
