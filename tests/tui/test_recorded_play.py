"""``tcgtui play`` and ``watch`` with the store: what a person does, by keys, and what the store then holds.

The settings come from the commands' own code (``tcgtui.commands.play``), from
the same arguments a person types, so these tests cover the path a real run takes.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input

from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.registry import make_agent
from tcgtui import config
from tcgtui.games.tcg.campaign import LADDER, open_campaign
from tcgtui.cli import build_parser, main
from tcgtui.commands import play as play_command
from tcgtui.commands import watch as watch_command
from tcgtui.live import human_spec
from tcgtui.match import run_match
from tcgtui.games.tcg.packs import load_pack
from tcgtui.store import FINISHED, IN_PROGRESS, Store
from tcgtui.games.tcg.campaign import CampaignDealer
from tcgtui.deals import WATCH_RUN
from tcgtui.tui.app import HUMAN, ArenaApp
from tcgtui.tui.games.tcg import BoardScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, HandleScreen, QuitScreen
from tcgtui.tui.widgets.bars import TopBar
from tests.test_humans import Person
from tests.tui.helpers import play_moves, screen_text, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


def app_for(store: Store, *argv: str) -> ArenaApp:
    """The app ``tcgtui play ARGV`` would open, on ``store``."""
    args = build_parser().parse_args(["play", *argv, "--pause", "0"])
    handle = config.check_handle(args.name) if args.name else config.saved_handle()
    settings = (play_command.resume(args, store, handle) if args.resume
                else play_command.seat(play_command.start(args, handle), args, store, handle))
    return ArenaApp(settings)


async def quit_by_keys(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("q")
    await pilot.pause()
    assert isinstance(app.screen, QuitScreen)
    await pilot.press("y")
    await pilot.pause()


async def test_a_campaign_game_quit_midway_and_resumed_is_recorded_once(db: Path) -> None:
    with Store(db) as store:
        app = app_for(store, "--campaign", "--campaign-games", "1", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            assert await play_moves(pilot, app, moves=3) == 3
            assert f"ladder 1/{len(LADDER)}" in screen_text(app)
            assert "--resume" in (await _quit_question(pilot, app))
            await pilot.press("y")
            await pilot.pause()
        [saved] = store.games()
        assert (saved.status, saved.opponent, saved.agent) == (IN_PROGRESS, "mc:1", human_spec("ada"))
        assert saved.moves >= 5 and len(store.decisions(saved.id)) == saved.moves
        position = app.board.session.match.state.to_json()

        app = app_for(store, "--resume", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.board.session.match.state.to_json() == position      # exactly where it stopped
            await play_moves(pilot, app)
            assert isinstance(app.screen, GameOverScreen)
            result = app.board.session.result
            summary_moves = len(app.board.session.decisions)
            assert f"Ladder: 1 of {len(LADDER)} games played; next: mc:2" in screen_text(app)
            await pilot.press("r")                                         # the next rung, dealt...
            await settle(pilot, app)
            assert f"ladder 2/{len(LADDER)}" in screen_text(app) and app.deal.seats.count("mc:2") == 1
            await quit_by_keys(pilot, app)                                 # ...and left untouched
        [done] = store.games()
        assert done.id == saved.id and done.status == FINISHED
        assert done.record["moves"] == result.record.moves
        decisions = store.decisions(done.id)
        assert [d.idx for d in decisions] == list(range(done.moves))
        assert summary_moves == done.moves         # the summary counts the moves made before the quit too
        assert {d.agent for d in decisions if d.seat == done.agent_seat} == {human_spec("ada")}
        assert {d.agent for d in decisions if d.seat != done.agent_seat} == {"mc:1"}


async def _quit_question(pilot, app: ArenaApp) -> str:  # type: ignore[no-untyped-def]
    await pilot.press("q")
    await pilot.pause()
    assert isinstance(app.screen, QuitScreen)
    return screen_text(app)


async def test_the_handle_is_asked_once_then_kept(db: Path) -> None:
    with Store(db) as store:
        app = app_for(store, "--vs", "random", "--seed", "3")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, HandleScreen)
            await pilot.press(*"no way", "enter")
            await pilot.pause()
            assert isinstance(app.screen, HandleScreen) and "'no way' is not a handle" in screen_text(app)
            app.screen.query_one(Input).clear()
            await pilot.press(*"bea_2", "enter")
            await settle(pilot, app)
            assert isinstance(app.screen, BoardScreen)
            await play_moves(pilot, app, moves=1)
            await quit_by_keys(pilot, app)
        assert config.saved_handle() == "bea_2"
        [row] = store.games()
        assert row.agent == human_spec("bea_2") and row.seed == 3 and row.status == IN_PROGRESS

        app = app_for(store, "--vs", "random", "--seed", "4")       # asked no more; the old game waits for --resume
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, BoardScreen)
            await play_moves(pilot, app)
        statuses = {g.seed: g.status for g in store.games()}
        assert statuses == {3: IN_PROGRESS, 4: FINISHED}


async def test_watched_games_are_stored_like_bench_games(db: Path) -> None:
    args = build_parser().parse_args(["watch", "--p1", "random", "--p2", "mc:2", "--seed", "5", "--pause", "0"])
    with Store(db) as store:
        app = ArenaApp(watch_command.prepare(args, store))
        async with app.run_test(size=(120, 40)) as pilot:
            while app.board is None or app.board.session.result is None:
                await pilot.pause(0.05)
            await pilot.pause()
            assert app.board.query_one(TopBar).state.note is None
        [row] = store.games()
        run = store.run(WATCH_RUN)
        assert run is not None and row.run_id == run.id and row.status == FINISHED
        assert (row.agent, row.opponent, row.seed) == ("random", "mc:2", 5)
        assert len(store.decisions(row.id)) == row.moves > 0


def test_play_refuses_what_it_cannot_do_in_one_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["--resume", "--name", "ada"], "--resume: no unfinished game of ada in"),
        (["--resume"], "--resume: no handle is set yet"),
        (["--campaign", "--vs", "mc:5"], "--vs: the campaign picks the opponents"),
        (["--resume", "--seat", "2", "--name", "ada"], "--seat: --resume carries on a game"),
        (["--campaign", "--campaign-games", "0"], "--campaign-games: 0 is not a number of games"),
        (["--vs", "mc:0"], "--vs:"),
    ]
    for argv, message in cases:
        assert main(["play", *argv, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and err.count("\n") == 1, (argv, err)


def test_the_ladder_climbs_every_rung_once_then_says_it_is_complete(db: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    pack = load_pack("community")
    with Store(db) as store:
        table = CampaignDealer.open(store, pack, "community", "ada", "en", games=1, seed=0)
        deal, met = None, []
        while (deal := table.deal(deal, "en")) is not None:
            met.append(next(s for s in deal.seats if s != HUMAN))
            agents = tuple(Person() if s == HUMAN else make_agent(s) for s in deal.seats)
            deal.on_result(asyncio.run(run_match(TcgGame(pack), deal.seed, agents, match=deal.resume,
                                                 on_decision=deal.on_move)))
        assert met == list(LADDER)
        assert [g.status for g in store.games()] == [FINISHED] * len(LADDER)
    assert main(["play", "--campaign", "--campaign-games", "1", "--name", "ada", "--db", str(db)]) == 2
    assert "--campaign: your ladder is complete" in capsys.readouterr().err


async def test_a_grid_game_is_recorded_move_by_move_and_resumed_exactly(db: Path) -> None:
    """Human baselines for every game: a Connect Four game by number keys (a digit picks the column,
    Enter drops: docs/keys.md), quit midway, resumed from the store to the end, and reported beside a
    model's games of the same game."""
    with Store(db) as store:
        app = app_for(store, "--game", "connect4", "--vs", "random", "--name", "ada", "--seed", "4")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for col in "4433":
                if col in app.board.session.human_waiting().legal_moves:
                    await pilot.press(col, "enter")
                    await settle(pilot, app)
            await quit_by_keys(pilot, app)
        [saved] = store.games()
        assert (saved.status, saved.game, saved.agent) == (IN_PROGRESS, "connect4", human_spec("ada"))
        assert saved.moves >= 6 and len(store.decisions(saved.id)) == saved.moves
        position = app.board.session.match.state.to_json()

        app = app_for(store, "--resume", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.board.session.match.state.to_json() == position
            for _ in range(40):
                waiting = app.board.session.human_waiting()
                if waiting is None:
                    break
                await pilot.press(waiting.legal_moves[0], "enter")
                await settle(pilot, app)
            assert isinstance(app.screen, GameOverScreen)
        [done] = store.games()
        assert done.id == saved.id and done.status == FINISHED and done.result in (
            "winner1st", "winner2nd", "draw")
        assert [d.idx for d in store.decisions(done.id)] == list(range(done.moves))

    assert await asyncio.to_thread(main, ["bench", "--game", "connect4", "--agent", "random", "--vs", "mc:5",
                                          "--games", "2", "--db", str(db)]) == 0
    from tcgtui.report.data import load_games
    with Store(db) as store:
        agents = {g.agent for g in load_games(store, None, game="connect4")}
    assert {"human:ada", "random"} <= agents


def test_a_campaign_begun_on_a_shorter_ladder_gains_the_levels_added_on_top(db: Path) -> None:
    """A person who finished the paper's six levels meets the new top level, on the same deals."""
    pack = load_pack("community")
    with Store(db) as store:
        first = open_campaign(store, "ada", pack, "en", games=1, seed=5)
        old = {**first.run.config, "ladder": list(LADDER[:-1])}
        store.update_run_config(first.run.id, old)
        grown = open_campaign(store, "ada", pack, "en", games=1, seed=99)
        assert [lvl.opponent for lvl in grown.levels] == list(LADDER)
        assert grown.seed == 5
        other = {**first.run.config, "ladder": ["mc:7", "mc:8"]}   # not this ladder's beginning: kept
        store.update_run_config(first.run.id, other)
        assert [lvl.opponent for lvl in open_campaign(store, "ada", pack, "en", games=1).levels] == ["mc:7", "mc:8"]
