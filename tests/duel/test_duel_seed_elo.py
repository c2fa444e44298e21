"""The Token Games' Elo as its ``elo.py`` computes them (match, proposer, solver), the proposer–solver
rank correlation and the correlation with other benchmarks' scores (``report --scores FILE``), on duel
logs written for these tests in the released shape and scores in the shape of its ``model-scores.json``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import minimize

from tcgtui.cli import main
from tcgtui.engine.duel.seed_elo import comparisons, correlation, fit
from tests.duel.test_duel_import import DUELS, _round, write_logs

# a third player, so that a correlation over players has something to rank
MORE = (("beta", "gamma", ("failure", "success", "failure", "puzzle-wrong")),
        ("gamma", "alpha", ("failure", "success", "failure", "success")),
        ("gamma", "beta", ("failure", "failure", "failure", "success")))


def _report(capsys, db: str, table: str, *extra: str) -> list[dict]:
    capsys.readouterr()
    assert main(["report", "--game", "duel", "--db", db, "--table", table, "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)[table]


def _store(tmp_path: Path, capsys, duels=DUELS) -> str:
    folder = write_logs(tmp_path / "ttg") if duels is DUELS else tmp_path / "ttg"
    if duels is not DUELS:
        data = folder / "data"
        data.mkdir(parents=True)
        for a, b, outcomes in duels:
            rows = [_round(n, a, b, o) for n, o in enumerate(outcomes)]
            (data / f"{a}_vs_{b}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert main(["duel", "import", str(folder), "--db", db]) == 0
    return db


def _mle(results) -> dict[str, float]:
    """Maximum likelihood without a prior, the first player by name at 1000: an independent check."""
    players = sorted({p for w, l, _ in results for p in (w, l)})
    index = {p: i for i, p in enumerate(players)}

    def nll(free: np.ndarray) -> float:
        r = np.concatenate([[1000.0], free])
        out = 0.0
        for w, l, draw in results:
            p = 1 / (1 + 10 ** ((r[index[l]] - r[index[w]]) / 400))
            out -= 0.5 * (math.log(p) + math.log(1 - p)) if draw else math.log(p)
        return out
    free = minimize(nll, np.full(len(players) - 1, 1000.0), method="Nelder-Mead",
                    options={"xatol": 1e-6, "fatol": 1e-10, "maxiter": 20000}).x
    return dict(zip(players, [1000.0, *free]))


def _duels(duels) -> list:
    return [((a, b), [(r["inventer"], r["solver"], r["outcome"]) for r in
                      (_round(n, a, b, o) for n, o in enumerate(outcomes))]) for a, b, outcomes in duels]


def test_with_enough_comparisons_the_ratings_are_the_maximum_likelihood_closed_form():
    """Alpha and beta: beta wins one duel on points and draws the other (1.5 of 2: 400·log10 3 above
    alpha); beta wins 4 proposer rounds, loses 2, draws 2 (5 of 8); as solver 5 of 8.  Forty times
    over, the seed's descent reaches the maximum."""
    ratings = {kind: fit(results * 40) for kind, results in comparisons(_duels(DUELS)).items()}
    assert {kind: r["alpha"] for kind, r in ratings.items()} == {"match": 1000.0, "proposer": 1000.0, "solver": 1000.0}
    assert ratings["match"]["beta"] == pytest.approx(1000 + 400 * math.log10(3), abs=0.05)
    assert ratings["proposer"]["beta"] == pytest.approx(1000 + 400 * math.log10(5 / 3), abs=0.05)
    assert ratings["solver"]["beta"] == pytest.approx(1000 + 400 * math.log10(5 / 3), abs=0.05)
    for kind, results in comparisons(_duels(DUELS + MORE)).items():
        assert fit(results * 40) == pytest.approx(_mle(results), abs=0.05), kind


def test_with_few_comparisons_the_seeds_descent_stops_short_of_the_maximum(tmp_path, capsys):
    """Its step size is fixed and its iterations counted: two duels leave beta's match rating between
    1000 and the maximum (as the released logs leave a match rating 34 points short)."""
    rows = {r["agent"]: r for r in _report(capsys, _store(tmp_path, capsys), "seed_elo")}
    assert 1000 + 10 < rows["beta"]["match_elo"] < 1000 + 400 * math.log10(3) - 10
    expected = {kind: fit(results) for kind, results in comparisons(_duels(DUELS)).items()}
    assert rows == {p: {"agent": p, **{f"{k}_elo": expected[k][p] for k in expected}} for p in ("alpha", "beta")}


def test_three_players_rank_by_match_rating_and_the_roles_correlate(tmp_path, capsys):
    db = _store(tmp_path, capsys, DUELS + MORE)
    table = _report(capsys, db, "seed_elo")
    rows = {r["agent"]: r for r in table}
    assert [r["agent"] for r in table] == sorted(rows, key=lambda p: -rows[p]["match_elo"])
    (role,) = _report(capsys, db, "role_correlation")
    players = sorted(rows)
    rho = stats.spearmanr([rows[p]["proposer_elo"] for p in players], [rows[p]["solver_elo"] for p in players])[0]
    assert role["players"] == 3 and role["spearman"] == pytest.approx(rho)


def test_an_unbeaten_player_stops_where_the_seeds_iterations_leave_it():
    """No finite maximum exists; the seed's descent stops after its 5000 steps, at a finite rating."""
    few, many = fit([("a", "b", False)] * 3), fit([("a", "b", False)] * 90)
    assert few["a"] == many["a"] == 1000.0 and -math.inf < many["b"] < few["b"] < 1000
    assert fit([("a", "b", True)] * 4) == {"a": 1000.0, "b": pytest.approx(1000.0, abs=1e-6)}


def test_correlation_is_spearmans_and_pearsons_and_none_below_three_players():
    assert correlation([1, 2, 3, 4], [1, 3, 2, 4])["spearman"] == pytest.approx(0.8)   # 1 − 6·2/(4·15)
    assert correlation([1, 2, 3], [2, 4, 6])["pearson"] == pytest.approx(1.0)
    assert correlation([1, 2], [2, 1])["spearman"] is None


@pytest.mark.parametrize("shape", ["released", "readme"])
def test_ratings_correlate_with_the_scores_of_a_file_in_either_shape(tmp_path, capsys, shape):
    db = _store(tmp_path, capsys, DUELS + MORE)
    hle = {"alpha": 0.2, "beta": 0.5, "gamma": 0.3}
    gpqa = {"alpha": 0.9, "beta": 0.7}                                       # gamma has none: left out
    if shape == "released":
        data = [{"id": p, "hle": hle[p], **({"gpqa_diamond": gpqa[p]} if p in gpqa else {}), "note": "x"}
                for p in hle]
    else:
        data = {p: {"hle": hle[p], **({"gpqa_diamond": gpqa[p]} if p in gpqa else {})} for p in hle}
    scores = tmp_path / "model-scores.json"
    scores.write_text(json.dumps(data), encoding="utf-8")
    elo = {r["agent"]: r for r in _report(capsys, db, "seed_elo")}
    rows = {(r["rating"], r["benchmark"]): r for r in _report(capsys, db, "score_correlation", "--scores", str(scores))}
    assert set(rows) == {(f"{k}_elo", b) for k in ("match", "proposer", "solver") for b in ("hle", "gpqa_diamond")}
    players = sorted(hle)
    solver = [elo[p]["solver_elo"] for p in players]
    assert rows[("solver_elo", "hle")]["spearman"] == pytest.approx(stats.spearmanr(solver, [hle[p] for p in players])[0])
    assert rows[("solver_elo", "hle")]["pearson"] == pytest.approx(stats.pearsonr(solver, [hle[p] for p in players])[0])
    assert rows[("match_elo", "gpqa_diamond")]["players"] == 2 and rows[("match_elo", "gpqa_diamond")]["spearman"] is None


@pytest.mark.parametrize("content, needle", [
    (None, "--scores: no such file"),
    ("{not json", "not a JSON file"),
    ('[{"name": "alpha", "hle": 0.2}]', 'expected a list of objects each with an "id"'),
    ('{"alpha": 0.2}', "or an object keyed by model name"),
])
def test_a_bad_scores_file_is_one_line(tmp_path, capsys, content, needle):
    db = _store(tmp_path, capsys)
    scores = tmp_path / "scores.json"
    if content is not None:
        scores.write_text(content, encoding="utf-8")
    capsys.readouterr()
    assert main(["report", "--game", "duel", "--db", db, "--table", "score_correlation", "--scores", str(scores)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and needle in err and "scores.json" in err
