"""``tcgtui eleusis import DIR``: the seed's released runs (``results/RUN/*/results.json``) into the store.

The fixture run is written here in the seed's shape (its fields, a few rounds of two made-up
models); the real published run imports the same way (docs/protocols.md quotes its figures).
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from tcgtui.cli import main

NAMES = [f"rule_{n}" for n in range(26)]


def turn(n, card, accepted, *, tentative="", confidence=3, guess=False, verdict=None, shadow=False, tokens=100):
    attempt = None if verdict is None else {"guess": tentative, "correct": verdict, "reasoning": "r",
                                            "guessed_code": "return True", **({"shadow": True} if shadow else {})}
    return {"turn_number": n, "player": "m", "mainline_state": "", "hand": [],
            "llm_response": {"reasoning_summary": "", "card": card, "tentative_rule": tentative,
                             "confidence_level": confidence, "guess_rule": guess},
            "action_result": {"action": "PlayCardAction", "card": card, "accepted": accepted, "success": True},
            "guess_attempt": attempt, "tokens": {"output_tokens": tokens}, "retry_count": 0, "retry_causes": []}


def round_(rule, index, turns, score, success, failed, turn_count):
    return {"round_number": 1, "rule_name": NAMES[rule], "batch_round_index": index, "turn_count": turn_count,
            "rule_code": f"return {rule} >= 0", "success": success, "score": score, "failed_guesses": failed,
            "floored_score": max(0, score), "turns": turns}


# Model A: solved on turn 3 after one wrong guess (a shadow verdict right on turn 1: no-stakes 30), then
# a round lost with one wrong guess (-2, floored 0).  Model B: solved on turn 1 (30).
SOLVED = round_(0, 0, [turn(1, "10♥", True, tentative="red", confidence=6, verdict=True, shadow=True),
                       turn(2, "K♠", False, tentative="black", confidence=8, guess=True, verdict=False),
                       turn(3, "2♦", True, tentative="red", confidence=9, guess=True, verdict=True)], 26, True, 1, 3)
LOST = round_(5, 1, [turn(1, "A♣", False, tentative="odd", confidence=9, guess=True, verdict=False, tokens=300),
                     turn(2, "3♣", True)], -2, False, 1, 2)
QUICK = round_(5, 0, [turn(1, "Q♥", True, tentative="any", confidence=10, guess=True, verdict=True)], 30, True, 0, 1)


def evaluation(player, rounds):
    return {"config": {"player": player, "max_turns": 30, "hand_size": 12, "wrong_guess_penalty": 2, "seed": 42},
            "rounds": rounds, "checkpoint": {"rules_library": [{"name": n, "code": "return True"} for n in NAMES]}}


def released(tmp_path, files=None):
    run = tmp_path / "results" / "260101_3_rounds"
    for folder, data in (files or {"solo_evaluation_a": evaluation("Model A", [SOLVED, LOST]),
                                   "solo_evaluation_b": evaluation("Model B", [QUICK])}).items():
        (run / folder).mkdir(parents=True)
        (run / folder / "results.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return run


def imported(tmp_path, capsys, folder):
    db = tmp_path / "s.sqlite3"
    assert main(["eleusis", "import", str(folder), "--db", str(db)]) == 0
    return db, capsys.readouterr().out


def row(out, name):
    line = next(line for line in out.splitlines() if line.startswith("\u2502 " + name))
    return [c.strip() for c in line.split("\u2502")[1:-1]]


def cell(out, name, column):
    """A row's cell under the column headed ``column`` (columns 0 in every row are left out)."""
    head = next(line for line in out.splitlines() if line.startswith("\u2503"))
    return row(out, name)[[c.strip() for c in head.split("\u2503")[1:-1]].index(column)]


def test_a_released_run_imports_with_its_scores_verdicts_and_means(tmp_path, capsys):
    db, out = imported(tmp_path, capsys, released(tmp_path))
    assert "3 rounds imported, 0 already there, from 2 results files" in out
    with sqlite3.connect(db) as c:
        games = c.execute("SELECT agent, score, reason, turns, game_params, record_json FROM games "
                          "ORDER BY agent, game_index").fetchall()
        kind = c.execute("SELECT kind FROM runs").fetchone()[0]
        tokens = c.execute("SELECT json_extract(info_json, '$.completion_tokens') FROM decisions d "
                           "JOIN games g ON g.id = d.game_id WHERE g.agent = 'Model A' ORDER BY g.game_index, d.idx"
                           ).fetchall()
    assert kind == "import" and [t for (t,) in tokens] == [100, 100, 100, 300, 100]
    assert [(a, s, r, t) for a, s, r, t, _, _ in games] == [("Model A", 26.0, "solved", 3), ("Model A", -2.0, "turns", 2),
                                                          ("Model B", 30.0, "solved", 1)]
    params, record = json.loads(games[0][4]), json.loads(games[0][5])
    assert (params["rule"], params["seed_round"], params["protocol"], params["rule_from"]) == (0, 0, "seed", "0,5")
    verdicts = [(e["kind"], e["turn"], e["correct"]) for e in record["events"] if e["kind"] in ("guess", "silent")]
    assert verdicts == [("silent", 1, True), ("guess", 2, False), ("guess", 3, True)]
    assert [e["card"] for e in record["events"] if e["kind"] == "play"] == ["10H", "KS", "2D"]
    assert main(["report", "--game", "eleusis", "--db", str(db), "--table", "science"]) == 0
    science = capsys.readouterr().out
    # Model A: mean of max(0, score) (26 + 0) / 2 = 13; no-stakes (30 + 0) / 2 = 15; one failed guess a round
    assert row(science, "Model A")[2:4] == ["2", "13"] and row(science, "Model A")[6:8] == ["15", "1"]
    assert row(science, "Model B")[3] == "30"
    assert main(["eleusis", "import", str(tmp_path / "results"), "--db", str(db)]) == 0       # the checkout's results/
    assert "0 rounds imported, 3 already there" in capsys.readouterr().out


def test_imported_means_sit_beside_tcgtuis_own_runs(tmp_path, capsys):
    db, _ = imported(tmp_path, capsys, released(tmp_path))
    assert main(["bench", "--game", "eleusis", "--agent", "scientist", "--protocol", "seed", "--param",
                 "seed_deal=7", "--param", "rule=5", "--games", "1", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "eleusis", "--db", str(db), "--table", "scores"]) == 0
    scores = capsys.readouterr().out
    assert cell(scores, "Model A", "Mean score") == "12" and cell(scores, "Model A", "Mean of max(0, score)") == "13"
    assert row(scores, "scientist")


def bad_files(tmp_path):
    good = evaluation("Model A", [SOLVED])
    wrong_score = evaluation("Model A", [{**SOLVED, "score": 27}])
    return {
        "not JSON": b"{not json",
        "not UTF-8": b'{"config": "\xff"}',
        "an object": json.dumps([1, 2]).encode(),
        "rules_library": json.dumps({**good, "checkpoint": {"rules_library": NAMES[:3]}}).encode(),
        "score": json.dumps(wrong_score).encode(),
        "config.player": json.dumps(evaluation("random", [SOLVED])).encode(),
        "\\x1b": json.dumps(evaluation("Model \x1b[31mA", [SOLVED])).encode(),
        "turns[1].action_result.card": json.dumps(evaluation("M", [{**SOLVED, "turns": [
            {**SOLVED["turns"][0], "action_result": {"card": "11X", "accepted": True}}] + SOLVED["turns"][1:]}]
                                                            )).encode(),
    }


@pytest.mark.parametrize("case", list(bad_files(None)))
def test_junk_gets_one_line_naming_the_file(tmp_path, capsys, case):
    folder = tmp_path / "run" / "solo_evaluation_x"
    folder.mkdir(parents=True)
    (folder / "results.json").write_bytes(bad_files(tmp_path)[case])
    assert main(["eleusis", "import", str(tmp_path / "run"), "--db", str(tmp_path / "s.sqlite3")]) != 0
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "results.json" in err[0] and "Traceback" not in captured.err, captured.err
    assert "\x1b" not in err[0]
    if case in ("score", "rules_library", "config.player", "turns[1].action_result.card"):
        assert case in err[0]
    assert not (tmp_path / "s.sqlite3").exists()               # every file is checked before the store is opened


def test_a_fifo_a_missing_folder_and_a_folder_without_results_get_one_line(tmp_path, capsys):
    fifo = tmp_path / "run" / "m" / "results.json"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    for folder in (tmp_path / "run", tmp_path / "nowhere", tmp_path / "run" / "m" / "results.json" / ".."):
        assert main(["eleusis", "import", str(folder), "--db", str(tmp_path / "s.sqlite3")]) != 0
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in err[0]
    (tmp_path / "empty").mkdir()
    assert main(["eleusis", "import", str(tmp_path / "empty"), "--db", str(tmp_path / "s.sqlite3")]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "results.json" in err[0] and "eleusis-llm-benchmark" in err[0]


def test_text_of_the_file_is_stored_without_control_characters(tmp_path, capsys):
    hostile = round_(0, 0, [turn(1, "Q♥", True, tentative="red\x1b[2J\x07", confidence=10, guess=True, verdict=True)],
                     30, True, 0, 1)
    db, _ = imported(tmp_path, capsys, released(tmp_path, {"m": evaluation("Model A", [hostile])}))
    with sqlite3.connect(db) as c:
        (record,) = c.execute("SELECT record_json FROM games").fetchone()
    assert [(e["kind"], e["rule"]) for e in json.loads(record)["events"] if "rule" in e] == [
        ("play", "red[2J"), ("guess", "red[2J")]
