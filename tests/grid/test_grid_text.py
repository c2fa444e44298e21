"""Prompts in three styles and two languages, reply parsing, narration and the seed JSON."""

from __future__ import annotations

import base64
import io
import json

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.engine.grid import GridNarrator
from tests.grid.helpers import game, state


def prompter(gid, code="en", seat=0, style="list", **params):
    spec = registry.get(gid)
    return spec.prompter(spec.game(params), locales.load(code), seat, style)


@pytest.mark.parametrize("code", ["en", "ar"])
@pytest.mark.parametrize("gid", ["tictactoe", "connect4", "gomoku"])
def test_list_and_illustration_prompts(code, gid):
    s = state(gid)
    s.apply(s.legal_moves()[0])
    obs = s.observation(1)
    for style in ("list", "illustration"):
        p = prompter(gid, code, 1, style)
        assert p.keeps_history is False and p.system() is None
        assert p.version.startswith(f"grid-v1-{code}-{style}-")
        msg = p.turn(obs, [])
        assert msg["role"] == "user" and isinstance(msg["content"], str)
        text = msg["content"]
        assert "JSON" in text and "{" in text and str(registry.get(gid).game().config.invalid_limit) in text
        assert ('"row"' in text) != (gid == "connect4") and '"column"' in text
        assert (locales.load(code).t("grid.prompts.retry.previous", reply="Q")[:8] not in text)
        if style == "illustration":
            rows = p.board_rows(obs)
            assert len(rows) == obs.rows and all(r in text for r in rows)
            assert set("".join(rows)) <= {"e", *registry.get(gid).game().config.variant.symbols}
        else:
            first = "1,1" if gid != "connect4" else "6,1"
            assert first in text
    assert prompter(gid, code, 1, "list").version != prompter(gid, code, 1, "illustration").version


def test_list_prompt_names_the_cells_or_none_and_the_role():
    p = prompter("tictactoe")
    s = state("tictactoe", "X../.O./..X")
    text = p.turn(s.observation(1), [])["content"]
    assert "1,1; 3,3" in text and "2,2" in text and "second player" in text
    empty = p.turn(state("tictactoe").observation(0), [])["content"]
    assert empty.count("none") == 2 and "first player (X" in empty


def test_retry_adds_the_previous_reply_reason_and_what_is_left():
    p = prompter("tictactoe")
    s = state("tictactoe")
    s.apply_invalid("format", "hello")
    msg = p.turn(s.observation(0), [], retry=("hello there", p.reason(p.parse("hello there", s.observation(0)))))
    text = msg["content"]
    assert "hello there" in text and "2 more invalid moves" in text and "JSON" in text
    ar = prompter("tictactoe", "ar").turn(s.observation(0), [], retry=("hello there", "x"))["content"]
    assert "hello there" in ar and "نقلتان" in ar


@pytest.mark.parametrize("code", ["en", "ar"])
@pytest.mark.parametrize("gid", ["tictactoe", "connect4", "gomoku"])
def test_image_prompt_has_a_512_png(code, gid):
    from PIL import Image
    p = prompter(gid, code, 0, "image")
    s = state(gid)
    s.apply(s.legal_moves()[-1])
    msg = p.turn(s.observation(1), [])
    text, image = msg["content"]
    assert text["type"] == "text" and "JSON" in text["text"]
    url = image["image_url"]["url"]
    assert image["type"] == "image_url" and url.startswith("data:image/png;base64,")
    img = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert img.format == "PNG" and img.size == (512, 512)


@pytest.mark.parametrize("reply, move, error", [
    ('{"row": 2, "column": 3}', "2,3", None),
    ('Sure! I will play {\u201crow\u201d: 3, \u201ccolumn\u201d: 1} as my move.', "3,1", None),
    ("{'row': 1, 'column': 2}", "1,2", None),
    ('first {"row": 9} then {"row": "3", "column": "3"}', "3,3", None),
    ("I play the centre", None, "format"),
    ('{"row": "two", "column": 3}', None, "format"),
    ('{"row": 2}', None, "format"),
    ('{"row": 2, "column": 3, "why": "x"}', None, "format"),
    ('{"row": 2, "column": 3', None, "format"),
    ('{"row": true, "column": 3}', None, "format"),
    ('{"row": 4, "column": 1}', None, "out_of_bounds"),
    ('{"row": 0, "column": 1}', None, "out_of_bounds"),
    ('{"row": 1, "column": 1}', None, "taken"),
])
def test_parse_tictactoe(reply, move, error):
    p = prompter("tictactoe")
    obs = state("tictactoe", "X../.O./...").observation(0)
    got = p.parse(reply, obs)
    assert (got.move, got.error, got.path) == (move, error, "json")
    if error:
        assert p.reason(got) and prompter("tictactoe", "ar").reason(got) != p.reason(got)


def test_parse_connect4_columns():
    p = prompter("connect4")
    obs = state("connect4", "X....../O....../X....../O....../X....../O......").observation(0)
    assert p.parse('{"column": 4}', obs).move == "4"
    assert p.parse('{"column": 1}', obs).error == "taken"
    assert "full" in p.reason(p.parse('{"column": 1}', obs))
    assert p.parse('{"column": 8}', obs).error == "out_of_bounds"
    assert p.parse('{"row": 1, "column": 4}', obs).error == "format"


def test_narrator_tells_moves_invalid_attempts_and_endings():
    g = game("tictactoe", invalid_limit=1)
    m = Match(g, 0)
    m.play("2,3")
    m.play_invalid("taken", "x")
    en = GridNarrator(g, locales.load("en"), 0).all(m.events)
    assert en[0] == "X plays row 2, column 3."
    assert "O" in en[1] and "already taken" in en[1] and "0 more" in en[1]
    more = m.play_invalid("format", "y")
    lines = GridNarrator(g, locales.load("en")).all(more)
    assert "disqualified" in lines[-1] and "X wins" in lines[-1]
    c = game("connect4")
    cm = Match(c, 0)
    cm.play("4")
    assert GridNarrator(c, locales.load("en")).all(cm.events) == ["Red drops a disc in column 4; it lands on row 6."]
    ar = GridNarrator(c, locales.load("ar")).all(cm.events)
    assert "الأحمر" in ar[0]
    w = state("tictactoe", "XX./OO./...")
    assert "completes a line of 3 and wins" in GridNarrator(g, locales.load("en")).all(w.apply("1,3"))[1]
    d = state("tictactoe", "XOX/XOO/OX.")
    assert "draw" in GridNarrator(g, locales.load("en")).all(d.apply("3,3"))[-1]
    k = state("tictactoe", move_cap=1)
    assert "cancelled" in GridNarrator(game("tictactoe", move_cap=1), locales.load("en")).all(k.apply("1,1"))[-1]


