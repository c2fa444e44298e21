"""The sweep runner in-process, with test agents: pairing, resume, errors, timeouts, retries."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from tcgtui.engine.core import GameRecord, replay
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.opponents.base import Agent, AgentError, Decision
from tcgtui.opponents.random_agent import RandomAgent
from tcgtui.bench.plan import Cell, build_config, deal_seed, identity, open_run
from tcgtui.bench.runner import Sweep, SweepResult, halt_after, run_sweep
from tcgtui.store.rows import REASONING_CHARS, scrub_info
from tcgtui.store import ERRORED, FINISHED, Store


class FirstAgent(Agent):
    """Always the first legal move: deterministic and unlike random."""

    spec = "first"

    async def decide(self, obs, events) -> Decision:
        return Decision(obs.legal_moves[0])


class SlowAgent(Agent):
    """Plays two moves, then hangs: only --timeout-per-game can end its game."""

    spec = "slow"

    def start(self, ctx) -> None:
        super().start(ctx)
        self.moves = 0

    async def decide(self, obs, events) -> Decision:
        self.moves += 1
        if self.moves > 2:
            await asyncio.sleep(3600)
        return Decision(obs.legal_moves[0])


class FlakyAgent(Agent):
    """An endpoint that goes down at the second decision while ``down`` is set."""

    spec = "flaky"
    down = True

    def start(self, ctx) -> None:
        super().start(ctx)
        self.moves = 0

    async def decide(self, obs, events) -> Decision:
        self.moves += 1
        if FlakyAgent.down and self.moves == 2:
            raise AgentError("endpoint down: connection refused")
        return Decision(obs.legal_moves[-1])


class IllegalAgent(Agent):
    spec = "illegal"

    async def decide(self, obs, events) -> Decision:
        return Decision("no_such_card")


class ChattyAgent(Agent):
    """Records prompts and replies the way the LLM agent does."""

    spec = "chatty"

    async def decide(self, obs, events) -> Decision:
        return Decision(obs.legal_moves[0], {
            "model": "m", "messages": [{"role": "user", "content": "secret prompt"}],
            "attempts": [{"reply": "I play it", "reasoning": "because", "move": obs.legal_moves[0],
                          "parse_path": "tags"}]})


AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent, "first": FirstAgent, "slow": SlowAgent,
                                          "flaky": FlakyAgent, "illegal": IllegalAgent, "chatty": ChattyAgent}


def factory(spec: str) -> Agent:
    agent = AGENTS[spec]()
    agent.spec = spec
    return agent


def sweep(store: Store, pack: Pack, cells: list[Cell], games: int, *, seed: int = 7, run: str = "t",
          **options: Any) -> SweepResult:
    game = TcgGame(pack)
    config = build_config(identity(game, seed), cells, {}, games, {})
    plan = Sweep(open_run(store, run, config), game, cells, games, seed, **options)
    return asyncio.run(run_sweep(store, plan, factory))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "bench.sqlite3") as s:
        yield s


def test_game_i_has_the_same_deal_and_seat_in_every_cell(store: Store, community: Pack) -> None:
    cells = [Cell("random", "random", "en"), Cell("first", "random", "en"), Cell("random", "random", "ar"),
             Cell("first", "first", "ar")]
    sweep(store, community, cells, 6)
    rows = store.conn.execute("SELECT game_index, seed, agent_seat, record_json, status, winner FROM games").fetchall()
    assert len(rows) == 24
    by_index: dict[int, list] = {}
    for index, seed, seat, record, status, winner in rows:
        by_index.setdefault(index, []).append((seed, seat, json.loads(record), status, winner))
    assert sorted(by_index) == list(range(6))
    for index, games in by_index.items():
        assert {(seed, seat) for seed, seat, *_ in games} == {(deal_seed(7, index), index % 2)}
        openings = []
        for _, _, record, status, winner in games:
            events = record["events"]
            openings.append(events[:next(i for i, e in enumerate(events) if e["kind"] == "turn")])
            rebuilt = replay(TcgGame(community), GameRecord.from_json(record))   # a game replays from its seed
            assert status == FINISHED and rebuilt.state.winner == winner
        assert all(o == openings[0] for o in openings) and len(openings[0]) >= 6
    assert len({deal_seed(7, i) for i in range(6)}) == 6
    assert deal_seed(8, 0) != deal_seed(7, 0)


def test_a_rerun_skips_every_stored_game(store: Store, community: Pack) -> None:
    cells = [Cell("random", "first", "en")]
    first = sweep(store, community, cells, 5)
    assert (first.played, first.skipped) == (5, 0)
    again = sweep(store, community, cells, 8)            # more games: only the new ones are played
    assert (again.played, again.skipped) == (3, 5)
    assert store.conn.execute("SELECT count(*), count(DISTINCT game_index) FROM games").fetchone() == (8, 8)
    tally = again.tallies[cells[0]]
    assert tally.finished == 8 and tally.wins == store.conn.execute(
        "SELECT count(*) FROM games WHERE winner = agent_seat").fetchone()[0]


def test_a_stuck_game_ends_as_errored_with_what_it_played(store: Store, community: Pack) -> None:
    cells = [Cell("slow", "random", "en"), Cell("random", "random", "en")]
    started = time.monotonic()
    result = sweep(store, community, cells, 2, timeout=0.3)
    assert time.monotonic() - started < 10
    rows = store.conn.execute("SELECT id, agent, status, error, moves, record_json FROM games").fetchall()
    slow = [r for r in rows if r[1] == "slow"]
    assert [r[2] for r in slow] == [ERRORED, ERRORED]
    for gid, _, _, error, moves, record in slow:
        assert "timeout" in error and moves >= 4 and len(json.loads(record)["moves"]) == moves
        stored = store.conn.execute("SELECT count(*) FROM decisions WHERE game_id = ?", (gid,)).fetchone()[0]
        assert stored == moves
    assert {r[2] for r in rows if r[1] == "random"} == {FINISHED}
    assert result.tallies[cells[0]].errored == 2 and result.tallies[cells[1]].finished == 2


def test_errored_games_are_rerun_only_with_retry_errored(store: Store, community: Pack) -> None:
    cells = [Cell("flaky", "random", "en")]
    FlakyAgent.down = True
    try:
        first = sweep(store, community, cells, 4)
        assert first.tallies[cells[0]].errored == 4
        errors = {r[0] for r in store.conn.execute("SELECT error FROM games")}
        assert errors == {"endpoint down: connection refused"}
        FlakyAgent.down = False
        assert sweep(store, community, cells, 4).played == 0      # errored games wait for --retry-errored
        retried = sweep(store, community, cells, 4, retry_errored=True)
    finally:
        FlakyAgent.down = True
    assert retried.played == 4 and retried.tallies[cells[0]].errored == 0
    assert retried.tallies[cells[0]].finished == 4
    rows = store.conn.execute("SELECT status, attempts FROM games").fetchall()
    assert rows == [(FINISHED, 2)] * 4
    orphans = store.conn.execute("SELECT count(*) FROM decisions d LEFT JOIN games g ON g.id = d.game_id "
                                 "WHERE g.id IS NULL").fetchone()[0]
    assert orphans == 0


def test_a_faulty_agent_errors_its_games_not_the_sweep(store: Store, community: Pack) -> None:
    cells = [Cell("illegal", "random", "en"), Cell("random", "random", "en")]
    sweep(store, community, cells, 2)
    rows = dict(store.conn.execute("SELECT agent || game_index, error FROM games").fetchall())
    assert "IllegalMove" in rows["illegal0"] and "no_such_card" in rows["illegal0"]
    assert rows["random0"] is None and rows["random1"] is None


def test_prompts_and_replies_are_kept_only_when_asked(store: Store, community: Pack) -> None:
    sweep(store, community, [Cell("chatty", "random", "en")], 1)
    sweep(store, community, [Cell("chatty", "random", "ar")], 1, log_prompts=True)
    info = dict(store.conn.execute("SELECT g.lang, d.info_json FROM decisions d JOIN games g ON g.id = d.game_id"
                                   " WHERE d.agent = 'chatty' AND d.idx < 2").fetchall())
    plain, logged = json.loads(info["en"]), json.loads(info["ar"])
    assert "messages" not in plain and plain["attempts"][0] == {              # replies stay: small, needed
        "reply": "I play it", "reasoning": "because", "move": plain["attempts"][0]["move"], "parse_path": "tags"}
    assert logged["messages"][0]["content"] == "secret prompt" and logged["attempts"][0]["reply"] == "I play it"
    assert scrub_info({"model": "m"}, False) == {"model": "m"}


def test_long_reasoning_is_clipped_unless_prompts_are_logged() -> None:
    long = "a" * 5_000 + "b" * 5_000
    info = {"attempts": [{"reply": "x", "reasoning": long}]}
    (kept,) = scrub_info(info, False)["attempts"]
    assert kept["reply"] == "x" and kept["reasoning_chars"] == 10_000
    assert len(kept["reasoning"]) == REASONING_CHARS + 1
    assert kept["reasoning"].startswith("a") and kept["reasoning"].endswith("b")
    assert scrub_info(info, True)["attempts"][0]["reasoning"] == long


def test_a_run_of_errored_games_stops_the_sweep(store: Store, community: Pack) -> None:
    FlakyAgent.down = True
    result = sweep(store, community, [Cell("flaky", "random", "en")], 50, concurrency=2)
    assert result.halted == "endpoint down: connection refused"
    stored = store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    assert halt_after(2) <= stored < halt_after(2) + 2 and stored < 50
