"""The seed's protocol as one bench sweep: every rule of --rules on the same --seeds deals."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tcgtui.cli import main
from tcgtui.engine.eleusis.bench import parse_rules, plan
from tcgtui.opponents.llm.testserver import ChatServer, game_policy


def test_all_rules_three_seeds_is_78_rounds_on_shared_deals():
    count, round_of, described = plan({"eleusis_rules": "all", "eleusis_seeds": None}, {"guess_format": "code"})
    assert count == 78 and described == {"rules": list(range(26)), "seeds": 3}
    rounds = [round_of(i) for i in range(count)]
    assert [p["rule"] for p, _ in rounds] == [r for r in range(26) for _ in range(3)]
    assert [d for _, d in rounds] == [0, 1, 2] * 26 and all(p["guess_format"] == "code" for p, _ in rounds)
    assert parse_rules("0-2,9,1") == [0, 1, 2, 9]
    assert plan({"eleusis_rules": None, "eleusis_seeds": None}, {}) is None
    for bad in ("26", "x", "3-1", "-1"):
        with pytest.raises(ValueError):
            parse_rules(bad)


def rows(db, agent):
    with sqlite3.connect(db) as c:
        return [(i, seed, json.loads(params)["rule"], score, reason) for i, seed, params, score, reason in
                c.execute("select game_index, seed, game_params, score, reason from games where agent = ? "
                          "order by game_index", (agent,))]


def test_bench_plays_each_rule_on_the_same_deals(tmp_path, capsys):
    db = tmp_path / "b.sqlite3"
    assert main(["bench", "--game", "eleusis", "--agent", "random", "--agent", "scientist", "--rules", "5,16",
                 "--seeds", "2", "--db", str(db), "--param", "guess_format=code"]) == 0
    got, science = rows(db, "random"), rows(db, "scientist")
    assert [r[2] for r in got] == [5, 5, 16, 16] and [r[1] for r in got] == [r[1] for r in science]
    assert got[0][1] == got[2][1] and got[1][1] == got[3][1] and got[0][1] != got[1][1]
    assert all(r[3] == 0 for r in got) and all(r[4] == "solved" for r in science)


def test_an_llm_bench_in_the_code_format_through_the_test_server(tmp_path, capsys):
    db = tmp_path / "b.sqlite3"
    with ChatServer(policy=game_policy("eleusis", 3, rule="return card.color == 'red'", guess_from=2, confidence=8)) as server:
        assert main(["bench", "--game", "eleusis", "--agent", "llm:fake", "--base-url", server.base_url,
                     "--rules", "7", "--seeds", "2", "--db", str(db), "--guess-format", "code",
                     "--concurrency", "1"]) == 0
    got = rows(db, "llm:fake")
    # the fake model guesses from its second reply on: turn 2 of the first round, turn 1 of the second
    assert [(r[2], r[3], r[4]) for r in got] == [(7, 29.0, "solved"), (7, 30.0, "solved")]
    summary = capsys.readouterr().out          # a score game: score lines, not wins/draws/losses
    assert "mean score" in summary and "29.50" in summary and "draws" not in summary and "win rate" not in summary
    row = next(line for line in summary.splitlines() if "llm:fake" in line)
    cells = [c.strip() for c in row.split("\u2502") if c.strip()]
    assert cells[-4:] == ["29", "30", "2/2", f"[{0.025 ** 0.5:.2f}, 1.00]"] and "opponent" not in summary


@pytest.mark.parametrize("argv,needle", [
    (["--game", "eleusis", "--rules", "40"], "--rules 40"),
    (["--game", "eleusis", "--seeds", "2"], "--seeds goes with --rules"),
    (["--game", "tictactoe", "--rules", "all"], "--rules is not a flag of tictactoe"),
    (["--game", "eleusis", "--agent", "llm:m", "--base-url", "http://127.0.0.1:9/v1", "--rules", "1"], "--judge"),
])
def test_bad_round_flags_are_one_line(tmp_path, capsys, argv, needle):
    args = ["bench", "--db", str(tmp_path / "b.sqlite3"), *argv]
    if "--agent" not in argv:
        args += ["--agent", "random"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1


def test_free_text_guesses_without_a_translator_refuse_to_start(tmp_path, capsys):
    assert main(["bench", "--game", "eleusis", "--agent", "llm:fake", "--base-url", "http://127.0.0.1:9/v1",
                 "--rules", "7", "--seeds", "1", "--db", str(tmp_path / "b.sqlite3"), "--guess-format", "text"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--judge" in err[0]
