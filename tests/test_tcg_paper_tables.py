"""The card game's paper tables and figures on small known stores: the size–performance correlation
(each model once), the models' means without the baselines, Table 2's totals with turns per player,
the branching factor replayed from stored games, and Figures 2 and 5 (language gap against size,
thinking against regular mode)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.report import analyses, plot
from tcgtui.report.data import load_games
from tcgtui.report.extra import Context, model_facts
from tcgtui.store import Store
from tests.store_helpers import add_game

# model -> (size in billions, mode or None); each plays 10 games per language against mc:1 and mc:2
MODELS = {"llm:q4": (4, None), "llm:q32": (32, None), "llm:q235": (235, None),
          "llm:g": (20, "regular"), "llm:g-think": (20, "thinking")}
# (model, lang, K) -> wins of 10
WINS = {("llm:q4", "en", 1): 3, ("llm:q4", "ar", 1): 3, ("llm:q32", "en", 1): 6, ("llm:q32", "ar", 1): 3,
        ("llm:q235", "en", 1): 4, ("llm:q235", "ar", 1): 2, ("llm:g", "en", 1): 5, ("llm:g", "en", 2): 4,
        ("llm:g-think", "en", 1): 7, ("llm:g-think", "en", 2): 2, ("random", "en", 1): 1, ("random", "en", 2): 0,
        ("llm:q4", "en", 2): 2, ("llm:q32", "en", 2): 4, ("llm:q235", "en", 2): 3}
TURNS = {"en": 22, "ar": 30}     # each game's turns (both players'), by language


def _facts(model: str) -> dict:
    size, mode = MODELS[model]
    facts = {"family": "Gemini" if model.startswith("llm:g") else "Qwen3", "organisation": "Org",
             "parameters_b": size, "weights": "open"}
    return {**facts, "mode": mode} if mode else facts


def _store(path: Path, *, modes: bool = True) -> None:
    with Store(path) as store:
        players = {m: {lang: {"spec": m, "facts": _facts(m) if modes else {
            k: v for k, v in _facts(m).items() if k != "mode"}} for lang in ("en", "ar")} for m in MODELS}
        run = store.create_run("paper", {"players": players}).id
        i = 0
        for (agent, lang, k), wins in WINS.items():
            for j in range(10):
                moves = [("c1", "champion", 1.0 + j, 100, {}), ("c2", "spell", 3.0, 300, {})]
                add_game(store, run, agent, f"mc:{k}", lang, i, result="win" if j < wins else "loss",
                         turns=TURNS[lang], moves=moves)
                i += 1


def _json(capsys: pytest.CaptureFixture, db: Path, table: str) -> list[dict]:
    capsys.readouterr()
    assert main(["report", "--db", str(db), "--table", table, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)[table]


def test_sizes_count_each_model_once_and_give_the_overall_correlation(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite3"
    _store(db)
    rows = {(r["size_range"], r["opponent"], r["lang"]): r for r in _json(capsys, db, "sizes")}
    # en at K=1: five models (random is a baseline, not counted); ar: the three Qwen3 models
    assert rows[("all", "mc:1", "en")]["models"] == 5 and rows[("all", "mc:1", "ar")]["models"] == 3
    assert rows[("<10B", "mc:1", "en")]["models"] == 1 and rows[("10-50B", "mc:1", "en")]["models"] == 3
    sizes, rates = [4, 32, 235, 20, 20], [0.3, 0.6, 0.4, 0.5, 0.7]
    assert rows[("all", "mc:1", "en")]["pearson_r"] == pytest.approx(np.corrcoef(sizes, rates)[0, 1])
    assert rows[("all", "mc:1", "ar")]["pearson_r"] == pytest.approx(np.corrcoef([4, 32, 235], [0.3, 0.3, 0.2])[0, 1])
    assert not any(r["size_range"] == "no facts" for r in rows.values())


def test_paper_scaling_leaves_the_baselines_out_of_the_models_mean(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite3"
    _store(db)
    rows = {(r["k"], r["lang"]): r for r in _json(capsys, db, "paper_scaling")}
    assert rows[(1, "en")]["models"] == 5
    assert rows[(1, "en")]["mean_win_rate"] == pytest.approx(np.mean([0.3, 0.6, 0.4, 0.5, 0.7]))
    assert rows[(2, "en")]["mean_win_rate"] == pytest.approx(np.mean([0.2, 0.4, 0.3, 0.4, 0.2]))


def test_table_2_totals_count_turns_per_player(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite3"
    _store(db)
    (row,) = _json(capsys, db, "paper_summary")
    assert (row["run"], row["games"], row["models"], row["players"], row["languages"], row["levels"]) == (
        "paper", 150, 5, 6, 2, 2)
    turns = [TURNS[lang] for (_, lang, _) in WINS for _ in range(10)]
    assert row["mean_turns"] == pytest.approx(np.mean(turns))
    assert row["mean_turns_per_player"] == pytest.approx(np.mean(turns) / 2)
    assert row["median_decision_s"] == 3.0 and row["mean_tokens_per_turn"] == 200
    assert row["branching_factor"] is None          # games made by hand have no moves to replay


def test_figures_2_and_5_read_the_store(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "t.sqlite3"
    _store(db)
    gaps = _json(capsys, db, "language_scale")
    assert [(r["agent"], r["parameters_b"], r["relative_gap"]) for r in gaps] == [
        ("llm:q4", 4.0, pytest.approx(0.0)), ("llm:q32", 32.0, pytest.approx(0.5)),
        ("llm:q235", 235.0, pytest.approx(0.5))]
    modes = {(r["mode"], r["k"]): r for r in _json(capsys, db, "thinking")}
    assert set(modes) == {("regular", 1), ("regular", 2), ("thinking", 1), ("thinking", 2)}
    assert modes[("thinking", 1)]["win_rate"] == 0.7 and modes[("regular", 2)]["ci_low"] == pytest.approx(0.12155, abs=1e-4)
    assert main(["report", "--db", str(db), "--plot", str(tmp_path / "figs")]) == 0
    for name in ("language_scale.png", "thinking.png"):
        data = (tmp_path / "figs" / name).read_bytes()
        assert data[:4] == b"\x89PNG" and len(data) > 10_000
    with Store(db) as store:
        facts = model_facts(store.runs())
        games = load_games(store, None)
    report = analyses.build(games, registry.get("tcg"), by=("protocol",), context=Context(facts))
    assert plot.figure(report, "thinking", tmp_path / "t.png") == 2           # a line per mode
    assert plot.figure(report, "language_scale", tmp_path / "l.png") == 1     # Qwen3, mc:1, ar
    other = tmp_path / "no_modes.sqlite3"
    _store(other, modes=False)
    assert main(["report", "--db", str(other), "--plot", str(tmp_path / "figs2")]) == 0
    assert not (tmp_path / "figs2" / "thinking.png").exists() and (tmp_path / "figs2" / "language_scale.png").exists()


def test_branching_factor_from_replayed_games(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "b.sqlite3"
    assert main(["bench", "--agent", "random", "--vs", "random", "--games", "4", "--seed", "3",
                 "--db", str(db)]) == 0
    (row,) = _json(capsys, db, "branching")
    with Store(db) as store:
        stored = store.games()
        moves = sum(g.moves for g in stored)
        own = sum(1 for g in stored for d in store.decisions(g.id) if d.seat == g.agent_seat)
    assert row["games"] == 4 and row["decisions"] == moves
    assert 1.0 <= row["own_branching_factor"] <= 10 and 1.0 <= row["branching_factor"] <= 10
    (summary,) = _json(capsys, db, "paper_summary")
    assert summary["branching_factor"] == pytest.approx(row["branching_factor"]) and summary["models"] == 0
    counts = Context().legal_moves
    assert counts is None and own > 0
