"""The quiz: its rules (one test per sentence), question files refused whole, and the
answer extraction exactly as ManaBench's notes list it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.arena import load_resources
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import IllegalMove, Match, replay
from tcgtui.engine.deck import LETTERS, QuestionError, parse_question
from tcgtui.engine.deck.prompter import extract
from tcgtui.errors import UserError
from tcgtui.games.deck.questions import load_set, read_questions

rule = pytest.mark.rule
SAMPLE = Path(__file__).resolve().parents[2] / "engine" / "deck" / "sets" / "frontier-sample.jsonl"


@pytest.fixture(scope="module")
def game():
    spec = registry.get("deck")
    return spec.make(load_resources(spec, spec.info.resolve({"index": 0})))


def a_question(**changes) -> dict:
    q = json.loads(SAMPLE.read_text(encoding="utf-8").splitlines()[0])
    q.update(changes)
    return q


@rule("deck.rules.question")
def test_a_player_sees_the_deck_and_six_options_but_not_the_answer(game):
    state = game.new_state(0)
    obs = state.observation(0)
    q = game.qset.questions[0]
    assert obs.question.deck == q.deck and len(obs.question.options) == 6
    assert obs.question.answer == "" and obs.question.win_rates is None
    assert sum(c for _, c in q.deck) + 1 == 20        # one card short of a frontier deck


@rule("deck.rules.one_move")
def test_the_one_move_is_a_letter(game):
    state = game.new_state(0)
    assert state.legal_moves() == list(LETTERS) and state.current_player == 0
    with pytest.raises(IllegalMove):
        state.clone().apply("G")


@rule("deck.rules.right")
def test_the_answer_scores_one(game):
    state = game.new_state(0)
    state.apply(game.qset.questions[0].answer)
    assert state.returns() == [1.0] and state.outcome.reason == "right"


@rule("deck.rules.wrong")
def test_any_other_letter_scores_zero(game):
    answer = game.qset.questions[0].answer
    for letter in LETTERS:
        if letter != answer:
            state = game.new_state(0)
            state.apply(letter)
            assert state.returns() == [0.0] and state.outcome.reason == "wrong"


@rule("deck.rules.unusable")
def test_a_reply_naming_no_option_scores_zero(game):
    match = Match(game, 0)
    match.play_invalid("format", "I like the second one")
    assert match.state.returns() == [0.0] and match.state.outcome.reason == "invalid"
    again = replay(game, match.record())
    assert again.state.to_json() == match.state.to_json()


@rule("deck.rules.over")
def test_the_game_ends_after_one_move(game):
    state = game.new_state(0)
    state.apply("A")
    assert state.is_terminal() and state.legal_moves() == [] and state.current_player == -1
    with pytest.raises(IllegalMove):
        state.apply("B")


def test_the_seed_draws_the_question_when_no_index_is_given():
    spec = registry.get("deck")
    game = spec.make(load_resources(spec, spec.info.resolve()))
    n = len(game.qset.questions)
    assert {game.new_state(seed).question.id for seed in range(n)} == {q.id for q in game.qset.questions}
    assert game.new_state(5).question == game.new_state(5).question


@pytest.mark.parametrize("reply, letter, path", [
    ("I think B.\nANSWER: C", "C", "answer"),
    ("ANSWER: [D] no wait ANSWER: E", "E", "answer"),
    ("ANSWER: A then \\boxed{B}", "A", "answer"),
    ("  F \n", "F", "letter"),
    ("so \\boxed{A} or \\boxed{ B }", "B", "boxed"),
    ("B is good but C is better", None, "none"),
    ("ANSWER: G", None, "none"),
    ("answer: c", None, "none"),
])
def test_extraction_follows_the_notes_in_order(reply, letter, path):
    assert extract(reply) == (letter, path)


@pytest.mark.parametrize("change, needle", [
    ({"answer": "G"}, "answer: expected one letter"),
    ({"options": []}, "options: expected a list of 6"),
    ({"deck": [{"name": "X", "count": 0}]}, "deck[0].count"),
    ({"language": "english"}, "language"),
    ({"extra": 1}, "extra: unknown field"),
    ({"win_rates": [0.5] * 5}, "win_rates"),
])
def test_a_malformed_question_names_its_field(change, needle):
    with pytest.raises(QuestionError, match=None) as info:
        parse_question(a_question(**change))
    assert needle in str(info.value)


def test_a_file_with_one_bad_line_is_refused_whole(tmp_path: Path, capsys):
    good = SAMPLE.read_text(encoding="utf-8").splitlines()
    bad = json.dumps(a_question(id="x", answer="Z"))
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join([good[0], good[1], bad, good[2]]) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"set.jsonl:3: answer: expected one letter .* nothing of the file was used"):
        read_questions("--param questions", path)
    path.write_text(good[0] + "\n{not json\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"set.jsonl:2: not valid JSON"):
        load_set("--param questions", str(path))
    assert main(["bench", "--game", "deck", "--agent", "random", "--games", "1", "--param",
                 f"questions={path}", "--db", str(tmp_path / "t.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "set.jsonl:2" in err


def test_a_set_in_manabench_shape_without_simulation_plays(tmp_path: Path):
    q = a_question(id="mb-1", source="ManaBench-style", deck=[{"name": "Lightning Bolt", "count": 4},
                                                              {"name": "Mountain", "count": 55}])
    del q["sim"], q["win_rates"], q["games"]
    path = tmp_path / "mb.jsonl"
    path.write_text(json.dumps(q) + "\n", encoding="utf-8")
    qset = load_set("--param questions", str(path))
    assert qset.packs == {} and qset.questions[0].margin is None
    spec = registry.get("deck")
    game = spec.make({"questions": qset, "index": -1})
    state = game.new_state(3)
    state.apply(q["answer"])
    assert state.returns() == [1.0]


def test_rules_text_is_one_sentence_per_key_in_both_languages(game):
    spec = registry.get("deck")
    for lang in ("en", "ar"):
        pairs = spec.rules_text(game, locales.load(lang))
        assert [k for k, _ in pairs] == [f"deck.rules.{k}" for k in
                                         ("question", "one_move", "right", "wrong", "unusable", "over")]
        assert all(text.strip() for _, text in pairs)


@pytest.mark.parametrize("lang, qset", [("en", "frontier-sample"), ("ar", "frontier-sample-ar")])
def test_the_prompt_holds_the_whole_deck_every_option_and_the_rules(lang, qset):
    spec = registry.get("deck")
    game = spec.make(load_resources(spec, spec.info.resolve({"questions": qset, "index": 1})))
    catalog = locales.load(lang)
    prompter = spec.prompter(game, catalog, 0)
    obs = game.new_state(0).observation(0)
    text = prompter.turn(obs, [])["content"]
    q = game.qset.questions[1]
    for name, count in q.deck:
        assert catalog.t("deck.prompts.deck_line", count=count, name=name) in text
    for letter, option in zip(LETTERS, q.options):
        assert f"{letter}. {option.name}" in text and option.text in text
    pack = game.qset.packs["frontier"]
    assert catalog.t("deck.prompts.decks_rule", size=20, copies=2) in text
    assert catalog.t("rules.goal.lp", starting_lp=pack.rules.starting_lp) in text
    assert catalog.t("rules.setup.decks") not in text           # not the whole pack: deck lists
    assert "ANSWER: X" in text and q.answer not in text.split("ANSWER")[-1][:3].strip()
    assert prompter.version.startswith(f"deck-v1-{lang}-")


def test_a_run_asks_every_question_once_in_an_order_drawn_from_its_seed():
    spec = registry.get("deck")
    game = spec.make(load_resources(spec, spec.info.resolve()))
    n = len(game.qset.questions)
    orders = {}
    for run_seed in range(40):
        asked = [game.new_state(game.run_seed(run_seed, i)).index for i in range(3 * n)]
        assert all(sorted(asked[k * n:(k + 1) * n]) == list(range(n)) for k in range(3))   # each once a round
        assert asked == [game.new_state(game.run_seed(run_seed, i)).index for i in range(3 * n)]
        assert all(0 <= game.run_seed(run_seed, i) < 2 ** 63 for i in range(3 * n))
        orders[run_seed] = tuple(asked[:n])
    assert len(set(orders.values())) == 6                    # every order of the sample's three questions
    fixed = spec.make(load_resources(spec, spec.info.resolve({"index": 1})))
    assert fixed.run_seed(0, 5) is None                      # one fixed question: the bench's own seeds


def test_a_bench_run_over_a_set_asks_each_question_once_and_a_resumed_run_keeps_the_order(tmp_path: Path):
    lines = [json.dumps(a_question(id=f"q{i:02d}")) for i in range(12)]
    path = tmp_path / "twelve.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "t.sqlite3"
    command = ["bench", "--game", "deck", "--agent", "random", "--games", "12", "--seed", "7", "--param",
               f"questions={path}", "--db", str(db), "--run", "once"]
    assert main(command) == 0

    def asked() -> dict[int, tuple[int, str]]:
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT game_index, seed, record_json FROM games ORDER BY game_index").fetchall()
        return {i: (seed, json.loads(record)["events"][0]["id"]) for i, seed, record in rows}

    first = asked()
    assert sorted(q for _, q in first.values()) == [f"q{i:02d}" for i in range(12)]
    assert [q for _, q in first.values()] != [f"q{i:02d}" for i in range(12)]       # drawn, not file order
    with sqlite3.connect(db) as conn:                     # an interrupted run: five games never stored
        conn.execute("DELETE FROM decisions WHERE game_id IN (SELECT id FROM games WHERE game_index >= 7)")
        conn.execute("DELETE FROM games WHERE game_index >= 7")
    assert main(command) == 0
    assert asked() == first
