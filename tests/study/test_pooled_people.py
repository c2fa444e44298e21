"""The ordinary report's pooled ``human`` row counts people, not games: fifty games of one person are
not fifty draws.  Its interval is the person-clustered one, wider than the binomial over games when
people differ, and absent with too few people to say anything of a population."""

from __future__ import annotations

import json
import subprocess
import sys

from tcgtui.engine.stats import clopper_pearson
from tcgtui.store import Store

from tests.study_store import play


def report(db) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "tcgtui", "report", "--game", "tictactoe", "--db", str(db),
                          "--format", "json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["win_rates"]


def test_the_pooled_row_counts_people(tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    with Store(db) as store:
        run = store.create_run("people", {}, kind="human").id
        for p in range(6):                     # three always win, three never: 20 games each
            for i in range(20):
                play(store, run, f"human:p{p}", "random", i, 1000 * p + i, "win" if p < 3 else "loss")
    rows = report(db)
    [pooled] = [r for r in rows if r["agent"] == "human"]
    assert pooled["people"] == 6 and pooled["win_rate"] == 0.5 and pooled["finished"] == 120
    by_games = clopper_pearson(60, 120)
    assert pooled["ci_low"] < by_games[0] - 0.1 and pooled["ci_high"] > by_games[1] + 0.1
    alone = [r for r in rows if r["agent"] == "human:p0"]
    assert alone[0]["people"] is None and alone[0]["ci_low"] == clopper_pearson(20, 20)[0]


def test_too_few_people_give_the_pooled_row_no_interval(tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    with Store(db) as store:
        run = store.create_run("people", {}, kind="human").id
        for p in range(2):
            for i in range(30):
                play(store, run, f"human:p{p}", "random", i, 100 * p + i, "win" if i % 2 else "loss")
    [pooled] = [r for r in report(db) if r["agent"] == "human"]
    assert pooled["people"] == 2 and pooled["ci_low"] is None and pooled["ci_high"] is None
