"""``tcgtui rules --game ID``: every registered game's rules text, in English and Arabic."""

from __future__ import annotations

import re

import pytest

from tcgtui import locales, rtl
from tcgtui.arena import build_game
from tcgtui.cli import main
from tcgtui.engine import registry

GAMES = [s.id for s in registry.games() if s.rules_text is not None]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_every_listed_game_has_rules_text():
    listed = {s.id for s in registry.games() if s.info.variant_of is None}
    assert listed <= set(GAMES) and {"tcg", "duel", "eleusis", "tictactoe"} <= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rules_prints_every_sentence_of_the_game(game_id, lang, capsys):
    spec = registry.get(game_id)
    cat = locales.load(lang)
    sentences = [s for _, s in spec.rules_text(build_game(spec, spec.info.resolve()), cat)]
    assert main(["rules", "--game", game_id, "--lang", lang, "--rtl", "off"]) == 0
    out = flat(capsys.readouterr().out)
    assert all(flat(s) in out for s in sentences)
    if lang == "ar":                         # shaped and reordered for display by the one path
        assert main(["rules", "--game", game_id, "--lang", lang, "--rtl", "app"]) == 0
        shown = capsys.readouterr().out
        word = max(sentences[0].split(), key=len)
        assert rtl.visual(rtl.shape(word)) in shown and word not in shown


def test_rules_take_the_games_parameters(capsys):
    assert main(["rules", "--game", "duel", "--param", "rounds=4", "--param", "check_timeout=2"]) == 0
    out = flat(capsys.readouterr().out)
    assert "A duel has 4 rounds" in out and "at most 2 seconds" in out


def test_an_unknown_game_is_one_line(capsys):
    assert main(["rules", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'chess' is not a game" in err
