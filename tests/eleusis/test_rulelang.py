"""The rule language: cards, the 26 rules on hand-picked cards, and hostile rules refused or stopped."""

from __future__ import annotations

import time

import pytest

from tcgtui import locales
from tcgtui.engine.eleusis.cards import DISTINCT, Card, CardError, parse_card, parse_cards, shoe
from tcgtui.engine.eleusis.library import compiled, library
from tcgtui.engine.eleusis.rulelang import RuleError, check, compile_rule


def test_cards_are_written_rank_then_suit_with_letters_or_symbols():
    assert [c.text() for c in parse_cards("AH 2H 10C JD QS KC")] == ["AH", "2H", "10C", "JD", "QS", "KC"]
    assert parse_card("K\u2660") == Card(13, "S") and parse_card("10\u2665") == Card(10, "H")
    assert parse_card("qd") == Card(12, "D") and parse_card("1C") == Card(1, "C")
    assert Card(13, "S").symbol() == "K\u2660"
    for bad in ("", "14H", "ZH", "10X", "H", "0S", "\u0662H"):
        with pytest.raises(CardError):
            parse_card(bad)
    assert len(DISTINCT) == 52 and len(set(DISTINCT)) == 52 and len(shoe()) == 104


def test_card_values_seen_by_rules():
    run = lambda code, text: compile_rule(code).accepts(parse_card(text), [])
    assert run("return card.rank == 1", "AS") and run("return card.rank == 13", "KH")
    assert run("return card.suit == 'D'", "5\u2666") and run("return card.color == 'red'", "5D")
    assert run("return card.color == 'black'", "5C") and run("return card.is_face", "JC")
    assert not run("return card.is_face", "10C")
    rule = compile_rule("return len(mainline) == 2 and mainline[0].rank == 2")
    assert rule.accepts(parse_card("3S"), parse_cards("2H QS")) and not rule.accepts(parse_card("3S"), [])


# (rule, mainline, card, accepted): cards picked at each rule's edges
CASES = [
    (0, "", "QH", True), (0, "", "KH", False), (0, "", "2C", True), (0, "", "AC", False),
    (1, "", "JD", True), (1, "", "10D", False), (1, "", "KS", True),
    (2, "", "7S", True), (2, "", "8S", False), (2, "", "AS", True),
    (3, "", "5H", True), (3, "", "9H", True), (3, "", "4H", False), (3, "", "10H", False),
    (4, "", "2D", True), (4, "", "JD", True), (4, "", "9D", False), (4, "", "AD", False), (4, "", "QD", False),
    (5, "", "AH", True), (5, "", "2H", False),
    (6, "", "3S", True), (6, "", "3C", False),
    (7, "", "3H", True), (7, "", "3D", True), (7, "", "3C", False),
    (8, "", "4S", True), (8, "", "4D", True), (8, "", "4H", False), (8, "", "4C", False),
    (9, "", "4S", False), (9, "", "4C", True),
    (10, "", "JC", True), (10, "", "KS", True), (10, "", "JH", False), (10, "", "10S", False),
    (11, "", "7D", True), (11, "", "8D", False), (11, "", "2S", False),
    (12, "", "QH", True), (12, "", "QS", False), (12, "", "10S", True), (12, "", "10H", False),
    (13, "", "5C", True), (13, "5C", "JH", True), (13, "5C", "6H", False), (13, "5C JH", "QD", False),
    (14, "", "4C", True), (14, "4C", "7C", True), (14, "4C", "8H", False),
    (15, "", "AC", True), (15, "", "2C", False), (15, "AC 5H", "5D", True), (15, "AC 5H", "4D", False),
    (16, "", "5C", True), (16, "5C", "5H", True), (16, "5C", "6S", False),
    (17, "", "5C", True), (17, "5C", "5H", True), (17, "5C", "9C", False),
    (18, "5C", "9S", True), (18, "5C", "9C", False), (18, "5C", "9H", False), (18, "", "KD", True),
    (19, "5H", "2S", True), (19, "5S", "2C", True), (19, "5C", "2D", True), (19, "5D", "2H", True),
    (19, "5H", "2C", False), (19, "", "2C", True),
    (20, "5H", "2C", True), (20, "5S", "2D", True), (20, "5H", "2S", False), (20, "5C", "2D", False),
    (21, "4H", "6D", True), (21, "4H", "7D", True), (21, "4H", "8S", True), (21, "4H", "7S", False),
    (22, "", "5H", True), (22, "", "9H", True), (22, "", "4H", False), (22, "", "10H", False),
    (22, "7H", "7S", True), (22, "7H", "8S", True), (22, "7H", "6S", False),
    (22, "7S", "7H", True), (22, "7S", "6H", True), (22, "7S", "8H", False),
    (23, "JH", "2H", True), (23, "JH", "2S", False), (23, "5H", "2H", False), (23, "5H", "2S", True),
    (24, "", "3C", True), (24, "3C", "9C", True), (24, "3C", "9D", False),
    (24, "3C 9C", "KC", False), (24, "3C 9C", "KH", True),
    (25, "", "3C", True), (25, "3C", "3D", True), (25, "3C", "4C", False),
    (25, "3C 3D", "3H", False), (25, "3C 3D", "8H", True), (25, "3C 3D 8H", "8S", True),
]


@pytest.mark.parametrize("number,mainline,card,expected", CASES)
def test_library_rules_on_hand_picked_cards(number, mainline, card, expected):
    assert compiled(number).accepts(parse_card(card), parse_cards(mainline)) is expected


def test_the_library_has_26_rules_named_in_both_languages():
    rules = library()
    assert [r.number for r in rules] == list(range(26))
    for r in rules:
        assert r.name["en"] and r.name["ar"] and r.description["en"] and r.description["ar"]
        assert not any(ch.isascii() and ch.isalpha() for ch in r.name["ar"])
    # rules that read the mainline are exactly the sequential ones (13-25)
    assert [r.number for r in rules if r.rule.uses_mainline] == list(range(13, 26))
    assert all(c in {True, False} for r in rules for c in (r.rule.accepts(DISTINCT[0], []),))


def test_complexity_is_cyclomatic_plus_a_fifth_of_the_nodes():
    simple, branching = compiled(7), compiled(22)
    assert simple.cyclomatic == 1 and branching.cyclomatic == 3
    assert simple.complexity == pytest.approx(1 + 0.2 * simple.nodes)
    assert branching.complexity > simple.complexity


def test_language_constructs_the_issue_lists_all_work():
    code = """
ranks = [c.rank for c in mainline]
seen = {c.suit for c in mainline}
counts = {s: 0 for s in 'HDCS'}
total = 0
for i in range(len(ranks)):
    if i % 2 == 0:
        total += ranks[i]
    elif ranks[i] > 10:
        continue
    else:
        total -= 1
pair = (1, 2)
a, b = pair
best = max(ranks) if ranks else 0
ok = any(r == 1 for r in ranks) or all(r > 0 for r in ranks[-2:])
return ok and not card.suit in seen and total >= abs(-1) and sum(pair) == 3 and min(a, b) == 1 \\
    and counts['H'] == 0 and best >= 0 and card.rank / 2 > 0 and card.rank // 1 >= 1 and 2 ** 3 == 8
"""
    rule = compile_rule(code)
    assert rule.accepts(parse_card("5H"), parse_cards("AS 2C KS"))
    assert not rule.accepts(parse_card("5S"), parse_cards("AS 2C KS"))


def test_a_whole_function_or_a_bare_expression_is_accepted():
    as_def = compile_rule("def rule(card, mainline):\n    return card.color == 'red'\n")
    bare = compile_rule("card.color == 'red'")
    assert as_def.accepts(parse_card("2H"), []) and bare.accepts(parse_card("2H"), [])
    assert not bare.accepts(parse_card("2S"), [])


# (rule text, error kind, what it names): refused before anything runs
REFUSED = [
    ("import os\nreturn True", "not_allowed", "import"),
    ("from os import system\nreturn True", "not_allowed", "import"),
    ("return __import__('os').system('true')", "unknown_name", "__import__"),
    ("return open('/etc/passwd')", "unknown_name", "open"),
    ("return eval('1')", "unknown_name", "eval"),
    ("return exec('x = 1')", "unknown_name", "exec"),
    ("return getattr(card, 'rank')", "unknown_name", "getattr"),
    ("return __builtins__", "unknown_name", "__builtins__"),
    ("return globals()", "unknown_name", "globals"),
    ("return card.__class__", "attribute", "__class__"),
    ("return card._x", "attribute", "_x"),
    ("return ().__class__.__bases__[0].__subclasses__()", "attribute", "__class__"),
    ("mainline.append(card)\nreturn True", "attribute", "append"),
    ("return card.rank.real", "attribute", "real"),
    ("return {}.get('a')", "attribute", "get"),
    ("while True:\n    pass", "not_allowed", "while"),
    ("f = lambda: 1\nreturn f()", "not_allowed", "lambda"),
    ("def g():\n    return 1\nreturn g()", "not_allowed", "def"),
    ("def rule(card, mainline=open):\n    return True", "not_allowed", "def"),
    ("class A:\n    pass", "not_allowed", "class"),
    ("try:\n    x = 1\nexcept Exception:\n    pass", "not_allowed", "try"),
    ("with card as c:\n    pass", "not_allowed", "with"),
    ("return f'{card}'", "not_allowed", "f-string"),
    ("x = len\nreturn x(mainline)", "call", "len"),
    ("return max(mainline, key=len)", "not_allowed", "keyword"),
    ("return (y := 1)", "not_allowed", ":="),
    ("global x\nreturn True", "not_allowed", "global"),
    ("return b'x'", "not_allowed", "bytes"),
    ("return 100000000000000000000", "number", str(10 ** 15)),
    ("return " + "-" * 200 + "1", "too_deep", "40"),
    ("return " + "(" * 300 + "1" + ")" * 300, None, None),
    ("return [" * 100 + "]" * 100, None, None),
    ("x = 1\n" * 2000, "too_long", "4000"),
    ("return card.rank <", "syntax", None),
]


@pytest.mark.parametrize("text,kind,what", REFUSED)
def test_hostile_rules_are_refused_by_the_whitelist(text, kind, what):
    with pytest.raises(RuleError) as err:
        compile_rule(text)
    if kind is not None:
        assert err.value.kind == kind
    else:
        assert err.value.kind in ("syntax", "too_deep")
    if what is not None:
        assert err.value.detail == what
    assert check(text) is not None


# Rules the whitelist lets through that must still be stopped while running
STOPPED = [
    ("return 10 ** 10 ** 10", "number"),
    ("return 10 ** 100", "number"),
    ("x = 2\nfor i in range(100):\n    x = x * x\nreturn x", "number"),
    ("return 'a' * 10 ** 9", "length"),
    ("s = 'ab'\nfor i in range(60):\n    s = s + s\nreturn s", "length"),
    ("return sum(range(10 ** 9))", "length"),
    ("for i in range(2000):\n    for j in range(2000):\n        pass\nreturn True", "budget"),
    ("return [[i * j for i in range(1000)] for j in range(1000)]", "budget"),
    ("return len([1] * 100000)", "length"),
    ("return mainline[5]", "runtime"),
    ("return 1 / 0", "runtime"),
    ("return card.rank + 'a'", "type"),
    ("return card.suit.rank", "type"),
    ("for c in card:\n    pass", "type"),
    ("return '%999999999d' % 1", "type"),
    ("t = ()\nfor i in range(200):\n    t = (t, t)\nreturn t in {t}", "length"),
    ("b = [0 for i in range(2000)]\nc = [b for i in range(2000)]\nreturn c == [b for i in range(2000)]", "length"),
    ("a = [[0] * 2000] * 2000\nreturn a", "length"),
    ("return sum([[1] * 100] * 5, [])", "type"),
    ("return (-1) ** 0.5", "type"),
    ("x = [1]\nfor i in range(100):\n    x = x + x\nreturn x", "length"),
    ("return (-1) ** 0.5 > 0", "type"),
]


@pytest.mark.parametrize("text,kind", STOPPED)
def test_hostile_rules_are_stopped_while_running(text, kind):
    rule = compile_rule(text)
    started = time.process_time()
    with pytest.raises(RuleError) as err:
        rule.accepts(parse_card("5H"), parse_cards("2C"))
    assert err.value.kind == kind
    assert time.process_time() - started < 2


def test_errors_read_as_one_sentence_in_each_language():
    err = RuleError("unknown_name", "open", 3)
    en, ar = locales.load("en"), locales.load("ar")
    assert err.text(en) == "unknown name 'open' (line 3)"
    assert "open" in err.text(ar) and "3" in err.text(ar)
    for kind in ("not_allowed", "unknown_name", "attribute", "call", "too_long", "too_deep", "budget",
                 "number", "length", "type", "runtime"):
        assert "{" not in RuleError(kind, "x").text(en) and en.t(f"eleusis.lang.{kind}", what="x") != \
            f"eleusis.lang.{kind}"


def test_a_syntax_error_reads_in_the_readers_language_with_its_line():
    err = check("x = 1\nreturn card.rank <")
    en, ar = locales.load("en"), locales.load("ar")
    assert err is not None and err.kind == "syntax" and err.line == 2
    assert err.text(en) == ("not a rule: line 2 cannot be read "
                            "(a bracket, colon, quote or operator missing or too many?)")
    assert "2" in err.text(ar) and "syntax" not in err.text(ar) and err.detail not in err.text(ar)
    empty = check("   ")
    assert empty is not None and empty.text(en) == "not a rule: the rule is empty"
    assert empty.text(ar) == "ليست قاعدة: القاعدة فارغة"
