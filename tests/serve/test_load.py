"""Twenty participants at once through the served app (simulated browsers speaking textual-serve's
protocol over loopback), the server restarted while their games are under way: every move made
before the restart is in the store, every participant comes back with their link and finishes, and
no game is lost or stored twice."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiohttp

from tcgtui.perf._participant import BOARD, Participant, free_port, join_at_once, play_to_the_end
from tests.serve.support import served, write_study

PEOPLE = 20


def per_person(db: Path) -> dict[str, list[tuple[int, str, int]]]:
    """agent -> [(game_index, status, moves)] from the store."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as conn:
        rows = conn.execute("SELECT agent, game_index, status, moves FROM games").fetchall()
    out: dict[str, list[tuple[int, str, int]]] = {}
    for agent, index, status, moves in rows:
        out.setdefault(agent, []).append((index, status, moves))
    return out


def test_twenty_participants_and_a_restart_lose_and_double_nothing(tmp_path: Path) -> None:
    study, db, port = write_study(tmp_path), tmp_path / "study.sqlite3", free_port()

    async def first_moves(base: str) -> list[str]:
        async with aiohttp.ClientSession() as session:
            people = await join_at_once(base, PEOPLE, session)
            for key in ("2", "enter"):             # each makes one move (top middle) before the restart
                await asyncio.gather(*(p.key(key, quiet=0.3) for p in people))
            await asyncio.gather(*(p.close() for p in people))
            return [p.token for p in people]

    async def come_back(base: str, tokens: list[str]) -> None:
        async with aiohttp.ClientSession() as session:
            people = [Participant(session, base, token) for token in tokens]
            await asyncio.gather(*(p.open() for p in people))
            await asyncio.gather(*(p.wait_for(BOARD, 120) for p in people))
            await asyncio.gather(*(play_to_the_end(p) for p in people))
            await asyncio.gather(*(p.close() for p in people))

    with served(tmp_path, study, db, port=port) as base:
        tokens = asyncio.run(first_moves(base))
    before = per_person(db)
    agents = {f"human:p{t[:16]}" for t in tokens}
    assert set(before) == agents                      # every participant's first move landed
    assert all(any(moves >= 1 for _, _, moves in games) for games in before.values())
    with served(tmp_path, study, db, port=port) as base:      # the server again, on the same address
        asyncio.run(come_back(base, tokens))
    after = per_person(db)
    assert set(after) == agents
    for agent, games in after.items():
        finished = [g for g in games if g[1] == "finished"]
        assert len(finished) == 1, (agent, games)     # each finished once, none stored twice
        for kept in before[agent]:                    # what was stored before the restart is still there
            assert any(index == kept[0] and moves >= kept[2] for index, _, moves in games), (agent, games)
