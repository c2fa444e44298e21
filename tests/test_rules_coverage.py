"""The rules text is a spec: every entry must have a test marked @rule("<key>").

The card game's rules are ``locales/*/tcg/card_rules.toml`` (keys marked bare); every other
registered game's (and the card game's deck-list sentences) are ``<locale folder>.rules.*`` (keys marked in full, e.g.
``grid.rules.line``).  Tests anywhere under ``tests/`` count.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tcgtui import locales
from tcgtui.engine import registry

TESTS = Path(__file__).resolve().parent


def marked_rules() -> set[str]:
    keys = set()
    for path in TESTS.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "rule"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                keys.add(node.args[0].value)
    return keys


def game_rule_keys() -> set[str]:
    en = locales.load("en")
    keys = set()
    for folder in {spec.info.locale_folder for spec in registry.games()}:      # the card game's: deck lists
        for section in ("rules", "seed_rules"):        # seed_rules: a game's rules under --protocol seed
            keys |= {f"{folder}.{section}.{key}" for key, _ in en.items(f"{folder}.{section}")}
    return keys


def test_every_rule_sentence_has_a_test():
    keys = {key for key, _ in locales.load("en").items("rules")}
    assert len(keys) >= 20
    keys |= game_rule_keys()
    assert keys - marked_rules() == set(), "rules text without a test"
    assert marked_rules() - keys == set(), "tests marked with a rule that the text no longer has"


def test_every_registered_game_with_rules_text_is_covered():
    assert {k for k in game_rule_keys() if k.startswith("grid.rules.")}, "the grid games' rules are checked"
