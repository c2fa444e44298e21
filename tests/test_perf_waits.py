"""The perf modes that time a person's waits cover what a person can meet (the times themselves
are ``tcgtui perf``'s: --only first_answer, --only race_keys; no test here holds a duration)."""

from __future__ import annotations

import asyncio

from tcgtui.commands.play import DEFAULT_VS
from tcgtui.engine import registry
from tcgtui.perf import benchmarks
from tcgtui.perf.first_answer import players
from tcgtui.tui.screens.home import opponents_for


def test_first_answer_times_every_search_and_reference_player_home_offers_and_the_default() -> None:
    timed = players()
    assert len(timed) == len(set(timed))
    games = {g for g, _ in timed}
    assert games == {"tcg", "tictactoe", "connect4", "gomoku"}
    for game in games:
        offered = {s for s in opponents_for(game) if s.split(":")[0] in ("mc", "mcts", "nmc", "ab", "perfect", "threats")}
        assert offered and offered | {DEFAULT_VS} == {s for g, s in timed if g == game}, game
    assert ("connect4", "ab:14") in timed and ("gomoku", "mc:1000") in timed and ("tcg", "mcts:1000") in timed
    assert ("tcg", "nmc:200") in timed
    assert not any(s.startswith(("random", "llm", "human")) for _, s in timed)
    assert all(registry.get(g).info.seats == 2 for g in games)


def test_race_keys_records_each_key_sent_while_the_rival_plays_in_its_process() -> None:
    from tcgtui.perf.race_keys import race
    waits = asyncio.run(race("scientist", 0, 3, 2.0))
    assert len(waits.keys) >= 10 and all(w >= 0 for w in waits.keys)
    assert len(waits.work) == len(waits.keys) and all(w >= 0 for w in waits.work)
    assert set(waits.while_rival) <= set(waits.keys)
    assert len(waits.ticks) == len(waits.cpu) >= 2 and waits.longest_gap() > 0 and waits.longest_held() >= 0
    assert "race_keys" in {m.NAME for m in benchmarks()}


def test_race_keys_times_opening_and_closing_the_rule_editor() -> None:
    from tcgtui.perf.race_keys import editor_cpu
    opened, closed = asyncio.run(editor_cpu(2))
    assert len(opened) == len(closed) == 2 and all(t > 0 for t in opened + closed)


def test_first_answer_refuses_a_player_the_game_does_not_take_in_one_line(tmp_path) -> None:
    import pytest

    from tcgtui.errors import UserError
    from tcgtui.perf.first_answer import first_answer
    with pytest.raises(UserError, match=r"connect4=ab:16: 'ab:16' is not a player"):
        first_answer("connect4", "ab:16", str(tmp_path))       # ab goes to 14: the app would never show a board
    with pytest.raises(UserError, match=r"nope=mc:1: 'nope' is not a game"):
        first_answer("nope", "mc:1", str(tmp_path))


def test_key_waits_covers_every_game_with_a_screen_against_every_search_player_and_every_other_mode() -> None:
    from tcgtui.perf.key_waits import ALONE, HOME, PLAY, REPLAY, WATCH, Mode, modes
    from tcgtui.tui.games import has_screen
    chosen = modes()
    played = {(m.game, m.vs) for m in chosen if m.kind == PLAY}
    assert {p for p in played if p in set(players())} == set(players())
    assert {m.game for m in chosen if m.kind == PLAY} == {s.id for s in registry.games() if has_screen(s.id)}
    one_seat = {s.id for s in registry.games() if s.info.seats == 1 and has_screen(s.id)}
    assert one_seat and all((vs == ALONE) == (game in one_seat) for game, vs in played)
    assert ("duel", "puzzler") in played
    assert {m.kind for m in chosen} == {PLAY, WATCH, REPLAY, HOME} and len(chosen) == len(set(chosen))
    for mode in chosen:
        assert Mode.parse(mode.name) == mode
    import pytest
    for bad in ("connect4", "watch:tcg=mc:100", "replay:", "homes", "tcg=mc:1,mc:2"):
        with pytest.raises(ValueError):
            Mode.parse(bad)


def test_key_waits_times_the_keys_a_screen_binds_and_never_closes_the_app() -> None:
    from tcgtui.perf.key_waits import PLAY, Mode, press_keys
    waits = asyncio.run(press_keys(Mode(PLAY, "tictactoe", "mc:100"), 2.0, 5))
    assert len(waits.keys) == len(waits.work) == len(waits.taken) >= 5
    assert all(w >= 0 for w in waits.keys + waits.work)
    assert {t.split(":")[0] for t in waits.taken} <= {"GridScreen", "GameOverScreen", "RulesScreen"}
    sent = {k for _, k in waits.sent}
    assert not sent & {"q", "ctrl+c", "ctrl+q"} and sent & {"enter", "1", "2", "3", "4", "5"}
    assert "key_waits" in {m.NAME for m in benchmarks()}


def test_key_waits_at_home_opens_games_and_comes_back_but_never_leaves_home() -> None:
    from tcgtui.perf.key_waits import HOME, Mode, press_keys
    waits = asyncio.run(press_keys(Mode(HOME), 6.0, 1))
    screens = [t.split(":")[0] for t in waits.taken]
    assert screens[0] == "HomeScreen" and len(screens) >= 15
    home_keys = {t.split(":")[1] for t in waits.taken if t.startswith("HomeScreen:")}
    assert not home_keys & {"q", "escape", "ctrl+c"}
