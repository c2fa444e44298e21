"""Every language has every text, with the same placeholders, and card text renders for
every primitive of the vocabulary without gaps."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.describe import card_text, rules_sentences
from tests.packgen import random_pack

LANGS = [code for code in locales.available() if code != "en"]
ROOT = Path(__file__).resolve().parent.parent
DIACRITICS = re.compile(r"[\u064B-\u0652\u0670]")


def test_shipped_languages():
    assert {"en", "ar"} <= set(locales.available())
    assert locales.load("ar").rtl and not locales.load("en").rtl


@pytest.mark.parametrize("code", LANGS)
def test_every_key_translated_with_the_same_placeholders(code):
    en, other = locales.load("en"), locales.load(code)
    missing = sorted(set(en.entries) - set(other.entries))
    extra = sorted(set(other.entries) - set(en.entries))
    assert not missing and not extra, (missing, extra)
    for key in en.entries:
        assert en.placeholders(key) == other.placeholders(key), key


@pytest.mark.parametrize("code", LANGS)
def test_same_files_per_language(code):
    names = lambda c: sorted(p.name for p in (ROOT / "locales" / c).glob("*.toml"))
    assert names("en") == names(code)


def test_arabic_is_written_without_diacritics_and_is_arabic():
    ar = locales.load("ar")
    for key, value in ar.entries.items():
        texts = [v for k, v in value.items() if k != "count"] if isinstance(value, dict) else [value]
        for text in texts:
            assert not DIACRITICS.search(str(text)), key
    assert sum(bool(re.search(r"[\u0600-\u06FF]", str(v))) for v in ar.entries.values()) > 0.9 * len(ar.entries)


def test_arabic_plural_categories():
    ar = locales.load("ar")
    assert [ar.category(n) for n in (0, 1, 2, 3, 10, 11, 99, 100, 103, 111)] == [
        "zero", "one", "two", "few", "few", "many", "many", "other", "few", "many"]
    assert ar.t("cards.effect.draw", amount=2) == "اسحب بطاقتين"
    assert ar.t("cards.effect.draw", amount=5) == "اسحب 5 بطاقات"
    assert ar.t("cards.effect.draw", amount=12) == "اسحب 12 بطاقة"


def test_missing_key_falls_back_to_english_and_unknown_language_is_clear():
    ar = locales.load("ar")
    assert ar.fallback is locales.load("en")
    with pytest.raises(locales.LocaleError, match="unknown language 'xx'"):
        locales.load("xx")


@pytest.mark.parametrize("code", locales.available())
def test_card_text_renders_for_every_primitive(code):
    cat = locales.load(code)
    seen: set[str] = set()
    for seed in range(300):
        for card in random_pack(seed).cards:
            text = card_text(card, cat)
            assert text and "{" not in text and "}" not in text
            seen.update(card.keywords)
            for ab in card.abilities + ((card.trigger,) if card.trigger else ()):
                seen.add(ab.when)
                seen.update(e.do for e in ab.effects)
                seen.update(e.target for e in ab.effects if e.target)
            seen.update(e.do for e in card.effects)
            seen.update(e.target for e in card.effects if e.target)
    vocabulary = set(C.KEYWORDS) | set(C.TRIGGERS) | set(C.EFFECTS) | set(C.TARGETS)
    assert vocabulary <= seen


@pytest.mark.parametrize("code", locales.available())
def test_rules_text_renders_with_pack_numbers(code, community, starter):
    cat = locales.load(code)
    for pack in (community, starter):
        sentences = rules_sentences(cat, pack)
        assert len(sentences) == len(locales.load("en").items("rules"))
        assert all("{" not in s for _, s in sentences)
    joined = " ".join(s for _, s in rules_sentences(cat, community))
    assert "10" in joined and "50" in joined and str(C.MAX_CHAIN) in joined


def _literal_strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_no_arabic_literals_in_code():
    """Text shown to users lives in locales/: code holds no Arabic strings."""
    offenders = []
    for folder in ("engine", "opponents", "tcgtui"):
        for path in (ROOT / folder).rglob("*.py"):
            for line, value in _literal_strings(path):
                if re.search(r"[\u0600-\u06FF]", value):
                    offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert not offenders


def _text_keys() -> list[tuple[str, str, bool]]:
    """(where, key or its literal start, whether whole) of every ``.t(...)`` call in the code whose key is
    written out: a plain string is a whole key, an f-string's text before its first placeholder a start."""
    found = []
    for folder in ("engine", "opponents", "tcgtui"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "t" and node.args):
                    continue
                arg, where = node.args[0], f"{path.relative_to(ROOT)}:{node.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append((where, arg.value, True))
                elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
                    found.append((where, arg.values[0].value, False))
    return found


def test_every_key_the_code_names_has_english_text():
    """A key the code names and no locale holds errors the game or screen that reaches it."""
    en = locales.load("en")
    keys = _text_keys()
    assert len(keys) > 300
    missing = [f"{where}: {key}" for where, key, whole in keys
               if not (en.has(key) if whole else any(k.startswith(key) for k in en.entries))]
    assert not missing
