"""Eleusis under --protocol seed: a guess in the seed's Python, judged by the seed's walk inside the sandbox.

The rules of ``fixtures/seed_walks.json`` (written for tcgtui's tests, each valid as a
seed rule body and in tcgtui's rule language, with the verdict and first
disagreement the seed's own judge found) are judged as Python in one sandbox check
each, and must give the seed's verdict at the seed's place, and tcgtui's rule-language
verdict.  Hostile guesses (a file, a socket, a loop, a fork) are counted wrong and
reach nothing: each returns the secret rule's answer only if its attack works, so a
leak would show as a right guess.
"""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.judge import seed_walk
from tcgtui.engine.eleusis.rulelang import compile_rule
from tcgtui.games.eleusis.seed_judge import DIFFERENT, FAILED, NO_CODE, SAME, WALK_LIMITS, judge_code
from tcgtui.sandbox import TIMEOUT, Limits, Sandbox
from tests.eleusis.test_seed_deals import FIXTURES

WALKS = json.loads((FIXTURES / "seed_walks.json").read_text(encoding="utf-8"))
SYMBOL = {"hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", "spades": "\u2660"}
FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}
# the real builtins, from the walk program's namespace (the rule's own are a short list: no boundary)
ESCAPE = "b = Card.to_dict.__globals__['__builtins__']\ntry:\n    b = b.__dict__\nexcept:\n    pass\n"


def judged(truth: str, guess: str | None, start: list[str], limits: Limits = WALK_LIMITS, **walk):
    return asyncio.run(judge_code(Sandbox("local", limits), truth, guess, [parse_card(c) for c in start], **walk))


def seed_terms(v) -> list:
    """A sandbox verdict as the fixture writes the seed's: [verdict, walk, step, card] (card None: a rule raised)."""
    if v.equivalent:
        return [True, None, None, None]
    w = v.where
    card = None if "error" in w else FACES.get(w["card"][0], str(w["card"][0])) + SYMBOL[w["card"][1]]
    return [False, w["walk"], w["step"], card]


def test_fixture_rules_in_python_get_the_seeds_verdict_at_the_seeds_place():
    sandbox = Sandbox("local", WALK_LIMITS)

    async def all_cases():      # one check per core at a time (the sandbox's own bound)
        return await asyncio.gather(*(judge_code(sandbox, s, g, [parse_card(c) for c in start])
                                      for s, g, start in WALKS["cases"]))
    got = [seed_terms(v) for v in asyncio.run(all_cases())]
    assert got == WALKS["seed"]
    assert any(s[0] for s in got) and any(not s[0] for s in got)


def test_sandbox_verdict_equals_the_rule_languages():
    cases = [("return card.rank % 2 == 0", "return card.rank in (2, 4, 6, 8, 10, 12)", "return card.rank in {2, 4, 6, 8, 10, 12}"),
             ("return card.color == 'red'", "return card.suit in ('H', 'D')", "return card.suit.suit_name in ('hearts', 'diamonds')"),
             ("if not mainline:\n    return True\nreturn card.rank >= mainline[-1].rank",
              "if not mainline:\n    return True\nreturn card.rank > mainline[-1].rank",
              "if not mainline:\n    return True\nreturn card.rank > mainline[-1].rank")]
    for truth, guess_ours, guess_seed in cases:
        ours = seed_walk(compile_rule(truth), compile_rule(guess_ours), [parse_card("5H")])
        theirs = judged(truth, guess_seed, ["5H"])
        assert theirs.equivalent == ours.equivalent, (truth, guess_seed)
    assert judged(cases[1][0], cases[1][2], ["5H"]).outcome == SAME


def test_the_seeds_card_api_is_there():
    guess = ("print(card, mainline)\nassert str(card) == card.rank_name + card.suit.symbol\n"
             "assert card.to_dict()['suit'] == card.suit.suit_name and card.suit.color == card.color\n"
             "assert Card.from_canonical_card_data(card.to_canonical_card_data()) == card\n"
             "return card.suit.suit_name == 'hearts' or card.suit.name == 'SPADES'")
    assert judged("return card.suit.symbol in ('\u2665', '\u2660')", guess, [], simulations=2, turns=3).outcome == SAME


def test_what_the_seed_counts_wrong_is_wrong():
    assert judged("return True", None, []).outcome == NO_CODE
    assert judged("return True", "return (", []).where["where"] == "compile"
    assert judged("return True", "return evaluate_rule(card, mainline)", []).where["rule"] == "guess"   # no recursion
    assert judged("return True", "import math\nreturn True", []).outcome == DIFFERENT        # no imports
    assert judged("return 1 // 0", "return True", []).where["rule"] == "secret"


def test_the_escape_the_attacks_use_reaches_the_real_builtins():
    """The attacks below are real: past the rule's short list of names, only the OS stops them."""
    guess = ESCAPE + "return b['isinstance'](card.color, b['str']) and card.color == 'red'"
    assert judged("return card.color == 'red'", guess, []).outcome == SAME


def test_a_guess_reading_a_file_is_contained(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("red")
    guess = ESCAPE + f"return card.color == b['open']({str(secret)!r}).read()"
    v = judged("return card.color == 'red'", guess, [])
    assert v.outcome == DIFFERENT and v.where["error"].startswith("PermissionError")


def test_a_guess_opening_a_socket_is_contained():
    guess = ESCAPE + ("s = b['__import__']('socket').socket()\ns.connect(('127.0.0.1', 9))\n"
                      "return card.color == 'red'")
    v = judged("return card.color == 'red'", guess, [])
    assert v.outcome == DIFFERENT and v.where["error"].startswith("PermissionError")


def test_a_guess_forking_is_contained():
    guess = ESCAPE + ("os = b['__import__']('os')\npid = os.fork()\nif pid == 0:\n    os._exit(0)\n"
                      "return card.color == 'red'")
    before = len(os.listdir("/proc"))
    v = judged("return card.color == 'red'", guess, [])
    assert v.outcome == DIFFERENT and v.where["error"].startswith("PermissionError")
    assert "PermissionError" in v.where["error"] or "Operation not permitted" in v.where["error"]
    assert len(os.listdir("/proc")) < before + 20


def test_a_guess_looping_forever_is_stopped_and_wrong():
    v = judged("return True", "while True:\n    pass", [], Limits(timeout=2.0))
    assert v.outcome == FAILED and v.sandbox_result == TIMEOUT and not v.equivalent


# The guess computes only its own answers: the comparison and the verdict are out of its reach.
# Each attack below makes a wrong guess (black for red) and tries to be scored right.
WALK_GLOBALS = "g = Card.from_canonical_card_data.__func__.__globals__\n"
ATTACKS = {
    "rewrite the comparison": WALK_GLOBALS + "g['_differs'] = lambda **where: None\n",
    "rewrite the report": WALK_GLOBALS + "g['_report'] = lambda **fields: None\n",
    "forge a report": WALK_GLOBALS + ("raise g['Report']('{\"d\":\"' + '0' * 32 + '\",\"w\":\"' + '0' * 300 + "
                                      "'\",\"e\":false}')\n"),
    "read the secret rule": WALK_GLOBALS + (
        "f = g['__builtins__']['__import__']('sys')._getframe(1)\n"
        "while f is not None and 'req' not in f.f_locals:\n    f = f.f_back\n"
        "secret = f.f_locals['req'].get('truth') if f is not None else None\n"
        "if secret:\n    return g['rule_function'](secret)(card, mainline)\n"),
    "end the walk as agreed": WALK_GLOBALS + "g['__builtins__']['__import__']('os')._exit(0)\n",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_verdicts_a_guess_cannot_forge_its_verdict(attack):
    guess = ATTACKS[attack].replace("g['__builtins__']", "(g['__builtins__'] if isinstance(g['__builtins__'], dict) "
                                                         "else g['__builtins__'].__dict__)")
    v = judged("return card.color == 'red'", guess + "return card.color == 'black'", ["5H"], simulations=3, turns=4)
    assert not v.equivalent and v.outcome in (DIFFERENT, FAILED), (attack, v)
