"""``tcgtui watch``: two agents on the board, with pause, single-step, speed and streams."""

from __future__ import annotations

import threading

import pytest

from tcgtui.opponents.registry import BUILDERS
from tcgtui.match import FINISHED
from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.session import PAUSE_STEPS
from tcgtui.tui.games.tcg.player import HiddenCards
from tcgtui.tui.widgets.stream import StreamPanel
from tests.tui.helpers import make_app, screen_text, settle

pytestmark = pytest.mark.anyio


async def test_watch_random_vs_random_to_the_end() -> None:
    app = make_app(("random", "random"), seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        result = app.board.session.result
        assert app.failure is None and result is not None and result.status == FINISHED
        assert isinstance(app.screen, GameOverScreen)
        winner = result.outcome.winner
        assert f"P{winner + 1} random wins." in screen_text(app)


async def test_pause_step_resume_and_speed() -> None:
    app = make_app(("random", "random"), seed=8, pause=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        session = app.board.session
        await pilot.press("space")
        await pilot.pause(0.1)
        held = len(session.decisions)
        await pilot.pause(0.2)
        assert len(session.decisions) == held and session.paused
        for expected in (held + 1, held + 2):
            await pilot.press("n")
            await pilot.pause(0.1)
            assert len(session.decisions) == expected
        # The spectator sees both hands: names, not backs.
        hidden = app.board.query_one(HiddenCards)
        assert isinstance(hidden.hand, list)
        await pilot.press("minus")
        assert session.pause == PAUSE_STEPS[-2]
        await pilot.press("plus")
        assert session.pause == PAUSE_STEPS[-1]
        await pilot.press("space")
        await settle(pilot, app)
        assert session.result is not None and session.result.status == FINISHED


async def test_model_output_streams_into_its_panel_from_any_thread() -> None:
    app = make_app(("random", "random"), seed=8)
    async with app.run_test(size=(100, 30)) as pilot:
        board = app.board
        board.session.set_paused(True)
        board.streams = True
        await board.query_one("#side").mount(StreamPanel(id="stream"))
        hook = app._stream_hook()
        hook("reasoning", "I hold Direct Strike; ")
        worker = threading.Thread(target=hook, args=("reasoning", "the opponent has 3 LP."))
        worker.start()
        worker.join()
        await pilot.pause(0.3)
        hook("answer", "direct_strike")
        hook("attempt", "2")
        await pilot.pause(0.3)
        panel = board.query_one(StreamPanel)
        assert panel.body.parts == [["reasoning", "I hold Direct Strike; the opponent has 3 LP."],
                                    ["answer", "direct_strike"], ["attempt", "New attempt: 2\n"]]
        text = screen_text(app)
        assert "I hold Direct Strike;" in text and "direct_strike" in text and "New attempt: 2" in text


@pytest.mark.skipif("mc" not in BUILDERS, reason="mc:K players arrive with branch 'opponents'")
async def test_watch_mc10_vs_random() -> None:
    app = make_app(("mc:10", "random"), seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        assert app.failure is None and app.board.session.result.status == FINISHED


async def test_after_the_game_the_top_bar_no_longer_says_playing() -> None:
    app = make_app(("random", "random"), seed=5, pause=0.25)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("plus", "plus")       # faster: 0.25 s, then 0 s per move
        await settle(pilot, app)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("b")                  # back to the board
        await pilot.pause()
        top = screen_text(app).splitlines()[0]
    assert "Playing" not in top and "Paused" not in top, top

