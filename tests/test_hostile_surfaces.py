"""The newer surfaces under hostile input (models, --budget, replay, --upstream, the importers):
each kind of failure found by attacking them, with a test that failed before its fix."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.store import Store
from tests.test_bad_input_property import _human_line      # one hostile import line, shared
from tests.test_hardening import one_line_error

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "tests" / "deck" / "manabench"




# Tracebacks -----------------------------------------------------------------------------------

DATE_ENTRY = '[m]\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "x"\nextra_body = { when = 1979-05-27T07:32:00Z }\n'


@pytest.mark.parametrize("argv", [["models"], ["bench", "--agent", "llm:m", "--vs", "random", "--games", "1"]])
def test_traceback_a_toml_date_in_extra_body_is_one_line(tmp_path, capsys, argv):
    models = tmp_path / "models.toml"
    models.write_text(DATE_ENTRY)
    one_line_error(capsys, [*argv, "--models", str(models), *(["--db", str(tmp_path / "t.db")]
                                                               if argv[0] == "bench" else [])],
                   "extra_body.when", "JSON values only")


@pytest.mark.parametrize("length", [40_000, 100_000])
def test_traceback_a_huge_replay_id_is_one_short_line(tmp_path, capsys, length):
    with Store(tmp_path / "t.db"):
        pass
    err = one_line_error(capsys, ["replay", "a" * length, "--db", str(tmp_path / "t.db")], "is not a game id")
    assert len(err) < 300


@pytest.mark.parametrize("faces", [["not a face"], [3, None], [[{"name": "x"}]]])
def test_traceback_card_faces_that_are_not_objects_are_one_line(tmp_path, capsys, faces):
    cards = json.loads((DECK / "cards.json").read_text(encoding="utf-8"))
    for name in cards["data"]:
        cards["data"][name] = faces
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(cards))
    one_line_error(capsys, ["deck", "import", str(DECK / "questions.json"), "--cards", str(bad),
                            "--out", str(tmp_path / "set.jsonl")], "expected an MTGJSON AtomicCards file")
    assert not (tmp_path / "set.jsonl").exists()


@pytest.mark.parametrize("field,value", [("idx", -1), ("seat", -1), ("seat", 2)])
def test_traceback_baseline_import_with_a_negative_index_or_seat_is_one_line(tmp_path, capsys, field, value):
    db = tmp_path / "t.db"
    line = _human_line()
    line["decisions"][0][field] = value
    path = tmp_path / "ada.jsonl"
    path.write_text(json.dumps(line) + "\n")
    one_line_error(capsys, ["baseline", "import", str(path), "--db", str(db)], f"{path}:1:", field)
    with Store(db) as store:
        assert store.games() == []


# Budgets --------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["9" * 400, "9" * 400 + "usd", "$" + "9" * 400, "1.5-tokens", "0.5-tokens",
                                   "1e400usd", "0usd", "--budget=-3-tokens", "nan usd", "inf usd"])
def test_budget_a_value_that_is_no_finite_whole_budget_is_one_short_line(tmp_path, capsys, value):
    flag = [value] if value.startswith("--budget=") else ["--budget", value]
    err = one_line_error(capsys, ["bench", "--agent", "random", "--vs", "random", "--games", "1",
                                  "--db", str(tmp_path / "t.db"), *flag], "--budget", "is not a budget")
    assert len(err) < 300


def test_budget_a_sweep_without_a_model_plays_and_reruns(tmp_path, capsys):
    argv = ["bench", "--agent", "random", "--vs", "random", "--games", "2", "--db", str(tmp_path / "t.db"),
            "--budget", "1k-tokens"]
    assert main(argv) == 0 and main([*argv, "--games", "3"]) == 0
    with Store(tmp_path / "t.db") as store:
        assert [g.status for g in store.games()] == ["finished"] * 3


def _spent(db: Path) -> tuple[int, int, int]:
    """(tokens recorded, replies recorded, the largest reply) over every decision of the store."""
    import sqlite3
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT info_json FROM decisions WHERE agent LIKE 'llm:%'").fetchall()
    infos = [json.loads(r[0]) for r in rows]
    tokens = [i["prompt_tokens"] + i["completion_tokens"] for i in infos]
    return sum(tokens), sum(len(i["attempts"]) for i in infos), max(tokens)


@pytest.mark.parametrize("budget", ["6k-tokens", "15k-tokens"])
def test_budget_a_sweep_of_models_and_baselines_stops_within_the_requests_in_flight(tmp_path, capsys, budget):
    from tcgtui.opponents.llm.testserver import ChatServer, Fault

    concurrency, db = 4, tmp_path / "t.db"
    with ChatServer(faults=lambda i, r: Fault.delay(0.05)) as server:
        models = tmp_path / "m.toml"
        models.write_text(f'[p]\nbase_url = "{server.base_url}"\nmodel = "fake"\nprices = {{ input = 1.0, output = 2.0 }}\n')
        capsys.readouterr()
        assert main(["bench", "--models", str(models), "--agent", "llm:p,random", "--vs", "random", "--games", "8",
                     "--concurrency", str(concurrency), "--max-retries", "0", "--db", str(db),
                     "--budget", budget]) == 0
        err = capsys.readouterr().err
        requests = len(server.requests)
    tokens, replies, largest = _spent(db)
    limit = int(budget.split("k")[0]) * 1000
    assert replies == requests                                  # every request's tokens are recorded
    assert f"and {tokens} tokens" in err                        # "spent" is what the store holds
    assert limit <= tokens <= limit + concurrency * largest     # over by at most the requests in flight
    with Store(db) as store:
        stopped = [g for g in store.games() if g.status == "errored"]
    assert stopped and all("--budget" in (g.error or "") for g in stopped)


def test_budget_tokens_only_says_no_dollars(tmp_path, capsys):
    from tcgtui.opponents.llm.testserver import ChatServer

    with ChatServer() as server:
        capsys.readouterr()
        assert main(["bench", "--agent", "llm:fake", "--base-url", server.base_url, "--vs", "random", "--games", "2",
                     "--concurrency", "1", "--db", str(tmp_path / "t.db"), "--budget", "1k-tokens"]) == 0
    line = next(x for x in capsys.readouterr().err.splitlines() if "budget reached" in x)
    assert "$" not in line and "tokens" in line


# Imports that lie -----------------------------------------------------------------------------

def _duel_logs(folder: Path, change) -> Path:
    from tests.duel.test_duel_import import write_logs
    write_logs(folder)
    for log in (folder / "data").glob("*_vs_*.jsonl"):
        if log.name.endswith(".tags.jsonl"):
            continue
        rows = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
        for row in rows:
            change(row)
        log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def _rename(name: str):
    def change(row: dict) -> None:
        for key in ("inventer", "solver"):
            if row[key] == "alpha":
                row[key] = name
    return change


@pytest.mark.parametrize("lie", [
    _rename("human:alice"), _rename("human"), _rename("random"), _rename("mc:1000"), _rename("llm:x@0123abcd"),
    _rename(""), _rename("   "), _rename("m" * 100_000), _rename("evil\x1b[2Jname"),
    lambda row: row["inventer_usage"].update(input_tokens=10 ** 30),
    lambda row: row["inventer_usage"].update(output_tokens=-5),
    lambda row: row["inventer_usage"].update(input_tokens=2 ** 63),
    lambda row: row["inventer_usage"].update(input_tokens=1e30),
], ids=["human-handle", "human", "random", "mc", "llm-key", "empty", "blank", "huge-name", "escape",
        "1e30-tokens", "negative-tokens", "2**63-tokens", "float-tokens"])
def test_imports_a_duel_log_that_lies_is_one_line_and_nothing_is_stored(tmp_path, capsys, lie):
    db = tmp_path / "t.db"
    err = one_line_error(capsys, ["duel", "import", str(_duel_logs(tmp_path / "ttg", lie)), "--db", str(db)],
                         ".jsonl, line ")
    assert "\x1b" not in err and len(err) < 400
    if db.exists():
        with Store(db) as store:
            assert store.games() == []


def test_imports_deck_import_out_equal_to_an_input_is_refused_and_the_input_kept(tmp_path, capsys):
    questions, cards = tmp_path / "q.json", tmp_path / "cards.json"
    shutil.copy(DECK / "questions.json", questions)
    shutil.copy(DECK / "cards.json", cards)
    before = questions.read_bytes(), cards.read_bytes()
    for out in (questions, cards):
        one_line_error(capsys, ["deck", "import", str(questions), "--cards", str(cards), "--out", str(out)],
                       "which this command reads")
    assert (questions.read_bytes(), cards.read_bytes()) == before


# A nearly full disk ---------------------------------------------------------------------------

FREE_KIB = (60, 100, 120, 140, 150)


def test_disk_a_new_store_on_a_nearly_full_disk_is_whole_or_absent(tmp_path):
    """On a 400 KiB tmpfs of its own (a mount namespace; as root or in a user namespace), with 60 to
    150 KiB free: the command fails in one line and leaves no store, or leaves one that opens."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to mount a small file system")
    disk = tmp_path / "disk"
    disk.mkdir()
    argv = "bench --agent random --vs random --games 1"        # play makes its store the same way (Store)
    script = f"""
set -e
mount -t tmpfs -o size=400k tmpfs {disk}
for free in {' '.join(map(str, FREE_KIB))}; do
  rm -f {disk}/*
  dd if=/dev/zero of={disk}/filler bs=1k count=$((400 - free)) 2>/dev/null
  {sys.executable} -m tcgtui {argv} --db {disk}/s.db >/dev/null 2>{disk}/err || true
  rm -f {disk}/filler
  echo "free=$free err=$(tail -n 1 {disk}/err)"
  if [ -e {disk}/s.db ]; then {sys.executable} -m tcgtui report --db {disk}/s.db >/dev/null 2>{disk}/err \\
      || echo "UNUSABLE $(cat {disk}/err)"; fi
  ls -a {disk} | grep -v '^\\.\\.\\?$' | grep -v '^err$' | sed 's/^/left: /' || true
done
"""
    flags = ["--mount"] if os.geteuid() == 0 else ["--mount", "--map-root-user"]
    done = subprocess.run(["unshare", *flags, "sh", "-c", script], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    if done.returncode != 0 and "mount" in done.stderr:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()[:200]}")
    out = done.stdout
    assert out.count("free=") == len(FREE_KIB), done.stderr
    assert "UNUSABLE" not in out and "malformed" not in out, out
    for line in out.splitlines():
        if line.startswith("left: "):
            assert line == "left: s.db", out          # no temporary file left behind


def test_imports_two_logs_of_one_pair_are_two_duels_not_a_crash(tmp_path, capsys):
    db = str(tmp_path / "t.db")
    first = _duel_logs(tmp_path / "one", lambda row: None)
    other = _duel_logs(tmp_path / "two", lambda row: row.update(explanation="another checkout"))
    assert main(["duel", "import", str(first), "--db", db]) == 0
    assert main(["duel", "import", str(other), "--db", db]) == 0          # UNIQUE constraint failed before
    assert main(["duel", "import", str(other), "--db", db]) == 0          # again: nothing added
    assert "0 duels imported, 2 already there" in capsys.readouterr().out
    with Store(Path(db)) as store:
        assert sorted(g.game_index for g in store.games()) == [0, 0, 1, 1]


def test_budget_a_decision_it_cuts_short_keeps_the_tokens_of_its_replies(tmp_path, capsys):
    """Every reply is unreadable, so each decision asks again; the budget is reached by the first reply
    and the second request is never made: the decision is kept, with the first reply's tokens."""
    import sqlite3

    from tcgtui.opponents.llm.testserver import ChatServer, Reply

    db = tmp_path / "t.db"
    with ChatServer(script=[Reply("no card named here", usage={"prompt_tokens": 1500, "completion_tokens": 5})] * 20) \
            as server:
        capsys.readouterr()
        assert main(["bench", "--agent", "llm:fake", "--base-url", server.base_url, "--vs", "random", "--games", "1",
                     "--concurrency", "1", "--invalid-retries", "2", "--db", str(db), "--budget", "1k-tokens"]) == 0
        requests = len(server.requests)
    err = capsys.readouterr().err
    with sqlite3.connect(db) as conn:
        (status, error), = conn.execute("SELECT status, error FROM games").fetchall()
        infos = [json.loads(r[0]) for r in conn.execute("SELECT info_json FROM decisions WHERE agent LIKE 'llm:%'")]
    assert requests == 1 and status == "errored" and "--budget" in error
    assert len(infos) == 1 and infos[0]["budget_stopped"] and len(infos[0]["attempts"]) == 1
    assert infos[0]["prompt_tokens"] + infos[0]["completion_tokens"] == 1505 and "1505 tokens" in err
