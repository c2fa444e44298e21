"""Life points run out at 0: the board, the log and the game-over dialog never show -1
(issue 12 §4), though damage past zero stays in the state."""

from __future__ import annotations

import re

import pytest

from tcgtui.tui.widgets.log import BattleLog
from tests.tui.helpers import make_app, play_moves, screen_text

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_game_lost_past_zero_shows_zero_life_points(lang: str) -> None:
    app = make_app(seed=0, lang=lang)          # seed 0: the person's last hit takes them to -1
    async with app.run_test(size=(120, 40)) as pilot:
        await play_moves(pilot, app)
        assert min(app.board.session.match.state.lp) < 0
        dialog = screen_text(app)
        battle_log = app.board.query_one(BattleLog)
        log = "\n".join(line for e in battle_log.entries for ev in e.events
                        if (line := battle_log.narrate(ev, e.seat, app.catalog)))
        assert log
    assert not re.search(r"-\s*1\b|−1", dialog), dialog
    assert "-1" not in log
    # The log's last damage sentence and the dialog's column both say 0.
    assert re.search(r"\b0\b", dialog)
