"""ManaBench's published question shape imported with card text, and its protocol (``--protocol seed``).

``manabench/`` holds made-up cards in MTGJSON's AtomicCards shape and two questions in the shape
ManaBench publishes, written for these tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui import locales
from tcgtui.engine.deck.manabench import card, import_question, index
from tcgtui.engine.deck.questions import LETTERS, QuestionError, parse_question
from tcgtui.engine.deck.seed_prompter import KEYS as SEED_KEYS, SeedDeckPrompter, extract
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.store import Store

HERE = Path(__file__).parent / "manabench"
CARDS = json.loads((HERE / "cards.json").read_text(encoding="utf-8"))["data"]
QUESTIONS = json.loads((HERE / "questions.json").read_text(encoding="utf-8"))


def imported(tmp_path: Path, *extra: str) -> Path:
    out = tmp_path / "set.jsonl"
    assert main(["deck", "import", str(HERE / "questions.json"), "--cards", str(HERE / "cards.json"),
                 "--out", str(out), *extra]) == 0
    return out


def test_a_published_question_becomes_a_question_with_every_cards_text():
    q = import_question(QUESTIONS[0], index(CARDS))
    assert q.deck == (("Spark Jab", 4), ("Tide Scholar", 4), ("Gravel Field", 20), ("Mist Pool", 20),
                      ("Quiet Study", 11))
    assert [c.name for c in q.deck_cards] == [n for n, _ in q.deck]
    scholar = q.deck_cards[1]
    assert (scholar.type, scholar.cost, scholar.stats, scholar.text) == ("Creature — Human Wizard", "{1}{U}", "2/1",
                                                                          "Flash.")
    assert q.options[q.answer_index].name == "Ember Sage" and q.options[q.answer_index].loyalty == "4"
    assert sorted(o.name for o in q.options) == sorted([QUESTIONS[0]["golden"], *QUESTIONS[0]["alternatives"]])
    assert (q.format, q.source, q.language) == ("modern", "manabench", "en")
    assert parse_question(json.loads(json.dumps(q.to_json()))) == q          # the file reads back the same


def test_a_card_of_two_faces_is_found_by_either_name_and_shows_both():
    dawn = card("Dawn Side", index(CARDS)("dawn side"))
    assert (dawn.text, dawn.stats, dawn.cost) == ("Flying. // Flying, lifelink.", "1/1 // 3/3", "{W}")


def test_the_options_are_shuffled_by_id_and_seed_reproducibly():
    lookup = index(CARDS)
    first = [import_question(QUESTIONS[0], lookup, seed) for seed in range(12)]
    assert first == [import_question(QUESTIONS[0], lookup, seed) for seed in range(12)]
    assert len({q.answer for q in first}) > 2                     # the golden card moves between seeds
    assert all(q.options[q.answer_index].name == "Ember Sage" for q in first)


@pytest.mark.parametrize("change, message", [
    ({"alternatives": ["Quiet Study"]}, "alternatives: expected a list of 5 card names"),
    ({"golden": "Quiet Study"}, "alternatives: expected five names different from each other and from golden"),
    ({"deck": ["Spark Jab", "Nowhere Card"]}, "deck (Nowhere Card): 'Nowhere Card' is not in the card database"),
    ({"format": ""}, "format: expected non-empty text"),
])
def test_a_bad_question_is_named_by_its_field(change, message):
    with pytest.raises(QuestionError, match=None) as err:
        import_question({**QUESTIONS[0], **change}, index(CARDS))
    assert str(err.value).startswith(message)


def test_the_import_command_writes_a_set_bench_can_play_and_refuses_in_one_line(tmp_path, capsys):
    out = imported(tmp_path)
    assert "imported 2 questions" in capsys.readouterr().err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["id"] for x in lines] == ["question_001", "question_002"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([QUESTIONS[0], {**QUESTIONS[1], "golden": "Unheard Of"}]))
    assert main(["deck", "import", str(bad), "--cards", str(HERE / "cards.json"), "--out", str(tmp_path / "x.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "bad.json:2: golden: 'Unheard Of' is not in the card database" in err
    assert not (tmp_path / "x.jsonl").exists()
    junk = tmp_path / "cards.json"
    junk.write_text('{"cards": []}')
    assert main(["deck", "import", str(HERE / "questions.json"), "--cards", str(junk), "--out", str(tmp_path / "y")]) == 2
    assert "expected an MTGJSON AtomicCards file" in capsys.readouterr().err


def test_the_published_shape_given_as_a_question_set_says_how_to_import_it(tmp_path, capsys):
    lines = tmp_path / "published.jsonl"
    lines.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    assert main(["bench", "--game", "deck", "--param", f"questions={lines}", "--agent", "random", "--games", "1",
                 "--db", str(tmp_path / "db.sqlite3")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "ManaBench's own question shape" in err and "tcgtui deck import" in err


@pytest.mark.parametrize("reply, letter, path", [
    ("ANSWER: C", "C", "answer"), ("answer: [d]", None, "none"), ("Answer: [D]", "D", "answer"),
    ("ANSWER: B\nActually ANSWER: E", "B", "answer"), (" F ", "F", "letter"), ("f", None, "none"),
    ("The answer is $\\boxed{A}$", "A", "boxed"), ("I pick Rust Hound", None, "none"),
])
def test_a_reply_is_read_as_manabenchs_write_up_says(reply, letter, path):
    assert extract(reply) == (letter, path)


class DeckModel:
    """Answers the option it is told is right by a marker in the test's question text... or B."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, request: dict) -> Reply:
        self.prompts.append(request["messages"][-1]["content"])
        return Reply("Thinking about the curve.\nANSWER: B")


def test_a_model_answers_imported_questions_under_the_seed_protocol(tmp_path, capsys):
    out = imported(tmp_path)
    db = tmp_path / "deck.sqlite3"
    model = DeckModel()
    with ChatServer(policy=model) as server:
        assert main(["bench", "--game", "deck", "--protocol", "seed", "--param", f"questions={out}",
                     "--agent", "llm:fake", "--games", "2", "--db", str(db), "--base-url", server.base_url]) == 0
    prompt = model.prompts[0]
    assert "4x Spark Jab - Instant - Cost: {R} - Rules: Spark Jab deals 3 damage to any target." in prompt
    assert "4x Tide Scholar - Creature — Human Wizard - Cost: {1}{U} - P/T: 2/1 - Rules: Flash." in prompt
    assert "Ember Sage - Legendary Planeswalker — Ember - Cost: {2}{R}{R} - Loyalty: 4 - Rules:" in prompt
    assert "deck (59 cards)" in prompt and "ANSWER: [LETTER]" in prompt
    with Store(db) as store:
        games = store.games()
        version = store.runs()[0].config["players"]["llm:fake"]["en"]["prompt_version"]
    assert len(games) == 2 and all(g.game_params["protocol"] == "seed" for g in games)
    assert version.startswith("deck-seed-en-")
    questions = [parse_question(json.loads(x)) for x in out.read_text().splitlines()]
    assert sorted(g.score for g in games) == sorted(float(q.answer == "B") for q in questions)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_reply_naming_no_option_under_the_seed_protocol_is_a_finished_wrong_answer(tmp_path, capsys, lang):
    """It counts in accuracy as wrong (ManaBench's rule), it does not drop out as an errored game."""
    out = imported(tmp_path)
    db = tmp_path / "deck.sqlite3"
    with ChatServer(policy=lambda request: Reply("I pick Rust Hound.")) as server:
        assert main(["bench", "--game", "deck", "--protocol", "seed", "--param", f"questions={out}", "--lang", lang,
                     "--agent", "llm:fake", "--games", "2", "--db", str(db), "--base-url", server.base_url]) == 0
    with Store(db) as store:
        games = store.games()
    assert [(g.status, g.score, g.reason, g.error) for g in games] == [("finished", 0.0, "invalid", None)] * 2
    capsys.readouterr()
    assert main(["report", "--game", "deck", "--db", str(db), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    accuracy = report["sections"]["accuracy"] if "sections" in report else report["accuracy"]
    assert [(r["n"], r["accuracy"]) for r in accuracy] == [(2, 0.0)]


def test_the_seed_layout_is_in_both_languages():
    for lang in ("en", "ar"):
        catalog = locales.load(lang)
        assert all(catalog.has(f"deck.prompts.seed.{key}") for key in SEED_KEYS)
        q = import_question(QUESTIONS[1], index(CARDS))
        from tcgtui.engine.deck.game import DeckGame
        from tcgtui.engine.deck.questions import QuestionSet
        game = DeckGame(QuestionSet("t", (q,), "h"), 0, "seed")
        text = SeedDeckPrompter(game, catalog, 0).turn(game.new_state(0).observation(0), [])["content"]
        assert all(f"{letter}) " in text for letter in LETTERS) and "Rust Hound" in text and "legacy" in text
