"""The language a person chose on a screen is the next start's (``lang`` in the settings file,
kept as the handle is): the issue's "the chosen language is forgotten by the next start"."""

from __future__ import annotations

import pytest

from tcgtui import config
from tcgtui.cli import build_parser
from tcgtui.errors import UserError
from tests.tui.helpers import make_app, settle

pytestmark = pytest.mark.anyio


async def test_l_on_a_board_keeps_the_language_for_the_next_start() -> None:
    config.config_path().write_text('handle = "ada"\ngame = "tictactoe"\n', encoding="utf-8")
    assert config.saved_language() == "en"
    app = make_app(seed=4, game_id="tcg")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("l")
        await pilot.pause()
        assert app.lang == "ar"
    assert config.saved_language() == "ar"
    assert config.saved_handle() == "ada" and config.default_game() == "tictactoe"     # the rest is kept
    assert build_parser("play").parse_args(["play"]).lang == "ar"                     # the next start speaks it
    assert build_parser("play").parse_args(["play", "--lang", "en"]).lang == "en"     # --lang still decides


def test_a_language_that_is_not_one_is_one_line_naming_the_file() -> None:
    config.config_path().write_text('lang = "xx"\n', encoding="utf-8")
    with pytest.raises(UserError) as caught:
        config.saved_language()
    message = str(caught.value)
    assert str(config.config_path()) in message and "'xx' is not a language" in message and "\n" not in message
    config.save_handle("bo")                       # a bad value is dropped when the file is written again
    assert config.saved_language() == "en" and config.saved_handle() == "bo"
