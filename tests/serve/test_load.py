"""Twenty participants at once through the served study (simulated browsers speaking textual-serve's
protocol over loopback), the server restarted while their games are under way: every move made
before the restart is in the store, every participant comes back with their link to the same game
and finishes the study, and no game is lost or stored twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from tcgtui.perf._participant import (PROGRESS, Participant, begin, enter_game, free_port, join_at_once,
                                      play_to_the_end, DONE)
from tests.serve.support import games_of, person, served, write_study

PEOPLE = 20


def test_twenty_participants_and_a_restart_lose_and_double_nothing(tmp_path: Path) -> None:
    study, db, port = write_study(tmp_path), tmp_path / "study.sqlite3", free_port()

    async def first_moves(base: str) -> list[str]:
        async with aiohttp.ClientSession() as session:
            people = await join_at_once(base, PEOPLE, session)
            await asyncio.gather(*(begin(p) for p in people))
            for key in ("2", "enter"):             # each makes one move (top middle) before the restart
                await asyncio.gather(*(p.key(key, quiet=0.3) for p in people))
            return [p.token for p in people]       # the tabs stay open: the server goes under them

    async def come_back(base: str, tokens: list[str]) -> None:
        async with aiohttp.ClientSession() as session:
            people = [Participant(session, base, token) for token in tokens]
            await asyncio.gather(*(p.open() for p in people))
            await asyncio.gather(*(p.wait_for(PROGRESS, 120) for p in people))     # no second consent
            await asyncio.gather(*(enter_game(p) for p in people))
            await asyncio.gather(*(play_to_the_end(p) for p in people))
            assert all(DONE in p.text() for p in people)
            await asyncio.gather(*(p.close() for p in people))

    with served(tmp_path, study, db, port=port) as base:
        tokens = asyncio.run(first_moves(base))
    people = [person(db, token) for token in tokens]
    assert all(p is not None for p in people)
    before = {pid: games_of(db, pid) for pid, _ in people}
    for pid, games in before.items():              # every participant's move before the restart landed
        [(index, status, moves)] = games
        assert (index, status) == (0, "in_progress") and moves >= 1, (pid, games)
    with served(tmp_path, study, db, port=port) as base:      # the server again, on the same address
        asyncio.run(come_back(base, tokens))
    for pid, _ in people:
        games = games_of(db, pid)
        [(index, status, moves)] = games           # the same game carried on: one row, never two
        assert (index, status) == (0, "finished") and moves > before[pid][0][2], (pid, games)
    assert all(person(db, token)[1] is not None for token in tokens)     # everyone finished the study
