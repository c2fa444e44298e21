"""The Eleusis paper's Figures 2, 3, 4 and 8 as report tables and ``--plot DIR`` figures, on a fixture
run in the seed's shape imported by ``tcgtui eleusis import`` (the published run's figures are quoted
in docs/protocols.md)."""

from __future__ import annotations

import json

import pytest

from tcgtui.cli import main
from tests.eleusis.test_seed_results_import import LOST, QUICK, SOLVED, evaluation, imported, released, round_, turn

# 28 quiet turns, then a wrong guess on turn 29: a positive score is out of reach from there (2 x 1 >= 30 - 29),
# so the seed's analysis does not count that guess, nor would it count a win after it
LATE = round_(0, 1, [turn(n, "2♣", False) for n in range(1, 29)]
              + [turn(29, "3♣", False, tentative="x", confidence=9, guess=True, verdict=False)], -2, False, 1, 29)
FIGURES = ("score_breakdown", "boldness_tradeoff", "score_boldness", "rule_scores")


@pytest.fixture
def store(tmp_path, capsys):
    db, _ = imported(tmp_path, capsys, released(tmp_path, {"a": evaluation("Model A", [SOLVED, LOST]),
                                                           "b": evaluation("Model B", [QUICK, LATE])}))
    return db


def tables(capsys, db):
    capsys.readouterr()
    out = {}
    for name in FIGURES:
        assert main(["report", "--game", "eleusis", "--db", str(db), "--table", name, "--format", "json"]) == 0
        out[name] = {(r["agent"], r.get("rule")): r for r in json.loads(capsys.readouterr().out)[name]} \
            if name != "rule_scores" else json.loads(capsys.readouterr().out)[name]
    return out


def test_figure_2_is_the_score_beside_the_no_stakes_score(store, capsys):
    rows = tables(capsys, store)["score_breakdown"]
    # Model A: floored (26 + 0) / 2 = 13; right from turn 1 (a shadow verdict) and never: (30 + 0) / 2 = 15
    assert [rows[("Model A", None)][k] for k in ("mean_floored", "no_stakes", "no_stakes_gain")] == [13, 15, 2]
    assert [rows[("Model B", None)][k] for k in ("mean_floored", "no_stakes", "no_stakes_gain")] == [15, 15, 0]


def test_figures_3_and_4_count_failed_guesses_to_the_seeds_cutoff(store, capsys):
    got = tables(capsys, store)
    a, b = got["boldness_tradeoff"][("Model A", None)], got["boldness_tradeoff"][("Model B", None)]
    assert (a["counted_failed_guesses"], a["caution"], a["boldness"], a["counted_success_rate"]) == (1, 0, 2, 0.5)
    assert (b["counted_failed_guesses"], b["boldness"], b["counted_success_rate"]) == (0, 0, 0.5)  # turn 29 not counted
    assert got["score_boldness"] == got["boldness_tradeoff"]
    assert main(["report", "--game", "eleusis", "--db", str(store), "--table", "science", "--format", "json"]) == 0
    science = {r["agent"]: r for r in json.loads(capsys.readouterr().out)["science"]}
    assert science["Model B"]["failed_guesses"] == 0.5                 # the whole round: tcgtui's own count


def test_figure_8_is_every_rounds_score_by_rule(store, capsys):
    rows = tables(capsys, store)["rule_scores"]
    assert sorted((r["rule"], r["agent"], r["floored"]) for r in rows) == [
        (0, "Model A", 26), (0, "Model B", 0), (5, "Model A", 0), (5, "Model B", 30)]
    assert {r["rule"]: r["rule_success_rate"] for r in rows} == {0: 0.5, 5: 0.5}


def test_plot_dir_draws_the_four_figures(store, tmp_path, capsys):
    folder = tmp_path / "figs"
    assert main(["report", "--game", "eleusis", "--db", str(store), "--plot", str(folder)]) == 0
    for name in FIGURES:
        assert (folder / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["report", "--game", "eleusis", "--list"]) == 0
    listed = capsys.readouterr().out
    assert all(f"Eleusis Figure {n}" in listed for n in (2, 3, 4, 8))
