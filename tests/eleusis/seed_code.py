"""Run the seed's own Eleusis code from a checkout and print its deals as JSON (used by test_seed_deals.py).

    python seed_code.py CHECKOUT RULES.json ROUNDS BASE
    python seed_code.py CHECKOUT RULES.json verdicts < CASES.json
    python seed_code.py CHECKOUT - walks < WALKS.json
    python seed_code.py CHECKOUT - prompts < ROUND.json

Nothing of the seed is copied here: its modules are imported from the checkout
(``src/eleusis/game``, without the package's heavy ``__init__``), its round-seed
function is taken from ``src/eleusis/runner.py`` by name and run as written.
Prints ``[[{"seed", "hand", "starter", "deck"}, ...per round], ...per rule]``,
cards as tcgtui writes them (``10H``, ``QS``); with ``verdicts``, each rule's answer
(true, false, or null when it raises) for each ``[mainline, card]`` case read from stdin; with ``walks``,
the seed's judge (``RuleValidator.check_equivalence_by_simulation``, its configured 100 walks of 40 steps
from simulation seed 42) on each ``[secret code, guessed code, mainline]`` case: ``[verdict, walk, step, card]``,
those of the first disagreement its message names, counted from 1 (null when the rules agree; the card
null when a rule raised).
With ``prompts``, the seed's action prompt before each turn of a round (``{"code", "seed", "turns"}``,
each turn ``[hand index, reasoning summary, failed guess or null]``), built as its player builds it.
Its rule-library module needs pydantic, which the walk never uses: an empty stand-in is put in its place.
"""

from __future__ import annotations

import __future__
import ast
import hashlib
import importlib
import json
import logging
import re
import sys
import textwrap
import types
from pathlib import Path


def _package(name: str, path: Path) -> None:
    module = types.ModuleType(name)
    module.__path__ = [str(path)]
    sys.modules[name] = module


def _derive_round_seed(src: Path):
    tree = ast.parse((src / "runner.py").read_text(encoding="utf-8"))
    node = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_derive_round_seed"), None)
    if node is None:        # the released code (c616356) derives it inside play_round: those statements, as a function
        play = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "play_round")
        start = next(i for i, n in enumerate(play.body)
                     if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "base_seed")
        body = textwrap.indent("\n".join(ast.unparse(n) for n in play.body[start:start + 2]), "    ")
        node = ast.parse(f"def _derive_round_seed(config, rule, batch_round_index):\n{body}\n"
                         "    return round_seed, None\n").body[0]
    code = compile(ast.Module([node], []), "runner.py", "exec", flags=__future__.annotations.compiler_flag,
                   dont_inherit=True)
    scope = {"hashlib": hashlib, "logger": logging.getLogger("seed")}
    exec(code, scope)
    return scope["_derive_round_seed"]


def text(card) -> str:
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
    return rank + card.suit.suit_name[0].upper()


def _card(cards, word: str):
    suit = {"H": cards.Suit.HEARTS, "D": cards.Suit.DIAMONDS, "C": cards.Suit.CLUBS, "S": cards.Suit.SPADES}[word[-1]]
    return cards.Card({"A": 1, "J": 11, "Q": 12, "K": 13}.get(word[:-1]) or int(word[:-1]), suit)


def verdicts(checkout: str, rules_path: str, cases: list) -> list:
    src = Path(checkout) / "src" / "eleusis"
    _package("eleusis", src)
    _package("eleusis.game", src / "game")
    cards = importlib.import_module("eleusis.game.cards")
    engine = importlib.import_module("eleusis.game.engine")
    rules = [engine.Rule("", r["code"]) for r in json.loads(Path(rules_path).read_text(encoding="utf-8"))["rules"]]
    out = []
    for rule in rules:
        answers = []
        for mainline, card in cases:
            try:
                answers.append(rule.evaluate(_card(cards, card), [_card(cards, c) for c in mainline]))
            except Exception:           # noqa: BLE001  (the seed's engine lets a rule's error through)
                answers.append(None)
        out.append(answers)
    return out


MISMATCH = re.compile(r"sim(?:ulation)? (\d+), turn (\d+)(?:: card=(\S+),|\.)")


def walks(checkout: str, cases: list) -> list:
    logging.disable(logging.CRITICAL)          # the seed logs every disagreement and error
    src = Path(checkout) / "src" / "eleusis"
    for name, path in (("eleusis", src), ("eleusis.game", src / "game"), ("eleusis.llm", src / "llm")):
        _package(name, path)
    library = types.ModuleType("eleusis.game.rule_library")
    library.RuleLibraryEntry, library.parse_rule_library_entries = dict, None
    sys.modules["eleusis.game.rule_library"] = library
    cards = importlib.import_module("eleusis.game.cards")
    engine = importlib.import_module("eleusis.game.engine")
    validator = importlib.import_module("eleusis.game.validator").RuleValidator.__new__(
        importlib.import_module("eleusis.game.validator").RuleValidator)
    out = []
    for secret, guess, mainline in cases:
        same, message, _, _ = validator.check_equivalence_by_simulation(
            engine.Rule("", secret), "", [_card(cards, c) for c in mainline], 100, 40, guess, 42)
        hit = MISMATCH.search(message)
        out.append([same, *([int(hit.group(1)), int(hit.group(2)), hit.group(3)] if hit else [None, None, None])])
    return out


def prompts(checkout: str, case: dict) -> list:
    logging.disable(logging.CRITICAL)
    src = Path(checkout) / "src" / "eleusis"
    for name, path in (("eleusis", src), ("eleusis.game", src / "game"), ("eleusis.prompts", src / "prompts")):
        _package(name, path)
    engine = importlib.import_module("eleusis.game.engine")
    state_mod = importlib.import_module("eleusis.game.state")
    action = importlib.import_module("eleusis.prompts.action")
    game = engine.GameEngine(state_mod.GameState("p"), engine.Rule("", case["code"]), rule_compiler_client=None,
                             hand_size=12, wrong_guess_penalty=2)
    game.setup_game(round_seed=case["seed"])
    state, history, out = game.state, [], []
    for turn, (index, reasoning, failed) in enumerate(case["turns"], start=1):
        state.turn_number = turn
        hand = state.player.hand.get_all_cards()
        values = dict(compact_board=state.to_compact_string(), hand_cards=[c.to_dict() for c in hand],
                      play_history=history, failed_guesses=state.failed_rule_guesses, current_turn=turn,
                      max_turns=30, failed_guess_count=game.failed_guess_count, hand_size=12, wrong_guess_penalty=2)
        context = getattr(action, "ActionPromptContext", None)        # the later fork's; the released code: keywords
        out.append(action.get_action_prompt(context(**values)) if context else action.get_action_prompt(**values))
        result = game.play_turn(engine.PlayCardAction(hand[index]))
        history.append({"card": result["card"], "accepted": result["accepted"], "reasoning_summary": reasoning})
        if failed:
            state.record_failed_guess(failed)
            game.failed_guess_count += 1
    return out


def main(checkout: str, rules_path: str, rounds: int, base: int) -> list:
    src = Path(checkout) / "src" / "eleusis"
    _package("eleusis", src)
    _package("eleusis.game", src / "game")
    engine = importlib.import_module("eleusis.game.engine")
    state_mod = importlib.import_module("eleusis.game.state")
    derive = _derive_round_seed(src)
    rules = json.loads(Path(rules_path).read_text(encoding="utf-8"))["rules"]
    out = []
    for entry in rules:
        rule = engine.Rule(entry.get("description", ""), entry["code"])
        deals = []
        for batch in range(rounds):
            seed, _ = derive({"game": {"seed": base}}, rule, batch)
            game = engine.GameEngine(state_mod.GameState("p"), rule, rule_compiler_client=None, hand_size=12)
            game.setup_game(round_seed=seed)
            state = game.state
            deals.append({"seed": seed, "hand": [text(c) for c in state.player.hand.get_all_cards()],
                          "starter": [text(c) for c in state.mainline.get_all()],
                          "deck": [text(c) for c in state.deck._cards]})
        out.append(deals)
    return out


if __name__ == "__main__":
    if sys.argv[3] == "prompts":
        print(json.dumps(prompts(sys.argv[1], json.load(sys.stdin)), ensure_ascii=False))
    elif sys.argv[3] == "walks":
        print(json.dumps(walks(sys.argv[1], json.load(sys.stdin)), ensure_ascii=False))
    elif sys.argv[3] == "verdicts":
        print(json.dumps(verdicts(sys.argv[1], sys.argv[2], json.load(sys.stdin))))
    else:
        print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
