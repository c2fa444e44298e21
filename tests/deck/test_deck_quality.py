"""The quiz's evaluator (issue 40, part 1): ``oracle:K`` values each option by the games its completed
deck wins, from what the player sees; on a question built so one card is the only way to win, and on
stored answers judged by ``tcgtui analyze --run``."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from tcgtui.arena import load_resources
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.deck.evaluators import evaluator
from tcgtui.engine.deck.game import DeckGame
from tcgtui.engine.deck.questions import Option, Question, QuestionSet
from tcgtui.games.tcg.packs import load_pack
from tcgtui.store import Store

WALLS = ["fire_bolt"] + ["iron_sentinel"] * 5


def _clear() -> DeckGame:
    """19 Iron Sentinels (which cannot attack) against a field of 20: no damage is ever dealt and every
    game is drawn, unless the 20th card is Fire Bolt (3 damage to the opponent), which wins every game."""
    sim = {"pack": "frontier", "deck": {"iron_sentinel": 19}, "options": WALLS,
           "field": [{"iron_sentinel": 20}, {"iron_sentinel": 20}], "playouts": 2}
    q = Question("walls", (("Iron Sentinel", 19),), tuple(Option(c, "") for c in WALLS), "B", "test", "en",
                 win_rates=(0.0, 1.0, 0.0, 0.0, 0.0, 0.0), games=1, sim=sim)
    return DeckGame(QuestionSet("walls", (q,), "h", {"frontier": load_pack("frontier")}), 0)


def _sample() -> DeckGame:
    spec = registry.get("deck")
    return spec.make(load_resources(spec, spec.info.resolve()))


def test_the_only_card_that_deals_damage_is_worth_a_win_and_the_same_deck_the_same_value() -> None:
    game = _clear()
    judge = evaluator(game, "oracle:10")
    assert judge.key == "oracle:10"
    values = judge.values(game.new_state(0), 3)
    assert values == {"A": 1.0, "B": 0.0, "C": 0.0, "D": 0.0, "E": 0.0, "F": 0.0}    # the answer key says B


class _Seen:
    """A position that offers nothing but what the player sees."""

    def __init__(self, state) -> None:  # noqa: ANN001
        self.observation = state.observation


def test_values_never_read_the_answer_key() -> None:
    game = _sample()
    state = game.new_state(0)
    judge = evaluator(game, "oracle:8")
    values = judge.values(state, 7)
    q = state.question
    other = replace(q, answer="F" if q.answer != "F" else "A", win_rates=(0.9,) * 6, games=5,
                    sim={**q.sim, "p_values": [0.0] * 6, "removed": q.sim["options"][0]})
    assert judge.values(type(state)(other, state.index), 7) == values
    assert judge.values(_Seen(state), 7) == values and len(set(values.values())) > 1
    redealt = [game.resample(state.observation(0), random.Random(k)) for k in range(4)]    # any answer key
    assert len({r.question.answer for r in redealt}) > 1 and all(judge.values(r, 7) == values for r in redealt)
    assert judge.values(state, 8) != values                 # the decision's seed deals the games: it is used


def test_what_cannot_judge_the_quiz_says_what_does() -> None:
    game = _sample()
    for spec in ("oracle:0", "mc:5", "oracle", "perfect"):
        with pytest.raises(ValueError, match="oracle:K"):
            evaluator(game, spec)
    published = replace(game.qset.questions[0], sim=None)
    with pytest.raises(ValueError, match="without a simulation"):
        evaluator(DeckGame(QuestionSet("m", (published,), "h", {}), 0), None)
    assert evaluator(game, None).key == "oracle:400"


def test_stored_answers_are_judged_and_ranked(tmp_path: Path, capsys) -> None:
    db = tmp_path / "d.sqlite3"
    assert main(["bench", "--game", "deck", "--agent", "random", "--agent", "oracle:8", "--games", "6", "--seed", "2",
                 "--db", str(db)]) == 0
    with Store(db) as store:
        runs = [r.name for r in store.runs()]
    for run in runs:
        assert main(["analyze", "--run", run, "--db", str(db), "--evaluator", "oracle:6"]) == 0
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT d.agent, d.move, v.move_values, v.chosen, v.best, v.regret, v.agrees"
                        " FROM decision_values v"
                        " JOIN decisions d USING (game_id, idx) WHERE v.evaluator = 'oracle:6'").fetchall()
    made = conn.execute("SELECT count(*) FROM decisions WHERE move NOT LIKE '!%'").fetchone()[0]
    conn.close()
    assert len(rows) == made == 12
    for agent, move, values, chosen, best, regret, agrees in rows:
        values = json.loads(values)
        assert sorted(values) == list("ABCDEF") and chosen == values[move] and best == max(values.values())
        assert regret == pytest.approx(best - chosen) and agrees == (chosen == best)
    capsys.readouterr()
    assert main(["report", "--game", "deck", "--db", str(db), "--table", "quality", "--format", "json"]) == 0
    quality = json.loads(capsys.readouterr().out)["quality"]
    by_hand = {a: sum(r[5] for r in rows if r[0] == a) / 6 for a in ("random", "oracle:8")}
    assert {r["agent"]: r["mean_regret"] for r in quality} == pytest.approx(by_hand)
    assert {r["evaluator"] for r in quality} == {"oracle:6"}
    assert main(["report", "--game", "deck", "--db", str(db), "--table", "regret_ranking", "--format", "json"]) == 0
    ranking = json.loads(capsys.readouterr().out)["regret_ranking"]
    assert [r["agent"] for r in ranking] == sorted(by_hand, key=lambda a: (by_hand[a], a))


def test_a_players_question_keeps_no_trace_of_its_answer() -> None:
    """A made question's setup names the card removed (the answer) and the verdict's p-values and seed:
    what a player observes holds none of them, only what poses the question."""
    game = _sample()
    state = game.new_state(0)
    full = state.question if hasattr(state, "question") else game.qset.questions[0]
    assert full.sim is not None and {"removed", "p_values", "seed"} <= set(full.sim)
    seen = state.observation(0).question
    assert seen.answer == "" and seen.win_rates is None
    assert not {"removed", "p_values", "seed"} & set(seen.sim)
    assert {k: v for k, v in full.sim.items() if k not in ("removed", "p_values", "seed")} == seen.sim
