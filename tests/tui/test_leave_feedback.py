"""Leaving while a player still thinks takes seconds (an Eleusis scientist: 3-5 s): a notice says so
first, painted before the wait, so the screen does not look frozen."""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app, settle

pytestmark = pytest.mark.anyio


async def test_leaving_while_a_player_thinks_says_so_before_the_wait() -> None:
    app = make_app(seed=4, game_id="tcg")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        board = app.board
        board.session.thinking = 1                   # the opponent is deciding
        said: list[str] = []
        notify = app.notify
        app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))  # type: ignore[method-assign]
        app.leave()
        assert app.is_running                        # not yet: the notice is painted first
        [notice] = said
        assert notice.startswith("Stopping ") and board.label_for(1) in notice
        await pilot.pause()
    assert app.return_code == 0
