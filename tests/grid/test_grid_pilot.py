"""The grid games and the home screen, driven by keys and clicks as a person would."""

from __future__ import annotations

import pytest

from tcgtui.engine import registry
from tcgtui.engine.core import GameRecord, replay
from tcgtui.match import FINISHED
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games import screen_for
from tcgtui.tui.games.grid import GridBoard, GridScreen
from tcgtui.tui.screens.dialogs import GameOverScreen
from tests.tui.helpers import screen_text, settle

pytestmark = pytest.mark.anyio


def grid_app(game: str, seats: tuple[str, ...] = (HUMAN, "random"), lang: str = "en", seed: int = 3,
             **params: object) -> ArenaApp:
    return ArenaApp(Settings(seats, game_id=game, params=dict(params), lang=lang, seed=seed, pause=0.0))


def check_finished(app: ArenaApp) -> None:
    result = app.board.session.result
    assert app.failure is None
    assert result is not None and result.status == FINISHED
    assert isinstance(app.screen, GameOverScreen)
    again = replay(app.game, GameRecord.from_json(result.record.to_json()))
    assert again.state.outcome == result.outcome


def test_each_grid_game_finds_its_screen_lazily() -> None:
    for gid in ("tictactoe", "connect4", "gomoku"):
        assert screen_for(gid) is GridScreen
    assert screen_for("tcg").__name__ == "BoardScreen"


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_tictactoe_by_keys_against_random_to_the_end(lang: str) -> None:
    app = grid_app("tictactoe", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.board
        for _ in range(9):
            if board.session.result is not None:
                break
            obs = board.session.observation(0)
            r, c = next((r, c) for r in range(3) for c in range(3) if obs.board[r][c] == ".")
            while board.cursor != (r, c):          # walk the cursor there, as a person would
                dr = (r > board.cursor[0]) - (r < board.cursor[0])
                await pilot.press("down" if dr > 0 else "up" if dr < 0 else
                                  "right" if c > board.cursor[1] else "left")
            await pilot.press("enter")
            await settle(pilot, app)
        check_finished(app)
        await pilot.press("enter")            # Enter on the result keeps it: no rematch by accident
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen) and app.board is board
        await pilot.press("R")                # R (Shift or Caps Lock too) deals the next game
        await settle(pilot, app)
        assert app.board is not board and app.board.session.seed == 4


async def test_tictactoe_by_clicks_a_click_selects_a_second_plays() -> None:
    app = grid_app("tictactoe", seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        widget = board.query_one(GridBoard)
        for _ in range(9):
            if board.session.result is not None:
                break
            obs = board.session.observation(0)
            free = [(r, c) for r in range(3) for c in range(3) if obs.board[r][c] == "."]
            r, c = next((cell for cell in free if cell != board.cursor), free[0])
            if (r, c) != board.cursor:
                await pilot.click(widget, offset=widget.cell_middle(r, c))
                assert board.cursor == (r, c) and board.session.human_waiting() is not None    # selected only
            await pilot.click(widget, offset=widget.cell_middle(r, c))
            await settle(pilot, app)
            assert board.session.decisions[-1].seat == 1 or board.session.result is not None
        check_finished(app)
        mine = [d.move for d in board.session.decisions if d.seat == 0]
        assert mine and all("," in m for m in mine)


async def test_connect4_by_number_keys() -> None:
    app = grid_app("connect4", seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert "▼" in screen_text(app)                 # the marker over the chosen column
        for col in (4, 3, 5, 4, 2, 6, 1):
            if board.session.result is not None:
                break
            if str(col) in board.session.human_waiting().legal_moves:
                await pilot.press(str(col))
                assert board.cursor[1] == col - 1 and board.session.human_waiting() is not None   # chosen, not played
                await pilot.press("enter")
                await settle(pilot, app)
        mine = [d.move for d in board.session.decisions if d.seat == 0]
        assert mine[0] == "4" and all(m.isdigit() for m in mine)
        assert board.obs.board[-1][3] == "X"               # the first disc fell to the bottom


async def test_gomoku_a_few_moves_by_cursor_in_arabic() -> None:
    app = grid_app("gomoku", lang="ar", seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert board.has_class("rtl")
        assert board.cursor == (7, 7)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("up", "up", "left")
        if board.obs.board[board.cursor[0]][board.cursor[1]] == ".":
            await pilot.press("enter")
            await settle(pilot, app)
        moves = [d.move for d in board.session.decisions if d.seat == 0]
        assert moves[0] == "8,8" and len(moves) >= 1
        text = screen_text(app)
        assert "15" in text and "Log" not in text         # coordinates drawn, prose in Arabic
        assert board.query_one(GridBoard).region.right <= 80


async def test_home_screen_connect4_random_arabic() -> None:
    from tcgtui.tui.screens.home import opponents_for
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games")
        await pilot.press(*["down"] * games.values.index("connect4"))
        await pilot.press("tab")                       # opponents: mc:100 is first
        await pilot.press(*["down"] * opponents_for("connect4").index("random"))
        await pilot.press("tab", "tab", "up")          # seats, then languages: en, ar -> ar
        await pilot.pause()
        assert app.catalog.code == "ar" and app.screen.has_class("rtl")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, GridScreen) and app.board.game_id == "connect4"
        assert app.board.session.seats[1].label == "random" and app.board.has_class("rtl")


def test_registered_grid_games_have_names_on_the_home_screen() -> None:
    from tcgtui import locales
    from tcgtui.tui.screens.home import opponents_for
    from tcgtui.tui.widgets.title import game_text
    for lang in ("en", "ar"):
        cat = locales.load(lang)
        for spec in registry.games():
            assert game_text(cat, spec.id, "name") != spec.id
    assert opponents_for("connect4")[0] == "mc:100" and opponents_for("connect4")[-2:] == ["llm:", "human"]


async def test_gomoku_by_a_typed_coordinate() -> None:
    """Row, comma, column, as moves are written: "15,12" selects row 15, column 12 without thirty
    arrow presses; Enter plays it."""
    app = grid_app("gomoku", seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        await pilot.press("1", "5", "comma", "1", "2")
        assert board.cursor == (14, 11) and not board.session.decisions
        await pilot.press("enter")
        await settle(pilot, app)
        assert [d.move for d in board.session.decisions if d.seat == 0][0] == "15,12"
        assert "1-15,1-15" in screen_text(app)
