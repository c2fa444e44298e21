"""One look and one set of keys on all seven game screens, and the screen defects of issue 26 §3.

Every game's screen answers ``?`` (rules), ``L`` (the other language, live) and ``q`` (leave, asked
first) in both languages; the duel's editor and field take letters while focused, and Esc gives
the keys back.  Then one test per defect fixed."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from tcgtui import locales
from tcgtui.engine.core import Event
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games.deck import DeckList
from tcgtui.tui.games.grid import GridBoard, _art, cell_size
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.rules import RulesScreen
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.log import BattleLog
from tests.tui.helpers import make_app, play_moves, screen_text, settle

pytestmark = pytest.mark.anyio

GAMES = ["tcg", "tictactoe", "connect4", "gomoku", "eleusis", "duel", "deck"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def game_app(game: str, lang: str = "en") -> ArenaApp:
    if game == "tcg":
        return make_app(lang=lang, seed=7)
    seats, params, seed = {"eleusis": ((HUMAN,), {"rule": 0}, 7),
                           "duel": ((HUMAN, "puzzler"), {"rounds": 2, "check_timeout": 3}, 3),
                           "deck": ((HUMAN,), {"index": 0}, 0)}.get(game, ((HUMAN, "random"), {}, 7))
    return ArenaApp(Settings(seats, game_id=game, params=params, lang=lang, seed=seed, pause=0.0))


def hints(app: ArenaApp) -> list[str]:
    return [key for key, _, _ in app.board.query_one("#keys", KeyBar).hints]


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game", GAMES)
async def test_every_game_screen_has_rules_language_and_leave_keys(game: str, lang: str) -> None:
    app = game_app(game, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.board
        if game == "duel":                                 # typing: the footer offers what works while typing
            assert {"F1", "Ctrl+Q"} <= set(hints(app)) and not {"?", "L", "Q"} & set(hints(app))
            await pilot.press("escape")                    # out of the editor: letters are keys again
            await pilot.pause()
        assert {"?", "L", "Q"} <= set(hints(app))          # the footer says so, on every screen
        await pilot.press("question_mark")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        assert app.screen is board
        if game == "duel":
            await pilot.press("escape")                    # back from the rules, the editor has the focus again
        await pilot.press("l")
        await pilot.pause()
        other = "ar" if lang == "en" else "en"
        assert app.lang == other and board.has_class("rtl") == (other == "ar")
        if game == "duel":
            await pilot.press("escape")
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert app.screen is board and app.is_running


async def test_the_duel_editor_takes_letters_until_esc() -> None:
    app = game_app("duel")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        editor = app.board.query_one("#code", TextArea)
        assert editor.has_focus and "Esc" in hints(app)
        assert "Q" not in hints(app) and "?" not in hints(app) and "Ctrl+Q" in hints(app)   # only keys that work
        await pilot.press("q")                       # typed, not a key: the person is writing code
        assert "q" in editor.text and app.screen is app.board
        await pilot.press("escape")
        await pilot.pause()
        assert "Q" in hints(app) and "?" in hints(app)  # the letters are keys again, and the footer says so
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n", "f2")
        assert app.board.query_one("#value", Input).has_focus


async def test_after_looking_at_the_board_r_still_starts_a_rematch() -> None:
    """Issue 26: after "B board" on game over the footer was stale and R did nothing."""
    app = game_app("tictactoe")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_moves(pilot, app)
        first = app.board
        for _ in range(40):
            if isinstance(app.screen, GameOverScreen):
                break
            await pilot.pause(0.05)
        await pilot.press("b")
        assert app.screen is first
        assert hints(app) == ["R", "?", "L", "Q"]            # the footer says what works now
        await pilot.press("r")
        await settle(pilot, app)
        assert app.board is not first and app.board.session.result is None


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "gomoku"])
async def test_every_board_grows_with_the_terminal(game: str) -> None:
    sizes = []
    for size in ((80, 24), (120, 40), (200, 50)):
        app = game_app(game)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            widget = app.board.query_one(GridBoard)
            sizes.append(widget.cell())
            o = widget.obs
            lines = widget.render().renderables       # every line fits the widget
            assert all(line.cell_len <= widget.size.width for line in lines)
            assert len(lines) <= widget.size.height
            r, c = o.rows - 1, o.cols - 1                 # a click in the last cell's middle finds it
            assert widget.cell_at(*widget.cell_middle(r, c)) == (r, c)
    assert sizes[0] <= sizes[1] <= sizes[2] and sizes[0] < sizes[2]   # Gomoku's 15 rows: the height bounds it
    if game == "tictactoe":
        assert sizes[0][1] >= 5                     # large at 80x24: no longer a 3x3 of dots in a corner


def test_cells_keep_a_cell_shape_and_a_minimum() -> None:
    assert cell_size("gomoku", 15, 15, 10, 5, 1) == (3, 1)
    w, h = cell_size("connect4", 6, 7, 200, 200, 2)
    assert w == 2 * h + 1


async def test_gomoku_fills_the_height_of_a_120x40_terminal() -> None:
    """Issue (second pass): 3x1 cells left 20 empty rows under the board at 120x40."""
    app = game_app("gomoku")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        widget = app.board.query_one(GridBoard)
        empty = widget.size.height - len(widget.render().renderables)
        assert widget.cell()[1] == 2 and empty <= 6


@pytest.mark.parametrize("game", ["connect4", "gomoku"])
@pytest.mark.parametrize("h", [1, 2, 3, 4])
def test_the_two_sides_differ_in_shape_not_only_colour(game: str, h: int) -> None:
    w = 2 * h + 1
    for width in {w, w - 1} if h > 1 else {w}:
        assert _art(game, "X", width, h) != _art(game, "O", width, h)


@pytest.mark.parametrize("lang, count, text", [
    ("en", 1, "1 card was set aside"), ("en", 3, "3 cards were set aside"),
    ("ar", 6, "6 أوراق"), ("ar", 12, "12 ورقة"), ("ar", 2, "ورقتان"), ("ar", 1, "ورقة واحدة")])
def test_set_aside_cards_are_counted_in_the_languages_plural(lang: str, count: int, text: str) -> None:
    """Issue 26: "1 cards were set aside", «6 ورقة»."""
    assert text in locales.load(lang).t("eleusis.events.start", card="Q♦", count=count)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_numbers_on_the_game_screens_take_plural_forms(lang: str) -> None:
    cat = locales.load(lang)
    one, many = cat.t("duel.ui.panel.score", score=0, penalties=1), cat.t("duel.ui.panel.score", score=0, penalties=5)
    assert one != many and "1 penalties" not in one
    assert cat.t("eleusis.ui.said.guess_wrong", penalty=2) != cat.t("eleusis.ui.said.guess_wrong", penalty=5)
    assert cat.t("duel.events.invalid", player="m", kind="format", left=1) != \
        cat.t("duel.events.invalid", player="m", kind="format", left=3)


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_guess_is_logged_as_code_on_its_own_lines(lang: str) -> None:
    """Issue 26: the log broke code across lines with stray quotes, and multi-line guesses were flattened."""
    app = game_app("eleusis", lang)
    code = "if not mainline:\n    return True\nreturn card.color != mainline[-1].color"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        log = app.board.query_one(BattleLog)
        await log.add([Event("guess", 0, {"correct": False, "code": code, "rule": code, "turn": 1})], 0)
        await pilot.pause()
        rows = [text for text, _, _ in log._rows]
        assert "  if not mainline:" in rows and "      return True" in rows
        assert not any('"' in row for row in rows[-4:])


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_eleusis_reads_from_the_right_in_arabic(lang: str) -> None:
    app = game_app("eleusis", lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        hand = app.board.query_one("#hand")
        first = hand.index_at(hand.size.width - 3 if lang == "ar" else 2)
        assert first == 0                       # the first card on the reading side
        await pilot.press("right")              # the arrow moves the choice on screen
        assert app.board.cursor == (len(app.board.obs.hand) - 1 if lang == "ar" else 1)


async def test_the_deck_quiz_shows_what_the_decks_cards_do() -> None:
    """Issue 26: the deck was names only, so a person could not judge which option completes it."""
    app = game_app("deck")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        from tcgtui.engine.deck.view import deck_groups
        board = app.board
        groups = deck_groups(board.question, board.pack, app.catalog)
        assert all(len(g.texts) == len(g.cards) for g in groups)
        assert board.query_one(DeckList).size.height > sum(len(g.cards) for g in groups) * 2
        assert groups[0].texts[0].split()[0] in screen_text(app)


@pytest.mark.parametrize("game, lang", [("tcg", "en"), ("eleusis", "ar"), ("eleusis", "en")])
async def test_the_seed_stays_in_the_header_at_80_columns(game: str, lang: str) -> None:
    """The app's name goes before the seed when the top bar is short of room (issue 26)."""
    from tcgtui.tui.widgets.bars import TopBar
    app = game_app(game, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        bar = app.board.query_one(TopBar)
        shown = [p.text for p in bar.render().pieces]
        assert str(app.board.session.seed) in shown and app.catalog.t("ui.top.seed") in shown


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_long_opponent_name_stays_whole_at_80_columns(lang: str) -> None:
    """While it thinks, with the watch state shown: "Turn" and the thinker's repeated name go before
    any of the opponent's name is cut (issue 34)."""
    from tcgtui.tui.widgets.bars import TopBar
    app = game_app("tcg", lang)
    name = "llm:Qwen2.5-7B-Instruct-Q4"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        bar = app.board.query_one(TopBar)
        bar.show(players=("ann", name), thinking=name, watch=(False, 0.5))
        await pilot.pause()
        line = bar.render()
        shown = line.fit(bar.size.width).plain
        assert name in shown and str(app.board.session.seed) in shown
        assert app.catalog.t("ui.top.thinking_short") in [p.text for p in line.pieces]
