"""The search benchmarks run and report what ``tcgtui perf`` promises (speed itself is not tested)."""

from __future__ import annotations

import json

import pytest

from tcgtui.cli import main


def test_search_benchmarks_report_their_metrics(capsys):
    assert main(["perf", "--quick", "--only", "playouts", "--only", "mc_decision", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    names = {m["name"]: m for metrics in results.values() for m in metrics}
    for key in ("reference_playouts_per_second", "fast_playouts_per_second", "fast_speedup",
                "mc_1000_p50", "mc_1000_p95", "mcts_4000_p50", "mcts_4000_p95"):
        assert names[key]["value"] > 0 and names[key]["note"]
    assert "4:" in names["mc_1000_p50"]["note"]      # the hand sizes are stated


def test_scoring_decisions_is_timed_in_worker_processes_and_scaled_to_ten_thousand(capsys):
    assert main(["perf", "--quick", "--only", "score_decisions", "--workers", "2", "--json"]) == 0
    metrics = {m["name"]: m for m in json.loads(capsys.readouterr().out)["results"]["score_decisions"]}
    minutes, per = metrics["score_10000_decisions_minutes"], metrics["score_decision_ms"]
    assert minutes["value"] == pytest.approx(per["value"] * 10_000 / 60_000)
    assert "10,000" in minutes["note"] and "8 mid-game positions" in minutes["note"] and "2 worker" in minutes["note"]
    assert metrics["score_10000_decisions_core_minutes"]["value"] > 0
