"""Eleusis under --protocol seed: a guess gets the verdict the seed's own judge gives it, walk for walk.

``fixtures/seed_walks.json`` holds rules written for these tests (each valid as a
rule body in the seed's Python and in tcgtui's rule language) and what the seed's
judge said of each pair, made by running its code (``seed_code.py ... walks``):
the verdict and where its first disagreement was found (walk, step, card).  The
guesses differ from the secret rules on paths of different rarity, so the place
found pins the walk's draws.  With ``TCGTUI_ELEUSIS_UPSTREAM`` naming a checkout,
the same is checked live, and on the seed's own 26 rules against tcgtui's library.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.judge import RANK_MAJOR, judge, seed_walk
from tcgtui.engine.eleusis.library import COUNT, compiled
from tcgtui.engine.eleusis.rulelang import Rule, compile_rule
from tests.eleusis.test_seed_deals import CHECKOUT, FIXTURES, HERE, needs_checkout

WALKS = json.loads((FIXTURES / "seed_walks.json").read_text(encoding="utf-8"))


def where(truth: Rule, guess: Rule, start: list[str]) -> list:
    """tcgtui's seed walk in the seed's terms: [verdict, walk, step, card] (card as the seed prints it)."""
    v = seed_walk(truth, guess, [parse_card(c) for c in start])
    if v.counterexample is None:
        return [v.equivalent, None, None, None]
    mainline, card, _ = v.counterexample
    walk, step = (1, 1) if v.walk == 0 else (v.walk, len(mainline) - len(start) + 1)
    return [v.equivalent, walk, step, None if v.error is not None else card.symbol()]


def seed_says(cases: list) -> list:
    done = subprocess.run([sys.executable, str(HERE / "seed_code.py"), CHECKOUT, "-", "walks"],
                          input=json.dumps(cases), capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def test_the_seeds_card_order_is_rank_by_rank():
    assert [c.text() for c in RANK_MAJOR[:6]] == ["AH", "AD", "AC", "AS", "2H", "2D"]
    assert len(set(RANK_MAJOR)) == 52


def test_every_fixture_verdict_is_the_seeds_with_its_first_disagreement():
    got = [where(compile_rule(s), compile_rule(g), start) for s, g, start in WALKS["cases"]]
    assert got == WALKS["seed"]
    assert any(w and w > 10 for _, w, _, _ in WALKS["seed"])       # found deep in the walks: the draws matter


def test_tcgtuis_own_walk_finds_them_elsewhere():
    """The protocols differ in their draws, not only in name: tcgtui's walk meets the rare paths elsewhere."""
    secret, guess, start = next(c for c, s in zip(WALKS["cases"], WALKS["seed"]) if s[1] and s[1] > 10)
    mainline = [parse_card(c) for c in start]
    ours = judge(compile_rule(secret), compile_rule(guess), mainline, seed="x")
    theirs = seed_walk(compile_rule(secret), compile_rule(guess), mainline)
    assert not ours.equivalent and not theirs.equivalent
    assert ours.counterexample != theirs.counterexample


def test_a_seed_round_judges_a_guess_with_the_seeds_walk():
    game = EleusisGame(rule=3, guess_format="code", protocol="seed", seed_deal=7)
    state = game.new_state(0)
    secret, guess, _ = next(c for c, s in zip(WALKS["cases"], WALKS["seed"]) if s[1] and s[1] > 10)
    mainline = state.mainline()
    assert state.judge_code(guess, mainline, 1) == seed_walk(state.rule, compile_rule(guess), mainline)
    tcgtui = EleusisGame(rule=3, guess_format="code").new_state(0)
    assert tcgtui.judge_code(guess, tcgtui.mainline(), 1) == judge(tcgtui.rule, compile_rule(guess),
                                                                   tcgtui.mainline(), seed="0:1")


def test_a_secret_rule_that_errs_is_a_disagreement_under_the_seed():
    v = seed_walk(compile_rule("return card.rank > mainline[-1].rank"), compile_rule("return False"), [])
    assert not v.equivalent and v.error is not None


@needs_checkout
def test_the_fixture_cases_live_against_the_seeds_code():
    assert seed_says(WALKS["cases"]) == WALKS["seed"]


@needs_checkout
def test_the_seeds_own_rules_get_the_seeds_verdicts_from_tcgtuis_library():
    codes = [r["code"] for r in json.loads((__import__("pathlib").Path(CHECKOUT) / "rules.json")
                                           .read_text(encoding="utf-8"))["rules"]]
    starts = ([], ["7D", "3C", "QH"], ["KS", "KC", "2H", "2D"])
    pairs = [(i, (i + k) % COUNT) for i in range(COUNT) for k in (1, 2, 5)]
    cases = [[codes[i], codes[j], list(start)] for i, j in pairs for start in starts]
    want = seed_says(cases)
    got = [where(compiled(i), compiled(j), list(start)) for i, j in pairs for start in starts]
    assert got == want


def test_released_formal_guesses_are_judged_again_and_counted(tmp_path):
    """``seed_rejudge.py`` on a results file in the seed's shape (fixture rule 0 is tcgtui's library rule 0)."""
    sys.path.insert(0, str(HERE))
    try:
        from seed_rejudge import rejudge
    finally:
        sys.path.remove(str(HERE))
    (tmp_path / "rules.json").write_text((FIXTURES / "seed_rules.json").read_text(encoding="utf-8"), encoding="utf-8")

    def turn(n, code, correct, shadow=False, accepted=True):
        return {"turn_number": n, "mainline_state": "4♠ [J♥] 2♥", "action_result": {"card": "8♦", "accepted": accepted},
                "guess_attempt": {"guess": "words", "guessed_code": code, "correct": correct, "shadow": shadow}}
    rounds = [{"rule_name": "fixture_0", "turns": [
        turn(1, "return card.rank % 2 == 0", True), turn(2, "return True", False),
        turn(3, "return card.suit.suit_name == 'hearts'", False), turn(4, "return True", True, shadow=True),
        turn(5, "return card.rank % 2 == 0 and len(mainline) > 3", True, accepted=False),
        {"turn_number": 6, "mainline_state": "4♠", "action_result": {}, "guess_attempt": None}]}]
    (tmp_path / "results" / "run" / "m").mkdir(parents=True)
    (tmp_path / "results" / "run" / "m" / "results.json").write_text(json.dumps({"rounds": rounds}), encoding="utf-8")
    keys = ("guesses", "same", "differ", "skipped", "published_right", "reproduced_right")
    got = asyncio.run(rejudge(tmp_path, "run", part="rule-language"))
    assert {k: got[k] for k in keys} == {"guesses": 3, "same": 2, "differ": 1, "skipped": 1,
                                         "published_right": 2, "reproduced_right": 1}
    assert got["differences"] == [["m", "fixture_0", 5, True]]     # a mainline of 2 (its 8♦ rejected): never > 3
    # every guess: the one in the seed's card API (turn 3) judged by the seed's walk in the sandbox
    got = asyncio.run(rejudge(tmp_path, "run"))
    assert {k: got[k] for k in keys} == {"guesses": 4, "same": 3, "differ": 1, "skipped": 0,
                                         "published_right": 2, "reproduced_right": 1}
    assert got["sandbox"]["guesses"] == 1 and got["sandbox"]["same"] == 1 and got["sandbox"]["failed"] == 0
    assert got["differences"] == [["m", "fixture_0", 5, True]]
