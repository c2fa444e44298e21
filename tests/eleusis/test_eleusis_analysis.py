"""Eleusis's report metrics on a round played move by move, and through tcgtui report."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scipy.stats import binomtest

from tcgtui.cli import main
from tcgtui.engine.core import Match
from tcgtui.engine.eleusis.analysis import quartile, round_facts, sections, wilson
from tcgtui.engine.eleusis.library import compiled
from tests.eleusis.helpers import game, move

RED = "return card.color == 'red'"
WRONG = "return card.suit == 'H'"


def scripted_round():
    """Rule 7 (red): silent wrong (5), silent right (6), wrong guess (7), wrong guess again (7),
    silent right (8), right guess (9)."""
    g = game(7)
    match = Match(g, 11)
    script = [(WRONG, 5, False), (RED, 6, False), (WRONG, 7, True), ("return True", 7, True), (RED, 8, False),
              (RED, 9, True)]
    for code, conf, guess in script:
        card = match.state.legal_moves()[0]
        match.play(move(card, guess=guess, code=code, rule=code, confidence=conf))
    return match.record().to_json()


def test_one_round_read_metric_by_metric():
    facts = round_facts(scripted_round())
    assert facts["score"] == 31 - 6 - 4 and facts["solved"]
    assert facts["no_stakes"] == 31 - 2            # the first right tentative rule, judged silently on turn 2
    assert facts["caution"] == 1                   # turn 5 was right before the winning guess on turn 6
    assert facts["wrong"] == 2 and facts["reckless"] == 1
    assert sorted(facts["judged"]) == [(5, False), (6, True), (7, False), (7, False), (8, True), (9, True)]
    assert facts["ratios"] and all(r > 0 for r in facts["ratios"])


def test_sections_per_player_with_calibration_and_quartiles():
    record = scripted_round()
    games = [SimpleNamespace(record=record, agent="a", lang="en", status="finished")] * 2
    out = sections(games)
    sci = out["science"][0]
    assert sci["rounds"] == 2 and sci["mean_floored"] == 21 and sci["success_rate"] == 1.0
    assert sci["boldness"] == pytest.approx(2 * 2 - 1) and sci["reckless_rate"] == 0.5
    cal = {r["confidence"]: r for r in out["calibration"]}
    assert cal[7]["judged"] == 4 and cal[7]["accuracy_rate"] == 0.0 and cal[7]["guess_rate"] == 1.0
    assert cal[6]["accuracy_rate"] == 1.0 and cal[6]["guess_rate"] == 0.0 and cal[10]["judged"] == 0
    assert cal[6]["calibrated_guess_rate"] == 0.0 and cal[7]["calibrated_guess_rate"] == 1.0
    exact = binomtest(2, 2).proportion_ci(method="exact")            # 2 of 2 solved: not [1, 1]
    assert out["by_rule"] == [{"agent": "a", "lang": "en", "rule": 7, "rounds": 2, "mean_floored": 21.0,
                               "success_rate": 1.0, "ci_low": exact.low, "ci_high": exact.high}]
    assert (sci["ci_low"], sci["ci_high"]) == (exact.low, exact.high) and exact.low < 0.2
    assert out["by_quartile"][0]["quartile"] == quartile(7)


def test_quartiles_split_the_library_by_complexity():
    q = [quartile(n) for n in range(26)]
    assert sorted(set(q)) == [1, 2, 3, 4] and all(5 <= q.count(k) <= 8 for k in range(1, 5))
    simplest = min(range(26), key=lambda n: compiled(n).complexity)
    assert quartile(simplest) == 1 and quartile(25) == 4
    lo, hi = wilson(5, 10)
    assert lo < 0.5 < hi and wilson(0, 0) == (None, None)


def test_report_command_shows_the_sections(tmp_path, capsys):
    db = str(tmp_path / "r.sqlite3")
    assert main(["bench", "--game", "eleusis", "--agent", "scientist", "--rules", "7", "--seeds", "2",
                 "--db", db]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", db, "--format", "json"]) == 0
    import json
    report = json.loads(capsys.readouterr().out)
    text = json.dumps(report)
    assert "science" in text and "calibration" in text and "by_quartile" in text


def test_each_player_is_set_beside_the_reference_on_the_same_rounds():
    record = scripted_round()
    other = dict(record, seed=record["seed"] + 1)
    best = dict(record, outcome={"winner": None, "reason": "solved", "scores": [27.0]})
    games = [SimpleNamespace(record=record, agent="llm:x", lang="en", status="finished"),
             SimpleNamespace(record=other, agent="llm:x", lang="en", status="finished"),
             SimpleNamespace(record=best, agent="scientist", lang="en", status="finished")]
    rows = sections(games)["reference"]
    assert rows == [{"agent": "llm:x", "lang": "en", "paired_rounds": 1, "mean_floored": 21.0,
                     "reference_floored": 27.0, "gap": -6.0}]



def test_the_reference_is_paired_within_the_group_the_report_gave_it():
    record = scripted_round()
    best = dict(record, outcome={"winner": None, "reason": "solved", "scores": [27.0]})
    games = [SimpleNamespace(record=record, agent="llm:x [protocol=seed]", lang="en", status="finished"),
             SimpleNamespace(record=record, agent="llm:x [protocol=tcgtui]", lang="en", status="finished"),
             SimpleNamespace(record=best, agent="scientist [protocol=seed]", lang="en", status="finished")]
    rows = sections(games)["reference"]
    assert [(r["agent"], r["paired_rounds"], r["gap"]) for r in rows] == [("llm:x [protocol=seed]", 1, -6.0)]

def test_report_plot_draws_calibration_and_guess_rate(tmp_path, capsys):
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    db, png = str(tmp_path / "r.sqlite3"), tmp_path / "calibration.png"
    with ChatServer(policy=game_policy("eleusis", 3, rule="return card.suit == 'H'", guess_from=3, confidence=8)) as server:
        assert main(["bench", "--game", "eleusis", "--agent", "llm:fake", "--base-url", server.base_url,
                     "--rules", "7", "--seeds", "1", "--db", db, "--param", "guess_format=code"]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", db, "--plot", str(png)]) == 0
    assert png.stat().st_size > 10_000 and "calibration.png (1 line)" in capsys.readouterr().err


def test_the_report_parse_columns_are_the_paths_eleusis_reports(tmp_path, capsys):
    """Eleusis reads a reply's <ACTION> block: the llm section shows that path, not the card game's tags."""
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    db = str(tmp_path / "r.sqlite3")
    replies = ["no block here"]           # the first reply is unreadable: one "none" among the "action" paths
    with ChatServer(script=replies, policy=game_policy("eleusis", 3, rule="return card.suit == 'H'")) as server:
        assert main(["bench", "--game", "eleusis", "--agent", "llm:fake", "--base-url", server.base_url,
                     "--rules", "7", "--seeds", "1", "--db", db, "--param", "guess_format=code"]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", db, "--format", "json"]) == 0
    import json as _json
    [row] = _json.loads(capsys.readouterr().out)["llm"]
    assert set(k for k in row if k.startswith("parse_")) == {"parse_action", "parse_none"}
    assert row["parse_action"] > 0.9 and 0 < row["parse_none"] < 0.1
    assert main(["report", "--game", "eleusis", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "From the ACTION block" in out and "arsed from tags" not in out
