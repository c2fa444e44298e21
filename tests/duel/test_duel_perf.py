"""``tcgtui perf --only sandbox --quick``: the sandbox's figures come out, and are plausible."""

from __future__ import annotations

import json

from tcgtui.cli import main


def test_the_sandbox_benchmark_runs_quick(capsys):
    assert main(["perf", "--quick", "--only", "sandbox", "--json"]) == 0
    metrics = {m["name"]: m for m in json.loads(capsys.readouterr().out)["results"]["sandbox"]}
    assert 0 < metrics["check_seconds"]["value"] < 5
    assert metrics["checks_per_second"]["value"] > 0
    assert 0 < metrics["duel_move_ms"]["value"] < 50
