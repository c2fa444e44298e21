"""Whole games of ``tcgtui play`` driven by key presses and clicks, as a person would."""

from __future__ import annotations

import pytest

from tcgtui.engine.core import GameRecord, replay
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.registry import BUILDERS
from tcgtui.match import FINISHED
from tcgtui.tui.app import HUMAN
from tcgtui.tui.screens.board import BoardScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.rules import RulesScreen
from tcgtui.tui.games.tcg.cards import CardFace
from tcgtui.tui.games.tcg.detail import DetailPane
from tests.tui.helpers import make_app, play_moves, screen_text, settle

pytestmark = pytest.mark.anyio


def check_finished(app) -> None:  # type: ignore[no-untyped-def]
    board = app.board
    result = board.session.result
    assert app.failure is None
    assert result is not None and result.status == FINISHED
    assert isinstance(app.screen, GameOverScreen)
    # The record the person made by pressing keys replays to the same end.
    again = replay(TcgGame(app.settings.params["pack"]), GameRecord.from_json(result.record.to_json()))
    assert again.state.outcome == result.outcome
    assert app.results == [result]


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_whole_game_by_keys_against_random(lang: str) -> None:
    app = make_app(lang=lang, seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        # Arrow right then Enter: not always the first card.
        moves = await play_moves(pilot, app, ("right", "enter"))
        check_finished(app)
        assert moves >= 3
        human = [d for d in app.board.session.decisions if d.seat == 0]
        assert len(human) == moves and all(d.seconds >= 0 for d in human)
        text = screen_text(app)
        assert ("Turns" in text) if lang == "en" else ("Turns" not in text)


async def test_digit_keys_pick_the_card_that_is_played() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        hand = board.hand
        assert len(hand) >= 2
        await pilot.press("2")
        assert board.selected == 1
        assert app.screen.query_one(DetailPane).slot.card == hand[1]
        await pilot.press("enter")
        await settle(pilot, app)
        assert board.session.decisions[0].move == hand[1]


async def test_clicks_select_then_play() -> None:
    app = make_app(seed=9)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        hand = board.hand
        faces = sorted(board.query("#hand CardFace").results(CardFace), key=lambda f: f.slot.index)
        await pilot.click(faces[-1])
        assert board.selected == len(hand) - 1
        assert board.session.decisions == []          # the first click only selects
        await pilot.click(faces[-1])
        await settle(pilot, app)
        assert board.session.decisions[0].move == hand[-1]


async def test_arrows_are_mirrored_in_arabic() -> None:
    app = make_app(lang="ar", seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert board.has_class("rtl")
        await pilot.press("left")        # in a right-to-left row, left is the next card
        assert board.selected == 1
        await pilot.press("right")
        assert board.selected == 0


async def test_language_toggles_live_and_mirrors_the_layout() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert "Battle log" in screen_text(app)
        side_x = app.screen.query_one("#side").region.x
        await pilot.press("l")
        await pilot.pause()
        assert app.catalog.code == "ar" and app.screen.has_class("rtl")
        assert app.screen.query_one("#side").region.x < side_x      # the side pane moved left
        assert "Battle log" not in screen_text(app)
        await pilot.press("l")
        await pilot.pause()
        assert app.catalog.code == "en" and not app.screen.has_class("rtl")
        assert "Battle log" in screen_text(app)


async def test_rules_open_and_close() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert isinstance(app.screen, RulesScreen)
            text = screen_text(app)
            assert "Each player starts with 10 life points (LP)." in text     # numbers from the pack
            await pilot.press("escape")
            assert isinstance(app.screen, BoardScreen)


async def test_quit_asks_first() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("n")
        assert isinstance(app.screen, BoardScreen)
        await pilot.press("ctrl+c")                       # Ctrl+C asks too
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_code == 0 and not app.is_running


async def test_rematch_deals_the_next_seed() -> None:
    app = make_app(seed=21, pack="starter")     # three cards: a game of a few moves
    async with app.run_test(size=(80, 24)) as pilot:
        await play_moves(pilot, app)
        check_finished(app)
        first = app.board
        await pilot.press("r")
        await settle(pilot, app)
        assert app.board is not first and isinstance(app.screen, BoardScreen)
        assert app.board.session.seed == 22
        assert app.board.session.result is None and app.board.hand


async def test_second_seat_waits_for_the_opponent_first() -> None:
    app = make_app(("random", HUMAN), seed=4, pack="starter")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        session = app.board.session
        assert session.viewer == 1
        assert [d.seat for d in session.decisions] == [0]       # the opponent already moved
        moves = await play_moves(pilot, app)
        check_finished(app)
        assert moves >= 1


@pytest.mark.skipif("mc" not in BUILDERS, reason="mc:K players arrive with branch 'opponents'")
async def test_whole_game_against_mc10() -> None:
    app = make_app(("human", "mc:10"), seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_moves(pilot, app)
        check_finished(app)


async def test_the_log_follows_new_entries_and_survives_a_resize() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        log = app.board.query_one("#log")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert 0 <= log.scroll_y <= log.max_scroll_y
        assert "Turn 1: your turn." in screen_text(app)
        for _ in range(4):
            await pilot.press("enter")
            await settle(pilot, app)
        assert log.scroll_y == log.max_scroll_y > 0          # the newest entry is in view
