"""Bad flags to ``play`` and ``watch`` end as one line naming the flag, exit code 2."""

from __future__ import annotations

import pytest

from tcgtui.cli import main


@pytest.mark.parametrize("argv, flag", [
    (["play", "--vs", "nosuch:1"], "--vs"),
    (["play", "--vs", "human:ann"], "--vs"),
    (["play", "--game", "eleusis", "--vs", "human"], "--vs"),
    (["play", "--vs", "random", "--lang", "xx"], "--lang"),
    (["play", "--vs", "random", "--rtl", "sideways"], "--rtl"),
    (["play", "--vs", "random", "--seat", "3"], "--seat"),
    (["play", "--vs", "random", "--pause", "-1"], "--pause"),
    (["play", "--vs", "random", "--seed", "-4"], "--seed"),
    (["play", "--vs", "random", "--name", "two words"], "--name"),
    (["play", "--vs", "random", "--pack", "/nonexistent/pack"], "/nonexistent/pack"),
    (["watch", "--p1", "random", "--p2", "human"], "--p2"),
    (["watch", "--p1", "mc:0", "--p2", "random"], "--p1"),
])
def test_bad_input_is_one_line(argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and flag in err and "Traceback" not in err


def test_rtl_mode_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TCGTUI_RTL", "upside")
    assert main(["play", "--vs", "random"]) == 2
    assert "TCGTUI_RTL" in capsys.readouterr().err


@pytest.mark.parametrize("argv, flag", [
    (["play", "--game", "chess", "--vs", "random"], "--game"),
    (["play", "--game", "connect4", "--vs", "random", "--param", "nonsense"], "--param"),
    (["play", "--game", "connect4", "--vs", "random", "--param", "colour=red"], "--param"),
    (["play", "--game", "connect4", "--vs", "random", "--param", "move_cap=zero"], "--param"),
    (["watch", "--game", "gomoku", "--p1", "random", "--p2", "random", "--param", "x=1"], "--param"),
    (["play", "--game", "connect4", "--campaign"], "--campaign"),
])
def test_bad_game_flags_are_one_line(argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and flag in err and "Traceback" not in err


def test_game_flags_reach_the_settings() -> None:
    from tcgtui.cli import build_parser
    from tcgtui.commands import play
    args = build_parser().parse_args(["play", "--game", "tictactoe", "--vs", "random", "--position",
                                      "XX./OO./...", "--to-move", "X", "--seed", "1"])
    settings = play.start(args, "ada")
    assert settings.game_id == "tictactoe"
    assert settings.params == {"position": "XX./OO./...", "to_move": "X", "invalid_limit": 3, "move_cap": 20,
                               "protocol": "tcgtui", "upstream": None}
    assert settings.seats == ("human", "random")
