"""The card game under --protocol seed on the screen: a watched game runs to its end."""

from __future__ import annotations

import pytest

from tcgtui.match import FINISHED
from tcgtui.games.tcg.packs import load_pack
from tcgtui.tui.app import Settings, TcgApp
from tests.tui.helpers import screen_text, settle

pytestmark = pytest.mark.anyio


async def test_watch_random_against_the_released_rollout_to_the_end() -> None:
    settings = Settings(("random", "rollout:1"), params={"pack": load_pack("community"), "protocol": "seed"},
                        lang="en", seed=42, pause=0.0)  # type: ignore[arg-type]
    app = TcgApp(settings)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.pause()
        result = app.board.session.result
        assert app.failure is None and result is not None and result.status == FINISHED
        assert result.record.setup["protocol"] == "seed"
        assert "wins" in screen_text(app) or "draw" in screen_text(app)
