"""``tcgtui bench`` from the command line: one-line errors, and a real kill -9 mid-sweep."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tcgtui.bench.plan import deal_seed
from tcgtui.cli import main

ROOT = Path(__file__).resolve().parent.parent


def _one_line_error(capsys: pytest.CaptureFixture, argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"tcgtui {argv[0]}: error:"), err
    assert needle in err, err


@pytest.mark.parametrize("extra, needle", [
    (["--vs", "mc:abc"], "'mc:abc' is not a player"),
    (["--vs", "random", "--games", "0"], "--games: 0 is not a game count"),
    (["--vs", "random", "--concurrency", "-3"], "--concurrency: -3"),
    (["--vs", "random", "--timeout-per-game", "0"], "--timeout-per-game: 0"),
    (["--vs", "human"], "tcgtui play"),
    (["--vs", "random", "--lang", "en,xx"], "--lang: 'xx' is not a language"),
    (["--vs", "random", "--pack", "no-such-pack"], "no-such-pack"),
    (["--vs", "random", "--db", "/no/such/dir/t.sqlite3"], "/no/such/dir does not exist"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture, extra: list[str], needle: str) -> None:
    _one_line_error(capsys, ["bench", "--agent", "random", *extra], needle)


def test_an_unparseable_number_is_one_line_too(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--agent", "random", "--games", "many"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_resuming_a_run_with_another_pack_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "t.sqlite3")
    base = ["bench", "--agent", "random", "--vs", "random", "--games", "2", "--db", db, "--run", "mine"]
    assert main(base) == 0
    capsys.readouterr()
    _one_line_error(capsys, [*base, "--pack", "starter"], "--run mine: this command's identity.pack.hash")
    _one_line_error(capsys, [*base, "--seed", "5"], "identity.seed is 5 but the run was made with 0")


def _ctrl_c_as_in_a_terminal() -> None:
    """A suite started in the background (``pytest &``, ``nohup``) passes Ctrl-C on ignored, and a
    bench started so rightly ignores it; the tests press it as in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _bench(db: Path, games: int) -> subprocess.Popen:
    """A sweep whose games are played whole in the worker pool, in a process group of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "tcgtui", "bench", "--agent", "random", "--vs", "random", "--lang", "en,ar",
         "--games", str(games), "--concurrency", "4", "--db", str(db), "--run", "crash", "--seed", "3"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "COLUMNS": "400"},           # its lines unwrapped
        preexec_fn=_ctrl_c_as_in_a_terminal)


def _stored(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:     # not created yet
        return 0


def _interrupt_when(proc: subprocess.Popen, db: Path, at_least: int, sig: int, group: bool = False) -> int:
    """Send ``sig`` once ``at_least`` games are stored, to the bench or (``group``: as a job scheduler
    or a closed terminal does) to every process of its group, workers included."""
    deadline = time.monotonic() + 60
    while _stored(db) < at_least:
        assert proc.poll() is None, "the sweep ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    (os.killpg if group else os.kill)(proc.pid, sig)
    proc.wait(timeout=30)
    return _stored(db)


def _stopped_line(sig: signal.Signals, kept: int, db: Path) -> str:
    return (f"tcgtui bench: stopped by {sig.name}: {kept} games of run crash are kept in {db}; "
            "rerun the same command to resume")


def test_kill_9_and_ctrl_c_mid_sweep_lose_nothing_and_the_rerun_completes(tmp_path: Path) -> None:
    db, games = tmp_path / "crash.sqlite3", 800
    killed = _bench(db, games)
    after_kill = _interrupt_when(killed, db, 150, signal.SIGKILL)
    assert killed.returncode == -signal.SIGKILL and after_kill < 2 * games

    stopped = _bench(db, games)
    after_int = _interrupt_when(stopped, db, after_kill + 300, signal.SIGINT)
    err = stopped.stderr.read()
    assert stopped.returncode == 130 and _stopped_line(signal.SIGINT, after_int, db) in err and "Traceback" not in err
    assert after_kill < after_int < 2 * games

    done = _bench(db, games)
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        per_cell = conn.execute("SELECT lang, count(*), count(DISTINCT game_index), min(game_index), max(game_index)"
                                " FROM games GROUP BY lang ORDER BY lang").fetchall()
        assert per_cell == [("ar", games, games, 0, games - 1), ("en", games, games, 0, games - 1)]
        assert conn.execute("SELECT count(*) FROM games WHERE status != 'finished'").fetchone()[0] == 0
        short = conn.execute("SELECT count(*) FROM games g WHERE g.moves != "
                             "(SELECT count(*) FROM decisions d WHERE d.game_id = g.id)").fetchone()[0]
        assert short == 0                       # every stored game has all its decisions
        seeds = dict(conn.execute("SELECT game_index, seed FROM games WHERE lang = 'en'").fetchall())
        assert all(seeds[i] == deal_seed(3, i) for i in (0, 1, games - 1))


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM and SIGHUP as POSIX sends them")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("group", [False, True], ids=["to-bench", "to-group"])
def test_sigterm_and_sighup_stop_as_ctrl_c_does_and_the_rerun_resumes(tmp_path: Path, sig: signal.Signals,
                                                                     group: bool) -> None:
    db, games = tmp_path / "t.sqlite3", 300
    stopped = _bench(db, games)
    kept = _interrupt_when(stopped, db, 100, sig, group)
    err = stopped.stderr.read().splitlines()
    assert stopped.returncode == 128 + sig, err
    # One line after the opening one: no traceback, no leaked-semaphore warning.
    assert err == [f"run crash in {db}", _stopped_line(sig, kept, db)]
    with sqlite3.connect(db) as conn:
        before = conn.execute("SELECT id, lang, game_index, finished_at FROM games").fetchall()
    assert 100 <= len(before) < 2 * games

    done = _bench(db, games)
    out, rest = done.communicate(timeout=120)
    assert done.returncode == 0, rest
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        after = conn.execute("SELECT id, lang, game_index, finished_at FROM games").fetchall()
    assert set(before) <= set(after) and len(after) == 2 * games       # kept as they were, none played twice
    assert len({(lang, index) for _, lang, index, _ in after}) == 2 * games


def test_the_bench_puts_the_signal_handlers_it_found_back(tmp_path: Path) -> None:
    def mine(signum: int, frame: object) -> None:
        raise AssertionError("not expected to run")

    previous = {s: signal.signal(s, mine) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        assert main(["bench", "--agent", "random", "--vs", "random", "--games", "2", "--db",
                     str(tmp_path / "t.sqlite3")]) == 0
        assert all(signal.getsignal(s) is mine for s in previous)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_pool_workers_end_when_the_bench_is_killed() -> None:
    script = ("import os, time\nfrom tcgtui.bench.pool import process_pool\n"
              "pool = process_pool()\nprint(pool.submit(os.getpid).result(), flush=True)\ntime.sleep(120)\n")
    bench = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    worker = int(bench.stdout.readline())
    assert _alive(worker)
    bench.kill()
    bench.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(worker)
