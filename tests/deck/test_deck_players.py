"""Players of the quiz: a model through a real local server in both languages (every
extraction path recorded), random, the simulation oracle; and the report of all of them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


from tcgtui.cli import main
from tcgtui.opponents.llm.testserver import ChatServer, game_policy


def bench(db: Path, *extra: str) -> int:
    return main(["bench", "--game", "deck", "--games", "12", "--db", str(db), "--concurrency", "2", *extra])


def test_a_model_answers_a_question_set_in_both_languages(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    with ChatServer(policy=game_policy("deck", 3, forms=("answer", "letter", "boxed", "none"))) as server:
        for lang, qset in (("en", "frontier-sample"), ("ar", "frontier-sample-ar")):
            assert bench(db, "--agent", "llm:fake-model", "--lang", lang, "--param", f"questions={qset}",
                         "--base-url", server.base_url, "--run", f"llm-{lang}") == 0
        prompts = [r.json["messages"][-1]["content"] for r in server.requests]
    assert any("ANSWER: X" in p and "مجموعة" in p for p in prompts)                        # Arabic prompts
    assert any("completes the deck" in p for p in prompts)                                # English prompts
    rows = sqlite3.connect(db).execute(
        "SELECT g.lang, g.score, g.record_json, d.info_json FROM games g JOIN decisions d ON d.game_id = g.id").fetchall()
    assert len(rows) == 24 and {r[0] for r in rows} == {"en", "ar"}
    paths = set()
    for lang, score, record, info in rows:
        info, record = json.loads(info), json.loads(record)
        paths.add(info["parse_path"])
        reveal = next(e for e in record["events"] if e["kind"] == "reveal")
        reply = info["attempts"][0]["reply"]
        if info["parse_path"] == "none":
            assert reveal["chosen"] == "" and score == 0
        else:
            assert reveal["chosen"] in reply and score == float(reveal["chosen"] == reveal["answer"])
    assert paths == {"answer", "letter", "boxed", "none"}
    capsys.readouterr()
    assert main(["report", "--game", "deck", "--db", str(db), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    text = json.dumps(report)
    accuracy = report["sections"]["accuracy"] if "sections" in report else report["accuracy"]
    assert {(r["questions"], r["lang"]) for r in accuracy} == {("frontier-sample", "en"),
                                                               ("frontier-sample-ar", "ar")}
    assert all(r["n"] == 12 and r["low"] <= r["accuracy"] <= r["high"] for r in accuracy)
    assert "paths" in text and "letters" in text


def test_the_oracle_finds_the_answer_of_a_clear_question() -> None:
    """An independent simulation (the oracle's own seeds) re-verifies the answer of the sample
    question with the widest margin that ``deck make`` measured."""
    from tcgtui.arena import load_resources
    from tcgtui.engine import registry
    from tcgtui.engine.deck.players import answer
    spec = registry.get("deck")
    game = spec.make(load_resources(spec, spec.info.resolve()))
    q = max(game.qset.questions, key=lambda q: q.margin)
    assert q.margin > 0.05
    best, rates = answer(q.public(), game.qset.packs, 1600, seed=987_654)
    assert "ABCDEF"[best] == q.answer, rates


def test_random_and_the_oracle_play_the_quiz_in_a_bench(tmp_path: Path, capsys) -> None:
    db = tmp_path / "t.sqlite3"
    assert bench(db, "--agent", "random", "--agent", "oracle:40") == 0
    scores = dict(sqlite3.connect(db).execute("SELECT agent, AVG(score) FROM games GROUP BY agent").fetchall())
    assert set(scores) == {"random", "oracle:40"}
    capsys.readouterr()
    assert main(["report", "--game", "deck", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "oracle:40" in out and "random" in out
