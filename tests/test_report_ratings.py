"""Bradley–Terry ratings, the round-robin sections, and reports of games other than the card game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tcgtui.cli import main
from tcgtui.report import analyses
from tcgtui.report.data import StoredGame
from tcgtui.report.ratings import expected, fit, ratings
from tcgtui.store import Store
from tests.store_helpers import add_game


def _simulate(true: dict[str, float], per_pair: int, seed: int = 1) -> list[tuple[str, str, float]]:
    rng = np.random.default_rng(seed)
    out = []
    names = sorted(true)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = expected(true[a], true[b])
            out += [(a, b, 1.0 if u < p else 0.0) for u in rng.random(per_pair)]
    return out


def test_known_strengths_are_recovered_and_the_mean_is_1000() -> None:
    true = {"a": 1200.0, "b": 1100.0, "c": 900.0, "d": 800.0}
    got = fit(_simulate(true, 1000))
    assert np.mean(list(got.values())) == pytest.approx(1000, abs=1e-6)
    for name, r in true.items():
        assert got[name] == pytest.approx(r, abs=25)
    rows = ratings(_simulate(true, 300), resamples=50)
    assert [r.player for r in rows] == ["a", "b", "c", "d"]
    assert all(r.ci_low < r.rating < r.ci_high for r in rows)


def test_symmetric_results_give_equal_ratings() -> None:
    results = [("a", "b", 1.0), ("b", "a", 1.0), ("a", "b", 0.5), ("b", "c", 1.0), ("c", "b", 1.0),
               ("c", "a", 1.0), ("a", "c", 1.0)]
    got = fit(results)
    assert got["a"] == pytest.approx(1000, abs=1e-3) and got["b"] == pytest.approx(1000, abs=1e-3)


def test_a_player_who_never_loses_gets_a_finite_rating() -> None:
    got = fit([("a", "b", 1.0)] * 50 + [("a", "c", 1.0)] * 50 + [("b", "c", 0.5)] * 10)
    assert np.isfinite(got["a"]) and 1000 < got["a"] < 3000 and got["a"] > got["b"]


def test_bootstrap_is_seeded() -> None:
    results = _simulate({"a": 1100.0, "b": 1000.0, "c": 900.0}, 40)
    assert ratings(results, resamples=30, seed=3) == ratings(results, resamples=30, seed=3)


def _rr_store(path: Path) -> None:
    with Store(path) as store:
        run = store.create_run("rr", {}).id
        i = 0
        for a, b, wins in (("x", "y", 8), ("x", "z", 9), ("y", "z", 6)):
            for k in range(10):
                add_game(store, run, a, b, "en", i, result="win" if k < wins else ("draw" if k == wins else "loss"))
                i += 1


def test_round_robin_sections(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "rr.sqlite3"
    _rr_store(path)
    assert main(["report", "--db", str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cell = [r for r in out["matrix"] if (r["agent"], r["opponent"]) == ("x", "y")][0]
    assert cell["games"] == 10 and cell["score_share"] == pytest.approx(0.85)
    assert [r["agent"] for r in out["ratings"]] == ["x", "y", "z"]
    assert np.mean([r["rating"] for r in out["ratings"]]) == pytest.approx(1000, abs=1e-6)
    assert {r["role"] for r in out["ratings_by_role"]} == {"first", "second"}
    assert any("Bradley–Terry" in n for n in out["notes"])
    assert main(["report", "--db", str(path), "--table", "ratings"]) == 0
    assert "Ratings" in capsys.readouterr().out


def test_not_a_round_robin_has_no_ratings() -> None:
    g = StoredGame("1", "r", "a", "mc:1", "en", 0, 0, "finished", 0, 5, seats=("a", "mc:1"))
    assert analyses.round_robin_games([g]) == []


def test_unknown_game_and_missing_seed_format_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "rr.sqlite3"
    _rr_store(path)
    assert main(["report", "--db", str(path), "--game", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nope' is not a game; games: tcg" in err
    assert main(["report", "--db", str(path), "--format", "seed", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "has no seed output format" in err
    assert main(["report", "--db", str(path), "--table", "nope"]) == 2
    assert "no table 'nope'" in capsys.readouterr().err


def test_errors_and_decisions_are_available_for_the_card_game(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "e.sqlite3"
    with Store(path) as store:
        run = store.create_run("r", {}).id
        add_game(store, run, "a", "b", "en", 0, status="errored")
        add_game(store, run, "a", "b", "en", 1, result="win", moves=[("c", "spell", 2.0, 10, {}),
                                                                   ("!illegal", None, 1.0, None, {})])
    assert main(["report", "--db", str(path), "--format", "json", "--table", "errors"]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == [{"error": "boom", "games": 1, "agents": "a"}]
    assert main(["report", "--db", str(path), "--format", "json", "--table", "decisions"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["decisions"]
    assert row["invalid_moves"] == 1 and row["invalid_share"] == 0.5 and row["mean_tokens"] == 10
