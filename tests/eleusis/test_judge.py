"""The judge: paraphrases of every rule are equivalent, near misses are not, verdicts are reproducible."""

from __future__ import annotations

import json

import pytest

from tcgtui.cli import main
from tcgtui.engine.eleusis.cards import parse_card, parse_cards
from tcgtui.engine.eleusis.judge import judge
from tcgtui.engine.eleusis.library import compiled
from tcgtui.engine.eleusis.rulelang import compile_rule

RUNS = 25      # continuations per verdict in these tests (the game uses 100): same procedure, less time

# rule: (a mainline the rule allows, a paraphrase, a near miss)
CASES = {
    0: ("", "return card.rank in (2, 4, 6, 8, 10, 12)", "return card.rank in (2, 4, 6, 8, 10)"),
    1: ("", "return card.rank > 10", "return card.rank >= 10"),
    2: ("", "return card.rank < 8", "return card.rank < 7"),
    3: ("", "return card.rank in range(5, 10)", "return 5 <= card.rank < 9"),
    4: ("", "return card.rank > 1 and all(card.rank % d != 0 for d in range(2, card.rank))",
        "return card.rank in (1, 2, 3, 5, 7, 11, 13)"),
    5: ("", "return not card.is_face and card.rank < 2", "return card.rank == 1 and card.color == 'red'"),
    6: ("", "return card.color == 'black' and card.suit != 'C'", "return card.color == 'black'"),
    7: ("", "return card.suit in 'HD'", "return card.suit == 'H'"),
    8: ("", "return card.suit == 'S' or card.suit == 'D'", "return card.suit in ('S', 'H')"),
    9: ("", "return card.suit in ['H', 'D', 'C']", "return card.suit != 'C'"),
    10: ("", "if card.color == 'red':\n    return False\nreturn card.rank >= 11",
         "return card.is_face and card.suit == 'S'"),
    11: ("", "return card.suit != 'S' and card.suit != 'C' and card.rank < 8",
         "return card.color == 'red' and card.rank < 7"),
    12: ("", "return (card.color == 'red') == card.is_face", "return (card.color == 'red') == (card.rank >= 10)"),
    13: ("5C JH", "return len(mainline) == 0 or (card.rank > 10) != (mainline[-1].rank > 10)",
         "return len(mainline) == 0 or (card.rank > 9) != (mainline[-1].rank > 9)"),
    14: ("4C 7H", "if mainline:\n    return (card.rank + mainline[-1].rank) % 2 == 1\nreturn True",
         "if mainline:\n    return (card.rank + mainline[-1].rank) % 2 == 1 or card.rank == 13\nreturn True"),
    15: ("AH 4C", "if len(mainline) == 0:\n    return card.rank == 1\nreturn not card.rank < mainline[-1].rank",
         "if len(mainline) == 0:\n    return card.rank == 1\nreturn card.rank > mainline[-1].rank"),
    16: ("KH", "return not mainline or card.color != mainline[-1].color", "return card.color == 'black'"),
    17: ("5C 9D", "return all(card.suit != m.suit for m in mainline[-1:])",
         "return all(card.suit != m.suit for m in mainline[-2:])"),
    18: ("5C 9S", "if not mainline:\n    return True\npartner = {'H': 'D', 'D': 'H', 'C': 'S', 'S': 'C'}\n"
                  "return card.suit == partner[mainline[-1].suit]",
         "if not mainline:\n    return True\nreturn card.color == mainline[-1].color"),
    19: ("5H 2S", "order = ['H', 'S', 'C', 'D']\nif not mainline:\n    return True\n"
                  "i = [k for k in range(4) if order[k] == mainline[-1].suit][0]\nreturn card.suit == order[(i + 1) % 4]",
         "order = ['H', 'S', 'C', 'D']\nif not mainline:\n    return True\n"
         "i = [k for k in range(4) if order[k] == mainline[-1].suit][0]\nreturn card.suit == order[(i - 1) % 4]"),
    20: ("5H 2C", "if not mainline:\n    return True\nreturn (card.suit in 'HS') != (mainline[-1].suit in 'HS')",
         "if not mainline:\n    return True\nreturn (card.suit in 'HD') != (mainline[-1].suit in 'HD')"),
    21: ("4H 6D", "if not mainline:\n    return True\np = mainline[-1]\n"
                  "return not (card.color != p.color and card.rank % 2 != p.rank % 2)",
         "if not mainline:\n    return True\np = mainline[-1]\nreturn card.color == p.color"),
    22: ("7H", "if len(mainline) == 0:\n    return card.rank in range(5, 10)\np = mainline[-1]\n"
               "return card.rank >= p.rank if p.color == 'red' else card.rank <= p.rank",
         "if len(mainline) == 0:\n    return card.rank in range(5, 10)\np = mainline[-1]\n"
         "return card.rank > p.rank if p.color == 'red' else card.rank <= p.rank"),
    23: ("JH 2H", "return not mainline or (card.suit == mainline[-1].suit) == mainline[-1].is_face",
         "return not mainline or (card.suit == mainline[-1].suit) == (mainline[-1].rank >= 10)"),
    24: ("2H 5H 7S", "n = len(mainline)\nif n % 2 == 0:\n    return n == 0 or card.suit != mainline[n - 1].suit\n"
                     "return card.suit == mainline[n - 1].suit",
         "if len(mainline) % 2 == 1:\n    return card.suit == mainline[-1].suit\nreturn True"),
    25: ("4H 4S 9C", "n = len(mainline)\nif n % 2 == 0:\n    return n == 0 or card.rank != mainline[n - 1].rank\n"
                     "return card.rank == mainline[n - 1].rank",
         "if len(mainline) % 2 == 1:\n    return card.rank == mainline[-1].rank\nreturn True"),
}


@pytest.mark.parametrize("number", sorted(CASES))
def test_paraphrases_are_equivalent_and_near_misses_are_not(number):
    mainline, paraphrase, near = CASES[number]
    truth, line = compiled(number), parse_cards(mainline)
    same = judge(truth, compile_rule(paraphrase), line, seed=number, continuations=RUNS)
    assert same.equivalent and same.counterexample is None
    assert same.exact == (number < 13)
    miss = judge(truth, compile_rule(near), line, seed=number, continuations=RUNS)
    assert not miss.equivalent
    ml, card, truth_says = miss.counterexample
    assert truth.accepts(card, list(ml)) is truth_says
    assert compile_rule(near).accepts(card, list(ml)) is not truth_says


def test_a_rule_that_only_fits_the_current_mainline_is_equivalent_from_there():
    same_colour = compile_rule("return not mainline or card.color == mainline[-1].color")
    red = compile_rule("return card.color == 'red'")
    assert judge(same_colour, red, parse_cards("5H 9D"), continuations=RUNS).equivalent
    assert not judge(same_colour, red, [], continuations=RUNS).equivalent


def test_an_error_in_the_guess_is_a_wrong_guess():
    verdict = judge(compiled(16), compile_rule("return card.color != mainline[-1].color"), [], continuations=RUNS)
    assert not verdict.equivalent and verdict.error is not None and verdict.error.kind == "runtime"
    assert verdict.counterexample[0] == ()


def test_verdicts_are_reproducible_from_the_seed():
    guess = compile_rule("return not mainline or card.suit != mainline[-1].suit or card.rank == 7")
    a = judge(compiled(17), guess, parse_cards("2H"), seed=4)
    b = judge(compiled(17), guess, parse_cards("2H"), seed=4)
    assert a == b and not a.equivalent


def test_cli_judge_prints_the_verdict_and_a_counterexample(tmp_path, capsys):
    guess = tmp_path / "guess.txt"
    guess.write_text("return card.suit in 'HD'\n", encoding="utf-8")
    assert main(["eleusis", "judge", "--rule", "7", "--guess", str(guess)]) == 0
    assert capsys.readouterr().out.strip() == "equivalent"
    assert main(["eleusis", "judge", "--rule", "16", "--guess", str(guess), "--mainline", "2H QS", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["equivalent"] is False
    ml, card = parse_cards(" ".join(out["counterexample"]["mainline"])), parse_card(out["counterexample"]["card"])
    assert compiled(16).accepts(card, ml) is out["counterexample"]["secret_rule_accepts"]
    secret = tmp_path / "secret.txt"
    secret.write_text("return card.rank == 7", encoding="utf-8")
    assert main(["eleusis", "judge", "--rule", str(secret), "--guess", str(guess)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "not equivalent"


@pytest.mark.parametrize("argv,names", [
    (["--rule", "26"], "--rule 26"),
    (["--rule", "/no/such/file"], "--rule /no/such/file"),
    (["--rule", "3", "--mainline", "2H ZZ"], "'ZZ'"),
])
def test_cli_judge_bad_input_is_one_line(tmp_path, capsys, argv, names):
    guess = tmp_path / "guess.txt"
    guess.write_text("return True", encoding="utf-8")
    assert main(["eleusis", "judge", "--guess", str(guess), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert names in err and len(err.splitlines()) == 1


def test_cli_judge_refuses_a_hostile_guess_naming_the_construct(tmp_path, capsys):
    guess = tmp_path / "guess.txt"
    guess.write_text("import os\nreturn True", encoding="utf-8")
    assert main(["eleusis", "judge", "--rule", "3", "--guess", str(guess)]) == 2
    err = capsys.readouterr().err.strip()
    assert "not allowed: import" in err and str(guess) in err and len(err.splitlines()) == 1


def test_a_guess_too_slow_for_a_whole_verdict_is_wrong_not_a_hang():
    slow = compile_rule("t = 0\nfor i in range(1900):\n    t += 1\nreturn not mainline or "
                        "card.color != mainline[-1].color")
    import time
    started = time.process_time()
    verdict = judge(compiled(16), slow, parse_cards("5H"), seed=1, max_steps=200_000)
    assert not verdict.equivalent and verdict.error is not None and verdict.error.kind == "budget"
    assert time.process_time() - started < 10
    assert judge(compiled(16), compiled(16), parse_cards("5H"), seed=1, max_steps=200_000).error.kind == "budget"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_cli_rules_lists_the_library_with_its_code(capsys, lang):
    assert main(["eleusis", "rules", "--code", "--lang", lang, "--rtl", "terminal"]) == 0
    out = capsys.readouterr().out
    assert "return card.rank % 2 == 0" in out and "mainline[-1].rank" in out
    from tcgtui.engine.eleusis.library import library
    assert all(r.name_in(lang) in out for r in library())


def test_verdicts_are_kept_for_the_rounds_own_move_and_the_oldest_go_first() -> None:
    """The app judges a person's guess apart (tcgtui.tui.games.eleusis_judging) and keeps the verdict for the round's
    move; only the last KEEP verdicts stay."""
    from tcgtui.engine.eleusis import judge as judging
    truth = compile_rule("return card.rank % 2 == 0")
    guesses = [compile_rule(f"return card.rank > {n}") for n in range(judging.KEEP + 2)]
    line = (parse_card("2H"),)
    first = judging.remembered(truth, guesses[0], line, "s:1")
    assert not first.equivalent and judging.kept()[-1] == ((truth, guesses[0], line, "s:1"), first)
    for guess in guesses[1:]:
        judging.remembered(truth, guess, line, "s:1")
    keys = [key for key, _ in judging.kept()]
    assert len(keys) == judging.KEEP and (truth, guesses[0], line, "s:1") not in keys
    assert keys[-1] == (truth, guesses[-1], line, "s:1")


def test_a_judging_child_that_fails_keeps_nothing(monkeypatch) -> None:
    """No usable child (here: an interpreter that exits 1): nothing kept, the round's move judges as before."""
    import sys

    from tcgtui.engine import registry
    from tcgtui.engine.core import Match
    from tcgtui.engine.eleusis import judge as judging
    from tcgtui.engine.eleusis.moves import Play
    from tcgtui.tui.games.eleusis_judging import judge_apart
    match = Match(registry.get("eleusis").game({"rule": 0}), 3)
    card = parse_card(match.state.legal_moves()[0])
    before = judging.kept()
    monkeypatch.setattr(sys, "executable", "/bin/false")
    judge_apart(match.state.clone(), Play(card, guess=True, rule="return card.rank > 5",
                                         code="return card.rank > 5").text())
    assert judging.kept() == before
