"""The first-run compile notice: short, true (the opponent plays meanwhile), in the reader's language."""

from __future__ import annotations

import pytest

from tcgtui import locales
from tcgtui.tui.games.base import NOTICE_S
from tests.tui.helpers import make_app, settle

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_notice_says_the_opponent_plays_meanwhile_and_goes_in_seconds(lang: str) -> None:
    text = locales.load(lang).t("ui.notify.compiling")
    assert NOTICE_S <= 10                          # it covered the log's border for the whole compile (minutes)
    assert ("meanwhile" in text) if lang == "en" else ("في أثناء ذلك" in text)
    assert "when it is done" not in text


async def test_l_while_compiling_shows_the_notice_again_in_the_new_language() -> None:
    app = make_app(seed=4, game_id="tcg")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        english = locales.load("en").t("ui.notify.compiling")
        app.compiling, _ = object(), app.search_ready.clear()        # a compile under way
        app.notify(english, timeout=NOTICE_S)
        await pilot.press("l")
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert len(messages) == 1 and messages[0] != english and app.lang == "ar"
        app.compiling = None
