"""Cheap decisions never wait behind dear ones in a shared executor (order is tested, never time)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.core import Match
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.search import INLINE_UNITS, Progress, is_cheap, run_batches


class CountingPool(ThreadPoolExecutor):
    """One thread that only starts work once ``go`` is set; counts what is handed to it."""

    def __init__(self) -> None:
        super().__init__(1)
        self.go = threading.Event()
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1

        def held():
            self.go.wait()
            return fn(*args, **kwargs)
        return super().submit(held)


def opening(community, seed: int = 3):
    match = Match(TcgGame(community), seed)
    seat = match.state.current_player
    return match, seat, match.state.observation(seat)


def test_a_cheap_decision_finishes_while_a_dear_one_holds_the_shared_pool(community):
    match, seat, obs = opening(community)
    assert len(obs.legal_moves) > 1
    finished: list[str] = []

    async def decide(spec: str, pool: CountingPool) -> None:
        agent = make_agent(spec, executor=pool)
        agent.start(SeatContext(seat, 0, "en", match.game))
        await agent.decide(obs, [])
        finished.append(spec)

    async def sweep() -> tuple[int, int]:
        with CountingPool() as pool:
            dear = asyncio.create_task(decide("mc:1000", pool))
            while pool.submitted == 0:           # the dear decision's batches hold the pool
                await asyncio.sleep(0)
            held = pool.submitted
            cheap = asyncio.create_task(decide("mc:1", pool))
            for _ in range(3):                   # a few turns of the loop, the pool still held
                await asyncio.sleep(0)
            pool.go.set()
            await asyncio.gather(dear, cheap)
            return held, pool.submitted

    held, submitted = asyncio.run(sweep())
    assert finished == ["mc:1", "mc:1000"]
    assert submitted == held                 # the cheap decision handed nothing to the pool


def test_work_runs_inline_only_when_compiled_and_small():
    assert is_cheap([INLINE_UNITS], compiled=True)
    assert not is_cheap([INLINE_UNITS, 1], compiled=True)
    assert not is_cheap([1], compiled=False)        # a Python playout can take milliseconds

    async def run(inline: bool) -> tuple[list[int], int, Progress]:
        with CountingPool() as pool:
            pool.go.set()
            progress = Progress()
            out = await run_batches(lambda x: x * 2, [1, 2, 3], pool, progress, [1, 1, 1], inline=inline)
            return out, pool.submitted, progress

    for inline, handed in ((True, 0), (False, 3)):
        out, submitted, progress = asyncio.run(run(inline))
        assert out == [2, 4, 6] and submitted == handed
        assert progress.done == progress.total == 3
