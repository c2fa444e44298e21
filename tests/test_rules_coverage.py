"""The rules text is a spec: every entry must have a test marked @rule("<key>")."""

from __future__ import annotations

import ast
from pathlib import Path

from tcgtui import locales

TESTS = Path(__file__).resolve().parent


def marked_rules() -> set[str]:
    keys = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "rule"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                keys.add(node.args[0].value)
    return keys


def test_every_rule_sentence_has_a_test():
    keys = {key for key, _ in locales.load("en").items("rules")}
    assert len(keys) >= 20
    assert keys - marked_rules() == set(), "rules text without a test"
    assert marked_rules() - keys == set(), "tests marked with a rule that the text no longer has"
