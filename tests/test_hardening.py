"""The hardening issue: every defect, with a test that failed before its fix."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = "\x1b]0;pwned\x07\x1b[2Jx\x9b31m\x90dcs\x9c\x1bPq\x1b\\\r\x00"
CONTROL = [chr(c) for c in range(32) if c not in (9, 10)] + [chr(c) for c in range(0x7f, 0xa0)]


def no_control(text: str, newlines: bool = True) -> bool:
    return not any(c in text for c in CONTROL) and (newlines or "\n" not in text)


def one_line_error(capsys, argv, *needles) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"tcgtui {argv[0]}: error:"), err
    for needle in needles:
        assert needle in err, err
    return err


def bench(db: Path, *extra: str) -> list[str]:
    return ["bench", "--agent", "random", "--vs", "random", "--games", "2", "--db", str(db), *extra]


# 1. text from outside is never trusted ------------------------------------------------------

def test_outside_text_sanitiser_strips_sequences_and_controls():
    from tcgtui.console_text import clean, safe

    assert clean("a" + HOSTILE + "b") == "axb"
    assert clean("one\ntwo\tthree", newlines=True) == "one\ntwo\tthree"
    assert clean("one\ntwo") == "one two"
    assert safe("[bold red]x[/]") == "\\[bold red]x\\[/]"
    assert clean("عربي") == "عربي"


def test_outside_text_run_names_and_db_paths_are_not_markup(tmp_path, capsys):
    folder = tmp_path / "[red]dir"
    folder.mkdir()
    for name in ("[/]", "[bold red]x[/]"):
        assert main(bench(folder / "t.sqlite3", "--run", name)) == 0
        err = capsys.readouterr().err
        assert name in err and "[red]dir" in err, err


def test_outside_text_errors_print_no_escape_sequences(capsys):
    err = one_line_error(capsys, ["bench", "--agent", "random", "--vs", "random", "--pack", "no" + HOSTILE])
    assert no_control(err.rstrip("\n"), newlines=False), repr(err)


def test_outside_text_report_tables_show_hostile_names_plainly(tmp_path, capsys):
    db = tmp_path / "t.sqlite3"
    assert main(bench(db)) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET agent = ?", ("llm:" + HOSTILE + "[bold]m[/]",))
    capsys.readouterr()
    for fmt in ("table", "md", "csv"):
        assert main(["report", "--db", str(db), "--format", fmt, "--table", "win_rates"]) == 0
        out = capsys.readouterr().out
        assert no_control(out) and "[bold]m[/]" in out, (fmt, repr(out))


def test_outside_text_report_json_lets_no_control_through(tmp_path, capsys):
    db = tmp_path / "t.sqlite3"
    assert main(bench(db)) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET agent = ?", ("llm:" + HOSTILE + "\x85\x7fm\x9f",))
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert no_control(out) and "\\u00" not in out, repr(out)
    assert json.loads(out)["win_rates"][0]["agent"] == "llm:xm"


def test_outside_text_tui_stream_and_top_bar_are_sanitised():
    from tcgtui.tui.widgets.bars import TopBar
    from tcgtui.tui.widgets.stream import StreamPanel

    panel = StreamPanel()
    panel.feed("answer", "think\n" + HOSTILE)
    assert all(no_control(text) for _, text in panel.body.parts)
    bar = TopBar()
    bar.refresh = lambda *a, **k: None          # not mounted
    bar.show(players=("human:" + HOSTILE, "llm:[b]m"))
    assert no_control("".join(bar.state.players), newlines=False)


def test_outside_text_llm_reply_through_the_stream_is_sanitised():
    from tcgtui.tui.widgets.stream import StreamPanel

    panel = StreamPanel()
    for chunk in ("<move>", "\x1b]0;pwn", "ed\x07", "\x1b[2J", "fireball</move>"):
        panel.feed("reasoning", chunk)
    assert all("\x1b" not in t and "\x07" not in t for _, t in panel.body.parts)


# 2. a handle ends where it ends ---------------------------------------------------------------

def test_handle_with_trailing_newline_is_refused(tmp_path):
    from tcgtui import config

    with pytest.raises(UserError):
        config.check_handle("eve\n")
    assert config.check_handle("eve") == "eve"


def test_handle_with_trailing_newline_in_an_imported_file_is_refused(tmp_path):
    from tcgtui.baseline import read_files
    from tests.test_humans import _finished_games
    from tcgtui.baseline import export
    from tcgtui.games.tcg.packs import load_pack
    from tcgtui.store import Store

    with Store(tmp_path / "t.sqlite3") as store:
        _finished_games(store, load_pack("community"), [1])
        export(store, tmp_path / "a.jsonl", include_text=False)
    line = json.loads((tmp_path / "a.jsonl").read_text(encoding="utf-8"))
    line["agent"] = "human:eve\n\x1b]0;pwned\x07"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.jsonl:1: field 'agent'") as exc:
        read_files([bad])
    assert no_control(str(exc.value), newlines=False)


# 3. absurd sweep sizes are refused before planning --------------------------------------------

def test_bench_games_and_concurrency_above_the_limit_are_refused(tmp_path, capsys):
    one_line_error(capsys, bench(tmp_path / "t.sqlite3", "--games", "1000000000000"), "--games", "1000000000000",
                   "1,000,000")
    one_line_error(capsys, bench(tmp_path / "t.sqlite3", "--concurrency", "1000000"), "--concurrency", "1,024")


# 4. one process per run ------------------------------------------------------------------------

def test_two_bench_processes_on_one_run_the_second_is_refused(tmp_path, capsys):
    from tcgtui.bench.lock import RunLock

    db = tmp_path / "t.sqlite3"
    with RunLock(db, "shared"):
        one_line_error(capsys, bench(db, "--run", "shared"), "--run shared", f"pid {os.getpid()}")
    assert main(bench(db, "--run", "shared")) == 0


def test_two_bench_processes_a_killed_holders_lock_is_taken_over(tmp_path):
    from tcgtui.bench.lock import RunLock

    db = tmp_path / "t.sqlite3"
    code = ("import sys, time; from pathlib import Path; from tcgtui.bench.lock import RunLock\n"
            f"l = RunLock(Path({str(db)!r}), 'r').__enter__(); print('held', flush=True); time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        with pytest.raises(UserError, match=f"pid {proc.pid}"):
            RunLock(db, "r").__enter__()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        with RunLock(db, "r"):
            pass
    finally:
        if proc.poll() is None:
            proc.kill()


# 5. writers wait their turn --------------------------------------------------------------------

def test_database_locked_import_commits_in_batches(tmp_path, monkeypatch):
    from tcgtui.store import Store, db as store_db
    from tests.test_humans import _finished_games
    from tcgtui.games.tcg.packs import load_pack
    from tcgtui.baseline import export, import_games, read_files

    with Store(tmp_path / "a.sqlite3") as store:
        _finished_games(store, load_pack("community"), [1, 2, 3, 4, 5])
        export(store, tmp_path / "a.jsonl", include_text=False)
    monkeypatch.setattr(store_db, "MERGE_BATCH", 2)
    commits = []
    with Store(tmp_path / "b.sqlite3") as fresh:
        fresh.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        assert import_games(fresh, read_files([tmp_path / "a.jsonl"])) == (5, 0)
    assert len(commits) >= 3


def test_database_locked_bench_write_is_retried(tmp_path):
    import asyncio

    from tcgtui.bench.runner import save_with_retry
    from tcgtui.store import Store
    from tcgtui.store import GameRow

    path = tmp_path / "t.sqlite3"
    with Store(path) as store:
        store.conn.execute("PRAGMA busy_timeout = 50")
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.4, lambda: other.execute("COMMIT")).start()
        row = GameRow(agent="random", opponent="random", lang="en", game_index=0, seed=1, agent_seat=0,
                      game="tcg", pack_id="p", pack_hash="h", status="finished", record={}, started_at="t")
        assert asyncio.run(save_with_retry(store, row, [], False, pause=0.2)) == "stored"
        other.close()


# 6. sampling settings are finite and in range ----------------------------------------------------

@pytest.mark.parametrize("extra, needle", [
    (["--temperature", "nan"], "--temperature: nan"), (["--temperature", "inf"], "--temperature: inf"),
    (["--temperature", "-1"], "--temperature: -1"), (["--temperature", "3"], "from 0 to 2"),
    (["--extra-body", '{"top_p": 1.5}'], "--extra-body top_p"), (["--extra-body", '{"top_p": NaN}'], "--extra-body"),
    (["--timeout", "nan"], "--timeout: nan"),
])
def test_temperature_nan_and_out_of_range_settings_are_refused(tmp_path, capsys, extra, needle):
    one_line_error(capsys, bench(tmp_path / "t.sqlite3", *extra), needle)


def test_temperature_nan_is_refused_by_the_endpoint_too():
    from tcgtui.opponents.base import OptionError      # the players' layer's one-line error
    from tcgtui.opponents.llm.endpoint import settings_from_options

    for options in ({"temperature": float("nan")}, {"temperature": float("inf")}, {"extra_body": {"top_p": -0.1}}):
        with pytest.raises(OptionError):
            settings_from_options("m", {"base_url": "http://h/v1", **options})


# 7. deeply nested files ---------------------------------------------------------------------------

def test_deeply_nested_json_import_is_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    one_line_error(capsys, ["baseline", "import", str(deep), "--db", str(tmp_path / "t.sqlite3")],
                   "deep.jsonl:1", "nested too deeply")


def test_deeply_nested_toml_pack_is_one_line(tmp_path, capsys):
    from tcgtui.games.tcg.packs import resolve

    pack = tmp_path / "deep"
    shutil.copytree(resolve("starter"), pack)
    with (pack / "pack.toml").open("a", encoding="utf-8") as fh:
        fh.write("\nzz = " + "[" * 5000 + "1" + "]" * 5000 + "\n")
    one_line_error(capsys, ["cards", "--pack", str(pack)], "pack.toml", "nested too deeply")


# 8. export targets ----------------------------------------------------------------------------------

def test_baseline_export_to_a_directory_or_unwritable_place_is_one_line(tmp_path, capsys):
    db = tmp_path / "t.sqlite3"
    assert main(bench(db)) == 0
    capsys.readouterr()
    target = tmp_path / "out"
    target.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    one_line_error(capsys, ["baseline", "export", str(target), "--db", str(db)], str(target))
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    one_line_error(capsys, ["baseline", "export", "/proc/tcgtui-test.jsonl", "--db", str(db)], "/proc/tcgtui-test")
    assert not Path("/proc/tcgtui-test.jsonl.tmp").exists()


# 9. the plot target is checked before any output -------------------------------------------------------

def test_report_plot_to_a_bad_target_fails_before_the_tables(tmp_path, capsys):
    db = tmp_path / "t.sqlite3"
    assert main(bench(db)) == 0
    capsys.readouterr()
    (tmp_path / "file").write_text("")          # (a folder is a target now: --plot DIR draws every figure)
    assert main(["report", "--db", str(db), "--plot", str(tmp_path / "file" / "curves.png")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured


# 10. seeds fit in 63 bits ---------------------------------------------------------------------------------

def test_seed_9223372036854775808_is_refused(tmp_path, capsys):
    import argparse

    from tcgtui.tui.options import settings_from

    one_line_error(capsys, bench(tmp_path / "t.sqlite3", "--seed", str(2**63)), "--seed", str(2**63))
    one_line_error(capsys, ["watch", "--p1", "random", "--p2", "random", "--seed", str(2**63)], "--seed")
    args = argparse.Namespace(lang="en", seed=2**63, pause=1.0, pack="community", rtl=None)
    with pytest.raises(UserError, match="--seed"):
        settings_from(args, ("human", "random"))
    with pytest.raises(UserError, match="--seed"):
        settings_from(argparse.Namespace(**{**vars(args), "seed": -1}), ("human", "random"))


# 11. private-pack pseudonyms are salted per export --------------------------------------------------------

def test_private_pack_pseudonyms_are_unguessable_and_consistent(tmp_path):
    from tcgtui.baseline import export
    from tcgtui.engine.tcg import TcgGame
    from tcgtui.live import LiveGame, human_spec
    from tcgtui.opponents.registry import make_agent
    from tcgtui.games.tcg.packs import load_pack, resolve
    from tcgtui.store import Store
    from tests.test_humans import Person, play
    from tests.test_packs import edit

    private = tmp_path / "secret"
    shutil.copytree(resolve("starter"), private)
    edit(private / "text" / "en.toml", "Fireball", "Ember Lance")
    pack = load_pack(str(private))
    with Store(tmp_path / "t.sqlite3") as store:
        live = LiveGame.begin(store, TcgGame(pack), 3, agent=human_spec("ada"), opponent="random",
                              agent_seat=0, lang="en", resume={"pack": str(private), "vs": "random"})
        live.finish(play(live, (Person(), make_agent("random"))))
        export(store, tmp_path / "a.jsonl", include_text=False)
        export(store, tmp_path / "b.jsonl", include_text=False)
    a = json.loads((tmp_path / "a.jsonl").read_text(encoding="utf-8"))
    b = json.loads((tmp_path / "b.jsonl").read_text(encoding="utf-8"))
    guesses = {"card-" + hashlib.sha256(f"{pack.hash}:{c.id}".encode()).hexdigest()[:n] for c in pack.cards
               for n in (10, 16)}
    moves = a["record"]["moves"]
    assert not guesses & set(moves)
    assert set(moves).isdisjoint(b["record"]["moves"])          # another export, another salt
    decided = {d["move"] for d in a["decisions"]}
    assert decided <= set(moves) | {"pass"}                     # one name per card within one file


# 12. every perf benchmark runs in its quick mode ------------------------------------------------------------

def test_perf_without_only_runs_every_benchmark_quickly():
    from tcgtui.perf import benchmarks

    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tcgtui", "perf", "--quick", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)["results"]
    assert set(results) == {m.NAME for m in benchmarks()}
    assert all(results.values())
    assert time.monotonic() - started < 120
