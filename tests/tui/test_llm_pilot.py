"""The TUI against a language model: a real local HTTP server speaking the chat API."""

from __future__ import annotations

import pytest

from tcgtui.match import ERRORED, FINISHED
from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.widgets.stream import StreamPanel
from tests.tui.helpers import make_app, play_moves, screen_text, settle

testserver = pytest.importorskip("tcgtui.opponents.llm.testserver", reason="llm: players arrive with branch 'llm'")
pytestmark = pytest.mark.anyio


def options(url: str) -> dict[str, object]:
    return {"agent_options": {"base_url": url, "stream": True, "max_retries": 0, "api_key": "sk-test"}}


async def test_whole_game_by_keys_against_a_model_that_streams() -> None:
    with testserver.ChatServer(policy=testserver.game_policy("tcg", 1, think=True)) as server:
        app = make_app(("human", "llm:fake"), seed=3, **options(server.base_url))
        async with app.run_test(size=(120, 40)) as pilot:
            moves = await play_moves(pilot, app)
            result = app.board.session.result
            assert app.failure is None and result.status == FINISHED and moves >= 3
            assert isinstance(app.screen, GameOverScreen)
            panel = app.board.query_one(StreamPanel)
            kinds = {kind for kind, _ in panel.body.parts}
            assert {"reasoning", "answer"} <= kinds          # the last decision's stream, as it came
        assert len(server.requests) == sum(1 for d in result.decisions if d.seat == 1)


async def test_watching_a_model_shows_its_reasoning_in_arabic_too() -> None:
    with testserver.ChatServer(policy=testserver.game_policy("tcg", 2, think=True)) as server:
        app = make_app(("llm:fake", "random"), lang="ar", seed=4, **options(server.base_url))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.pause(0.3)
            assert app.board.session.result.status == FINISHED
            await pilot.press("b")                   # close the summary, look at the board
            await pilot.pause(0.2)
            assert "BEGIN_MOVE" in screen_text(app)   # the answer, streamed into its panel


async def test_an_endpoint_that_is_down_ends_the_game_as_errored_not_lost() -> None:
    with testserver.ChatServer(faults=lambda i, r: testserver.Fault.http(503)) as server:
        app = make_app(("human", "llm:fake"), seed=5, **options(server.base_url))
        async with app.run_test(size=(100, 30)) as pilot:
            await play_moves(pilot, app)
            result = app.board.session.result
            assert app.failure is None and result.status == ERRORED and result.outcome is None
            assert "The game could not finish" in screen_text(app)


async def test_a_first_request_is_not_announced_as_a_new_attempt() -> None:
    """Every decision began with a yellow "New attempt: 1", which reads like a retry (issue 12 §4)."""
    with testserver.ChatServer(policy=testserver.game_policy("tcg", 1)) as server:
        app = make_app(("llm:fake", "random"), seed=3, **options(server.base_url))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.pause(0.3)
            panel = app.board.query_one(StreamPanel)
            assert panel.body.parts, "the last decision's stream is on screen"
            assert "attempt" not in {kind for kind, _ in panel.body.parts}
            panel.feed("attempt", "2")              # a real retry is still announced
            assert panel.body.parts[-1] == ["attempt", "New attempt: 2\n"]
