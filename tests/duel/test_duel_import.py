"""tcgtui duel import: The Token Games' duel logs (a self-written fixture in the released shape) as stored
duels under the seed's protocol, and the report's table and ratings as the seed computes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.report.data import load_games
from tcgtui.store import open_store

EVEN = "def mystery(x):\n    return isinstance(x, int) and x % 2 == 0\n"

# (file's model A, model B, the outcome of each round: A proposes rounds 1 and 3, B rounds 2 and 4)
DUELS = (("alpha", "beta", ("success", "failure", "puzzle-wrong", "success")),
         ("beta", "alpha", ("failure-ex", "puzzle-wrong-ex", "puzzle-wrong", "failure")))


def _round(n: int, a: str, b: str, outcome: str) -> dict:
    proposer, solver = (a, b) if n % 2 == 0 else (b, a)
    solved = outcome == "success"
    wrong = outcome.startswith("puzzle-wrong")
    return {"inventer": proposer, "solver": solver, "code": EVEN, "explanation": "\n\nan even number\n",
            "puzzle_raw": f"raw reply of {proposer}", "solver_raw": None if wrong else "raw",
            "solver_output": None if wrong else f"Try this.\nSOLUTION: {2 if solved else 3}",
            "sample_solution": "3" if wrong else "4", "solver_attempt": None if wrong else ("2" if solved else "3"),
            "outcome": outcome, "inventer_usage": {"input_tokens": 10, "output_tokens": 20},
            "solver_usage": None if wrong else {"input_tokens": 5, "output_tokens": 7},
            "puzzle_number": n, "player": "ab"[n % 2], "score_a": 0, "penalty_a": 0, "score_b": 0, "penalty_b": 0}


def write_logs(folder: Path) -> Path:
    data = folder / "data"
    data.mkdir(parents=True)
    for a, b, outcomes in DUELS:
        rows = [_round(n, a, b, o) for n, o in enumerate(outcomes)]
        (data / f"{a}_vs_{b}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        tags = [{"inventer": r["inventer"], "solver": r["solver"], "code": r["code"], "outcome": r["outcome"],
                 "puzzle_number": r["puzzle_number"], "tags": ["parity"]} for r in rows]
        (data / f"{a}_vs_{b}.tags.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tags), encoding="utf-8")
    return folder


@pytest.fixture
def imported(tmp_path, capsys) -> str:
    db = str(tmp_path / "t.db")
    assert main(["duel", "import", str(write_logs(tmp_path / "ttg")), "--db", db]) == 0
    assert "2 duels imported, 0 already there, from 2 logs (run ttg)" in capsys.readouterr().out
    return db


def test_each_log_is_one_duel_under_the_seeds_protocol_with_both_replies(imported, tmp_path, capsys):
    with open_store(Path(imported), create=False) as store:
        games = load_games(store, None, game="duel", with_record=True)
        run = store.run("ttg")
        first = next(g for g in games if g.seats == ("alpha", "beta"))
        decisions = store.decisions(first.id)
    assert run.kind == "import" and run.config["protocol"] == "seed"
    assert {g.seats for g in games} == {("alpha", "beta"), ("beta", "alpha")}
    assert all(g.params["protocol"] == "seed" and g.status == "finished" for g in games)
    outcomes = [e["outcome"] for e in first.record["events"] if e["kind"] == "scored"]
    assert outcomes == list(DUELS[0][2])
    # alpha: 0 won, 1 penalty; beta: 1 won: net scores -1 and 1
    assert first.record["outcome"]["scores"] == [-1.0, 1.0]
    replies = [(d.agent, d.info.get("reply")) for d in decisions]
    assert replies[0] == ("alpha", "raw reply of alpha") and ("alpha", "Try this.\nSOLUTION: 3") in replies
    assert main(["duel", "import", str(tmp_path / "ttg" / "data"), "--db", imported]) == 0
    assert "0 duels imported, 2 already there" in capsys.readouterr().out


def test_the_report_has_the_seeds_table(imported, capsys):
    assert main(["report", "--game", "duel", "--db", imported, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["agent"]: r for r in report["duel_roles"]}
    # alpha proposed success, puzzle-wrong, puzzle-wrong-ex, failure; beta failure, success, failure-ex, puzzle-wrong
    assert (rows["alpha"]["proposal_rate"], rows["alpha"]["penalty_rate"]) == (0.25, 0.5)
    assert (rows["beta"]["proposal_rate"], rows["beta"]["penalty_rate"]) == (0.5, 0.25)
    # the seed's Solv %: solved or the sample failed, over every round as solver; tcgtui's: over valid puzzles
    assert (rows["alpha"]["solver_win_rate"], rows["alpha"]["solve_rate"]) == (0.5, 1 / 3)
    assert (rows["beta"]["solver_win_rate"], rows["beta"]["solve_rate"]) == (0.75, 0.5)
    assert rows["beta"]["solver_win_ci_low"] < 0.75 < rows["beta"]["solver_win_ci_high"]
    seed = {r["agent"]: r["rating"] for r in report["seed_solver_ratings"]}
    assert seed["beta"] > seed["alpha"] and abs(seed["alpha"] + seed["beta"] - 2000) < 1e-6


def test_anchor_fixes_a_player_at_1000(imported, capsys):
    assert main(["report", "--game", "duel", "--db", imported, "--format", "json", "--anchor", "first"]) == 0
    seed = {r["agent"]: r for r in json.loads(capsys.readouterr().out)["seed_solver_ratings"]}
    assert seed["alpha"]["rating"] == pytest.approx(1000) and seed["beta"]["rating"] > 1000
    assert seed["alpha"]["ci_low"] == pytest.approx(1000) == seed["alpha"]["ci_high"]
    assert main(["report", "--game", "duel", "--db", imported, "--format", "json", "--anchor", "beta"]) == 0
    seed = {r["agent"]: r["rating"] for r in json.loads(capsys.readouterr().out)["seed_solver_ratings"]}
    assert seed["beta"] == pytest.approx(1000) and seed["alpha"] < 1000
    assert main(["report", "--game", "duel", "--db", imported, "--anchor", "gamma"]) == 2
    err = capsys.readouterr().err
    assert "--anchor 'gamma': no such player" in err and err.count("\n") == 1


@pytest.mark.parametrize("change, needle", [
    (lambda rows: rows[1].update(player="a"), "line 2: player 'a': expected 'b'"),
    (lambda rows: rows[0].update(outcome="won"), "line 1: outcome 'won': expected one of"),
    (lambda rows: rows.pop(), "3 rounds; expected an even number"),
    (lambda rows: rows[0].pop("code"), "line 1: expected a round with"),
])
def test_a_bad_log_is_one_line_naming_file_and_line(tmp_path, capsys, change, needle):
    data = write_logs(tmp_path / "ttg") / "data"
    path = data / "alpha_vs_beta.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    change(rows)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["duel", "import", str(tmp_path / "ttg"), "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert needle in err and "alpha_vs_beta.jsonl" in err and err.count("\n") == 1
    assert not (tmp_path / "t.db").exists()          # checked whole before anything is stored


def test_a_folder_without_logs_is_one_line(tmp_path, capsys):
    assert main(["duel", "import", str(tmp_path), "--db", str(tmp_path / "t.db")]) == 2
    assert "no MODEL_vs_MODEL.jsonl duel logs" in capsys.readouterr().err
