"""``tcgtui study status``, ``tcgtui report --study`` and ``tcgtui baseline export --study`` on a small
generated store (tests/study_store.py): the numbers worked by hand, one-line errors, pseudonyms only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from study_store import join, make_study, play
from tcgtui.cli import main
from tcgtui.engine.stats import clopper_pearson
from tcgtui.report import people
from tcgtui.store import ABANDONED, IN_PROGRESS, Store

# Person n's results against "random", their games 1-3 (1: win, 0: loss); people 0-5 finished, 6 dropped out.
RANDOM = {0: [1, 1, 1], 1: [0, 0, 0], 2: [1, 0, 1], 3: [1, 1, 0], 4: [0, 0, 1], 5: [1, 1, 1]}
# The model's result on seed 500 + j (its game j): the people played those deals, person n game k: 500 + (n + k) % 6.
MODEL = [1, 0, 0, 1, 0, 1]


def _seed(n: int, k: int) -> int:
    return 500 + (n + k) % 6


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "study.sqlite3"
    with Store(path) as store:
        bench = store.create_run("bench-a", {}).id
        for j, won in enumerate(MODEL):
            play(store, bench, "llm:m", "random", j, 500 + j, "win" if won else "loss")
        sid = make_study(store, "pilot", paired="bench-a")
        for n, results in RANDOM.items():
            pid = f"p-{n:08x}"
            join(store, "pilot", pid, n, "en", finished=True)
            for k, won in enumerate(results):
                play(store, sid, f"human:{pid}", "random", k + 1, _seed(n, k), "win" if won else "loss")
            for k in range(3):          # the second rung: everyone draws
                play(store, sid, f"human:{pid}", "mc:10", k + 4, 900 + k, "draw")
        join(store, "pilot", "p-dropout", 6, "ar")     # one game won, one under way, one abandoned
        play(store, sid, "human:p-dropout", "random", 1, 700, "win", lang="ar")
        play(store, sid, "human:p-dropout", "random", 2, 701, None, lang="ar", status=IN_PROGRESS)
        play(store, sid, "human:p-dropout", "mc:10", 3, 702, None, lang="ar", status=ABANDONED)
        make_study(store, "empty")
    return str(path)


def _json(capsys: pytest.CaptureFixture, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _one_line_error(capsys: pytest.CaptureFixture, argv: list[str], command: str, needle: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"tcgtui {command}: error:") and needle in err, err


def test_status_counts_participants_dropouts_and_games_per_rung(db: str, capsys: pytest.CaptureFixture) -> None:
    out = _json(capsys, ["study", "status", "--db", db, "pilot", "--format", "json"])
    assert out["study"] == "pilot" and out["planned"] == 6            # two rungs of three games
    assert out["status_people"] == [
        {"lang": "ar", "joined": 1, "finished": 0, "dropped_out": 1},
        {"lang": "en", "joined": 6, "finished": 6, "dropped_out": 0},
        {"lang": "all", "joined": 7, "finished": 6, "dropped_out": 1}]
    (dropout,) = out["status_dropouts"]
    assert (dropout["participant"], dropout["finished_games"], dropout["planned"], dropout["in_progress"]) == (
        "p-dropout", 1, 6, 1)
    rungs = {(r["opponent"], r["lang"]): r for r in out["status_rungs"]}
    assert [(r["opponent"], r["lang"]) for r in out["status_rungs"]] == [
        ("random", "ar"), ("random", "en"), ("mc:10", "ar"), ("mc:10", "en")]      # the study file's order
    assert (rungs[("random", "ar")]["finished"], rungs[("random", "ar")]["in_progress"]) == (1, 1)
    assert rungs[("mc:10", "ar")]["abandoned"] == 1 and rungs[("random", "en")]["finished"] == 18
    assert "token" not in json.dumps(out)


def test_status_without_an_id_lists_every_study(db: str, capsys: pytest.CaptureFixture) -> None:
    out = _json(capsys, ["study", "status", "--db", db, "--format", "json"])
    assert [(r["study"], r["joined"], r["finished"], r["dropped_out"]) for r in out["status_studies"]] == [
        ("pilot", 7, 6, 1), ("empty", 0, 0, 0)]


def test_status_as_a_table(db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["study", "status", "--db", db, "pilot"]) == 0
    out = capsys.readouterr().out
    assert "dropped out" in out and "p-dropout" in out and "Counted games per rung" in out


def test_study_errors_are_one_line(db: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    _one_line_error(capsys, ["study", "status", "--db", db, "nope"], "study", "no study 'nope'")
    _one_line_error(capsys, ["study", "status", "--db", str(tmp_path / "none.sqlite3")], "study", "none.sqlite3")
    _one_line_error(capsys, ["report", "--db", db, "--study", "nope"], "report", "studies: pilot, empty")
    _one_line_error(capsys, ["report", "--db", db, "--study", "pilot", "--format", "seed"], "report", "--format seed")
    _one_line_error(capsys, ["report", "--db", db, "--study", "pilot", "--table", "win_rates"], "report",
                    "study_baseline")
    _one_line_error(capsys, ["baseline", "export", str(tmp_path / "x.jsonl"), "--db", db, "--study", "nope"],
                    "baseline", "no study 'nope'")


def test_report_counts_people_not_games(db: str, capsys: pytest.CaptureFixture) -> None:
    out = _json(capsys, ["report", "--db", db, "--study", "pilot", "--format", "json"])
    assert (out["study"], out["digest"], out["interval"]) == ("pilot", "ab" * 32, people.METHOD)
    rows = {(r["opponent"], r["lang"]): r for r in out["study_baseline"]}
    en = rows[("random", "en")]
    means = [sum(v) / 3 for v in RANDOM.values()]
    assert (en["people"], en["games"], en["measure"]) == (6, 18, "win")
    assert en["estimate"] == pytest.approx(sum(means) / 6)
    assert en["sd_people"] == pytest.approx(float(__import__("numpy").std(means, ddof=1)))
    wins = sum(map(sum, RANDOM.values()))
    assert (en["pooled_low"], en["pooled_high"]) == pytest.approx(clopper_pearson(wins, 18))
    assert en["ci_low"] < en["estimate"] < en["ci_high"]
    assert en["ci_high"] - en["ci_low"] > en["pooled_high"] - en["pooled_low"]   # people differ: wider
    draws = rows[("mc:10", "en")]
    assert draws["estimate"] == 0 and (draws["ci_low"], draws["ci_high"]) == pytest.approx(clopper_pearson(0, 6))
    ar = rows[("random", "ar")]
    assert (ar["people"], ar["games"], ar["estimate"], ar["ci_low"]) == (1, 1, 1.0, None)   # one person: no interval
    # the same seed reprints the same intervals
    assert _json(capsys, ["report", "--db", db, "--study", "pilot", "--format", "json"]) == out


def test_learning_curve_by_a_persons_game(db: str, capsys: pytest.CaptureFixture) -> None:
    out = _json(capsys, ["report", "--db", db, "--study", "pilot", "--format", "json", "--table", "study_curve"])
    curve = out["study_curve"]
    assert [r["position"] for r in curve] == [1, 2, 3, 4, 5, 6]
    # the first game of each person: their first against random (the drop-out's too)
    first = [v[0] for v in RANDOM.values()] + [1]
    assert (curve[0]["people"], curve[0]["estimate"]) == (7, pytest.approx(sum(first) / 7))
    assert curve[5]["people"] == 6 and curve[5]["estimate"] == 0     # the sixth: a draw for everyone


def test_paired_difference_against_the_model_on_the_same_deals(db: str, capsys: pytest.CaptureFixture) -> None:
    out = _json(capsys, ["report", "--db", db, "--study", "pilot", "--format", "json", "--table", "study_paired"])
    (row,) = out["study_paired"]
    assert (row["model"], row["opponent"], row["people"], row["pairs"]) == ("llm:m", "random", 6, 18)
    diffs = [sum(v[k] - MODEL[(n + k) % 6] for k in range(3)) / 3 for n, v in RANDOM.items()]
    assert row["difference"] == pytest.approx(sum(diffs) / 6)
    assert row["ci_low"] <= row["difference"] <= row["ci_high"]
    assert "paired" in " ".join(out["notes"]).lower() and "bench-a" in " ".join(out["notes"])


def test_report_as_markdown_names_the_interval(db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["report", "--db", db, "--study", "pilot", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert "95% CI (bootstrap over people)" in md and "if games were independent" in md
    assert people.METHOD in md and "ab" * 32 in md


def test_a_study_exports_with_its_pseudonyms_and_slots(db: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "pilot.jsonl"
    assert main(["baseline", "export", str(target), "--db", db, "--study", "pilot"]) == 0
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 6 * 6 + 3 and {line["study"] for line in lines} == {"pilot"}
    assert {line["agent"] for line in lines} == {f"human:p-{n:08x}" for n in RANDOM} | {"human:p-dropout"}
    assert sorted(line["game_index"] for line in lines if line["agent"] == "human:p-dropout") == [1, 2, 3]
    assert "token" not in target.read_text(encoding="utf-8")
    assert main(["baseline", "import", str(target), "--db", str(tmp_path / "merged.sqlite3")]) == 0


def test_a_store_without_studies_says_so(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "plain.sqlite3"
    Store(path).close()
    assert main(["study", "status", "--db", str(path)]) == 0
    assert "no study in" in capsys.readouterr().err


def test_a_pseudonym_from_outside_reaches_the_terminal_without_its_control_sequences(
        db: str, capsys: pytest.CaptureFixture) -> None:
    with Store(Path(db)) as store:
        join(store, "pilot", "p-\x1b]0;owned\x07\x1b[2J", 7, "en")
    for argv in (["study", "status", "--db", db, "pilot"], ["study", "status", "--db", db, "pilot", "--format", "md"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "p-" in out
