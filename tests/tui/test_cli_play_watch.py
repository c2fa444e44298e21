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
    (["watch", "--game", "eleusis", "--p1", "scientist", "--p2", "random"], "--p2"),    # one seat: --p1 alone
    (["watch", "--game", "tictactoe", "--p1", "random"], "--p2"),                       # two seats: both
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
    assert settings.params == {"position": "XX./OO./...", "to_move": "X", "invalid_limit": 3, "move_cap": 0,
                               "size": 3, "protocol": "tcgtui", "upstream": None}     # move_cap 0: the board's
    assert settings.seats == ("human", "random")


def test_play_without_vs_meets_the_games_own_player_where_no_search_plays() -> None:
    """mc:100 by default, as at home; the duel (no search plays it) takes its puzzler, as home offers first."""
    from tcgtui.cli import build_parser
    from tcgtui.commands import play
    for game, opponent in (("duel", "puzzler"), ("tictactoe", "mc:100")):
        args = build_parser().parse_args(["play", "--game", game, "--seed", "1"])
        assert play.start(args, "ada").seats == ("human", opponent)


@pytest.mark.parametrize("command, player", [("play", "--vs SPEC"), ("watch", "--p1 SPEC")])
def test_help_names_every_game_and_every_games_own_player(command: str, player: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from tcgtui.engine import registry
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())

    def helped(flag: str) -> str:             # the flag's help, after the usage lines
        return out[out.rindex(flag) + len(flag):].split(" --")[0]
    games = [g for g in registry.games() if g.info.variant_of is None]
    assert len(games) == 7
    assert all(g.id in helped("--game ID").replace(",", " ").split() for g in games)
    for g in games:
        for ref in g.references:
            if not ref.protocol:
                assert f"{g.id}: {ref.name}" in helped(player), (g.id, ref.name)
