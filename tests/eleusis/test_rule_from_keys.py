"""A run fixed to one rule and a run that draws its rule game by game are different measurements:
each game records where its rule came from (``rule_from``) and every report table keeps them apart,
while runs of one kind and equal settings still pool; a bench game stored before it has it read
from its run.  Games are played by ``tcgtui bench`` into a
real store and read back by ``tcgtui report``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.engine.eleusis.bench import rule_set_text
from tcgtui.engine.eleusis.game import drawn_rule

SPEC = registry.get("eleusis")
TABLES = ("scores", "science", "calibration", "by_rule", "by_quartile", "decisions")


def bench(db: Path, run: str, *extra: str, games: str = "3", seed: str = "7") -> None:
    assert main(["bench", "--game", "eleusis", "--agent", "random", "--games", games, "--seed", seed,
                 "--param", "max_turns=4", "--run", run, "--db", str(db), *extra]) == 0


def report(db: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", str(db), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def rows(found: dict) -> dict[str, int]:
    return {r["agent"]: r["finished"] for r in found["scores"]}


def players(found: dict, table: str) -> set[str]:
    return {r["agent"] for r in found[table]}


def test_a_fixed_rule_run_and_a_drawn_run_are_rows_of_their_own_in_every_table(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "drawn")
    bench(db, "fixed", "--param", "rule=5")
    bench(db, "sweep", "--rules", "5", "--seeds", "2")            # the same one rule, as a sweep gives it
    found = report(db, capsys)
    assert rows(found) == {"random [rule_from=drawn]": 3, "random [rule_from=5]": 5}
    assert found["varied"] == "rule_from"
    for table in TABLES:
        assert players(found, table) == {"random [rule_from=drawn]", "random [rule_from=5]"}, table
    # the per-rule table too: a fixed run's rule 5 is not pooled with a drawn game that drew 5
    fixed = [r for r in found["by_rule"] if r["agent"] == "random [rule_from=5]"]
    assert [(r["rule"], r["rounds"]) for r in fixed] == [(5, 5)]
    drawn = sum(r["rounds"] for r in found["by_rule"] if r["agent"] == "random [rule_from=drawn]")
    assert drawn == 3
    # --by run kept them apart before; it still does, each run its own row
    assert set(rows(report(db, capsys, "--by", "run"))) == {
        "random [run=drawn, rule_from=drawn]", "random [run=fixed, rule_from=5]", "random [run=sweep, rule_from=5]"}


def test_two_drawn_runs_pool_and_two_sweeps_of_one_rule_set_pool(tmp_path, capsys):
    db = tmp_path / "k.sqlite3"
    bench(db, "drawn-a")
    bench(db, "drawn-b", seed="8", games="2")
    assert rows(report(db, capsys)) == {"random": 5}                  # nothing differs: no key in the name
    bench(db, "all", "--rules", "all", "--seeds", "1")
    bench(db, "all-spelt", "--rules", "0-25", "--seeds", "1", seed="9")
    bench(db, "other", "--param", "rule=6", games="2")
    assert rows(report(db, capsys)) == {"random [rule_from=drawn]": 5, "random [rule_from=0-25]": 52,
                                        "random [rule_from=6]": 2}


def test_games_stored_before_rule_from_are_read_from_their_run_and_else_their_own_key(tmp_path, capsys):
    """An old game's stored rule is the one it played, drawn or given: a bench game's run says how it
    was given (its identity: the run's rule, or its --rules), and a game outside a run, which cannot
    be told, pools with neither a drawn run nor a fixed one."""
    db = tmp_path / "k.sqlite3"
    bench(db, "old-drawn")
    bench(db, "old-fixed", "--param", "rule=5", games="2")
    bench(db, "old-sweep", "--rules", "0-1", "--seeds", "1")
    bench(db, "old-loose", seed="9", games="2")
    with sqlite3.connect(db) as c:          # as a store written before the game recorded rule_from
        c.execute("UPDATE games SET game_params = json_remove(game_params, '$.rule_from'),"
                  " record_json = json_remove(record_json, '$.setup.rule_from')")
        assert c.execute("SELECT count(*) FROM games WHERE game_params LIKE '%rule_from%'"
                         " OR record_json LIKE '%rule_from%'").fetchone() == (0,)
        assert c.execute("SELECT count(*) FROM runs WHERE config_json LIKE '%rule_from%'").fetchone() == (0,)
        c.execute("UPDATE games SET run_id = NULL WHERE run_id = (SELECT id FROM runs WHERE name = 'old-loose')")
    before = report(db, capsys)
    assert rows(before) == {"random [rule_from=drawn]": 3, "random [rule_from=5]": 2,
                            "random [rule_from=0-1]": 2, "random [rule_from=-]": 2}
    bench(db, "new-drawn", seed="8")
    bench(db, "new-fixed", "--param", "rule=5", seed="8", games="2")
    assert rows(report(db, capsys)) == {"random [rule_from=drawn]": 6, "random [rule_from=5]": 4,
                                        "random [rule_from=0-1]": 2, "random [rule_from=-]": 2}
    settings = report(db, capsys, "--settings")["params"]
    assert {r["run"]: r["rule_from"] for r in settings} == {
        "old-drawn": "drawn", "old-fixed": "5", "old-sweep": "0-1", "-": "-", "new-drawn": "drawn", "new-fixed": "5"}
    with sqlite3.connect(db) as c:          # read, not rewritten
        assert c.execute("SELECT count(*) FROM games WHERE game_params LIKE '%rule_from%'").fetchone() == (5,)


def test_the_record_says_how_the_rule_was_chosen_and_rebuilds_the_same_round():
    for given, expected in (({}, "drawn"), ({"rule": 5}, "5"), ({"rule_code": "return True"}, "code")):
        game = SPEC.game(given)
        record = Match(game, 3).record()
        assert record.setup["rule_from"] == expected
        again = SPEC.game(SPEC.info.resolve(record.setup))      # a replay or a resume from the record
        assert again.deal_setup(3) == record.setup
    assert SPEC.game({}).deal_setup(3)["rule"] == drawn_rule(3)
    assert "rule_from" not in SPEC.game({"rule": 5}).public().deal_setup(3)   # "5" would name the rule
    assert "rule_from" not in SPEC.game({"rule": 5}).setup()         # a run's identity is as it was


def test_rule_sets_are_one_word_and_a_rule_from_that_contradicts_the_rule_is_refused():
    assert rule_set_text(list(range(26))) == "0-25"
    assert rule_set_text([9, 0, 1, 2, 5, 1]) == "0-2,5,9"
    assert SPEC.game({"rule": 5, "rule_from": "all"}).rule_from == "0-25"
    for given in ({"rule": 5, "rule_from": "6"}, {"rule": 5, "rule_from": "code"},
                  {"rule_code": "return True", "rule_from": "drawn"}, {"rule": 5, "rule_from": "five"}):
        with pytest.raises(ValueError, match="rule_from="):
            SPEC.game(given)
