"""Cheap games played whole in worker processes: the same rows as played here, and only cheap ones go."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tcgtui.bench.offload import CHEAP_BUDGET, cheap_spec
from tcgtui.bench.plan import Cell, build_config, identity, open_run
from tcgtui.bench.pool import process_pool
from tcgtui.bench.runner import Sweep, run_sweep
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.opponents.registry import make_agent
from tcgtui.store import Store

CELLS = [Cell("random", "mc:1", "en"), Cell("mcts:5", "random", "ar")]


class CountingPool(ThreadPoolExecutor):
    """Plays offloaded games in a thread of this process, counting them."""

    def __init__(self) -> None:
        super().__init__(1)
        self.games = 0

    def submit(self, fn, /, *args, **kwargs):
        self.games += 1
        return super().submit(fn, *args, **kwargs)


def play(path: Path, pack: Pack, cells: list[Cell], games: int, pool=None, timeout: float | None = None):
    game = TcgGame(pack)
    with Store(path) as store:
        run = open_run(store, "t", build_config(identity(game, 5), cells, {}, games, {}))
        sweep = Sweep(run, game, cells, games, 5, concurrency=4, timeout=timeout, game_pool=pool)
        asyncio.run(run_sweep(store, sweep, make_agent))
        games_rows = store.conn.execute(
            "SELECT agent, opponent, lang, game_index, seed, agent_seat, game_params, status, winner, reason, turns,"
            " moves, record_json, (SELECT group_concat(agent || '=' || ifnull(score, ''), ',') FROM seats"
            " WHERE game_id = games.id) FROM games ORDER BY agent, lang, game_index").fetchall()
        decisions = store.conn.execute(
            "SELECT g.agent, g.lang, g.game_index, d.idx, d.turn, d.seat, d.agent, d.move, d.kind, d.info_json"
            " FROM decisions d JOIN games g ON g.id = d.game_id ORDER BY g.agent, g.lang, g.game_index, d.idx"
        ).fetchall()
    return games_rows, decisions


def test_a_game_played_in_a_worker_is_stored_exactly_as_one_played_here(tmp_path: Path, community: Pack) -> None:
    here = play(tmp_path / "here.sqlite3", community, CELLS, 4)
    pool = process_pool()
    try:
        there = play(tmp_path / "there.sqlite3", community, CELLS, 4, pool)
    finally:
        pool.shutdown()
    assert len(here[0]) == 8 and len(here[1]) > 8 * 10
    assert there == here
    assert all(json.loads(r[12])["moves"] for r in there[0])


def test_only_cheap_games_leave_the_bench_process(tmp_path: Path, community: Pack) -> None:
    cells = [Cell("random", "mc:1", "en"), Cell("random", f"mc:{CHEAP_BUDGET + 1}", "en")]
    with CountingPool() as pool:
        play(tmp_path / "a.sqlite3", community, cells, 3, pool)
    assert pool.games == 3                         # the mc:1 cell's games, not the dearer cell's
    with CountingPool() as pool:
        play(tmp_path / "b.sqlite3", community, cells, 3, pool, timeout=60.0)
    assert pool.games == 0                         # a worker cannot stop a game at its timeout


def test_a_game_that_cannot_be_pickled_plays_here(tmp_path: Path, community: Pack) -> None:
    class Local(TcgGame):
        """Defined in a function: pickle cannot name it, so no worker could rebuild it."""

    game = Local(community)
    with Store(tmp_path / "l.sqlite3") as store, CountingPool() as pool:
        cells = [Cell("random", "mc:1", "en")]
        run = open_run(store, "t", build_config(identity(game, 5), cells, {}, 2, {}))
        result = asyncio.run(run_sweep(store, Sweep(run, game, cells, 2, 5, game_pool=pool), make_agent))
    assert result.stored == 2 and pool.games == 0


def test_which_players_are_cheap() -> None:
    assert cheap_spec("random") and cheap_spec("mc:1") and cheap_spec(f"mcts:{CHEAP_BUDGET}")
    assert not cheap_spec(f"mc:{CHEAP_BUDGET + 1}") and not cheap_spec("llm:m") and not cheap_spec("perfect")
    assert not cheap_spec("")
