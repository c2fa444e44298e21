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



@pytest.mark.parametrize("game, player", [("eleusis", "scientist"), ("deck", "random")])
async def test_a_one_seat_game_is_watched_to_its_summary_with_p1_alone(tmp_path, game: str, player: str) -> None:
    """``tcgtui watch --game eleusis|deck --p1 SPEC``: one seat, so no --p2 (it seated a second player the
    game has no seat for, and the summary's table failed, IndexError); the deck's reveal goes on by itself."""
    from tcgtui.cli import build_parser
    from tcgtui.commands import watch as watch_command
    from tcgtui.store import Store
    from tcgtui.tui.app import ArenaApp
    with Store(tmp_path / "watch.sqlite3") as store:
        args = build_parser().parse_args(["watch", "--game", game, "--p1", player, "--seed", "3", "--pause", "0.05"])
        app = ArenaApp(watch_command.prepare(args, store))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(1200):                      # no key pressed: a watch goes on alone
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, GameOverScreen) and len(app.board.session.seats) == 1
            for _ in range(60):                        # the dialog is pushed before it is first drawn
                if f"P1 {player}" in screen_text(app):
                    break
                await pilot.pause(0.05)
            assert f"P1 {player}" in screen_text(app)
            await pilot.press("q")
        assert app._exception is None and app.return_code in (None, 0)
        [row] = store.games()
        assert row.status == FINISHED and row.seats == (player,)
