"""The default game is the user's setting (``game = "ID"`` in the settings file), not a code path."""

from __future__ import annotations

import pytest

from tcgtui import config
from tcgtui.cli import build_parser
from tcgtui.engine import registry
from tcgtui.errors import UserError


def test_without_a_setting_the_default_game_is_the_registry_default():
    assert not config.config_path().exists()
    assert config.default_game() == registry.DEFAULT
    assert build_parser("rules").parse_args(["rules"]).game == registry.DEFAULT


def test_the_settings_file_names_the_game_commands_play_without_game(tmp_path):
    config.config_path().write_text('handle = "ada"\ngame = "connect4"\n', encoding="utf-8")
    assert config.default_game() == "connect4"
    for command in (["rules"], ["play"], ["watch", "--p1", "random", "--p2", "random"], ["report"]):
        assert build_parser(command[0]).parse_args(command).game == "connect4", command
    assert build_parser("rules").parse_args(["rules", "--game", "eleusis"]).game == "eleusis"


def test_a_game_that_is_not_registered_is_one_line_naming_the_file():
    config.config_path().write_text('game = "chess"\n', encoding="utf-8")
    with pytest.raises(UserError) as caught:
        config.default_game()
    message = str(caught.value)
    assert str(config.config_path()) in message and "'chess' is not a game" in message and "\n" not in message


def test_saving_the_handle_keeps_the_default_game():
    config.config_path().write_text('game = "tictactoe"\n', encoding="utf-8")
    config.save_handle("bo")
    assert config.saved_handle() == "bo" and config.default_game() == "tictactoe"
