"""Home's llm:MODEL entry: a model with nowhere to ask it is one line a person at home can act on
(the registry's file and docs/llm.md, in the reader's language), not the command line's "--base-url"."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tcgtui.opponents.llm.model_registry import registry_path
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.screens.home import LLM

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_an_unknown_model_without_an_endpoint_names_the_registry_file(monkeypatch, lang: str) -> None:
    for var in ("TCGTUI_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0, lang=lang))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        home = app.screen
        said: list[str] = []
        monkeypatch.setattr(home, "notify", lambda message, **kw: said.append(message))
        home.query_one("#opponents").select(LLM)
        home.query_one("#model", Input).value = "nosuch"
        home.action_play()
        await pilot.pause()
        assert app.board is None and len(said) == 1
        assert "nosuch" in said[0] and str(registry_path()[0]) in said[0] and "--base-url" not in said[0]
        assert ("your model registry" if lang == "en" else "سجل نماذجك") in said[0]
