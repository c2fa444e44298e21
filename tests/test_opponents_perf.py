"""The search benchmarks run and report what ``tcgtui perf`` promises (speed itself is not tested)."""

from __future__ import annotations

import json

from tcgtui.cli import main


def test_search_benchmarks_report_their_metrics(capsys):
    assert main(["perf", "--quick", "--only", "playouts", "--only", "mc_decision", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    names = {m["name"]: m for metrics in results.values() for m in metrics}
    for key in ("reference_playouts_per_second", "fast_playouts_per_second", "fast_speedup",
                "mc_1000_p50", "mc_1000_p95", "mcts_4000_p50", "mcts_4000_p95"):
        assert names[key]["value"] > 0 and names[key]["note"]
    assert "4:" in names["mc_1000_p50"]["note"]      # the hand sizes are stated
