"""Cheap games played whole in worker processes, so the bench process only stores them.

Driving a game from the bench's one event loop (engine steps, observations,
records) costs about as much CPU as a cheap game itself, which capped sweeps
of ``random`` against ``mc:1`` near 100 games per second.  A game whose every
seat thinks locally and cheaply (``random``, ``mc:K`` and ``mcts:N`` with a
budget up to CHEAP_BUDGET) is therefore handed whole to a worker, which plays
it with the same code (``one_game.play_game``) and returns its rows.  Games with
a model, a reference player or a dear search stay in the bench process, where
a timeout or Ctrl-C stops them at once; so does every game of a sweep with a
timeout per game, since a worker cannot be stopped mid-game.
"""

from __future__ import annotations

import asyncio
import hashlib
import pickle
from concurrent.futures import Executor
from dataclasses import replace
from functools import lru_cache
from typing import Any

from tcgtui.bench.one_game import AgentPool, play_game
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.spec import SpecError, parse_spec
from tcgtui.store.db import DecisionRow, GameRow, JsonText, to_json

CHEAP_BUDGET = 10       # mc:10 and mcts:10 still play a game in a few milliseconds
CHEAP_KINDS = ("random", "mc", "mcts")


@lru_cache(maxsize=256)
def cheap_spec(spec: str) -> bool:
    try:
        parsed = parse_spec(spec)
    except SpecError:
        return False
    return parsed.kind in CHEAP_KINDS and (parsed.kind == "random" or parsed.n <= CHEAP_BUDGET)


class Offload:
    """The worker pool cheap games go to, and the sweep they belong to, pickled once."""

    def __init__(self, executor: Executor, blob: bytes) -> None:
        self.executor = executor
        self.blob = blob
        self.key = hashlib.sha256(blob).hexdigest()

    @classmethod
    def of(cls, executor: Executor | None, sweep: Any) -> Offload | None:
        """None without a pool, or when the sweep's game cannot travel to a worker (then all play here)."""
        if executor is None:
            return None
        try:
            return cls(executor, pickle.dumps(sweep, protocol=pickle.HIGHEST_PROTOCOL))
        except (pickle.PicklingError, TypeError, AttributeError):
            return None

    def wanted(self, sweep: Any, specs: tuple[str, ...]) -> bool:
        return sweep.timeout is None and all(cheap_spec(s) for s in specs)

    async def play(self, cell: Any, index: int) -> tuple[Any, list[Any]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, play_here, self.key, self.blob, cell, index)


# --- in the worker ------------------------------------------------------------------------------

_SWEEP: dict[str, tuple[Any, Any]] = {}      # the current sweep and its agents, by key
_LOOP: list[asyncio.AbstractEventLoop] = []


def play_here(key: str, blob: bytes, cell: Any, index: int) -> tuple[Any, list[Any]]:
    """Play one game of the sweep in this process; its agents are kept for the next one."""
    if key not in _SWEEP:
        _SWEEP.clear()                       # one sweep at a time
        _SWEEP[key] = (pickle.loads(blob), AgentPool(make_agent))
    sweep, agents = _SWEEP[key]
    if not _LOOP:
        _LOOP.append(asyncio.new_event_loop())
    row, rows = _LOOP[0].run_until_complete(play_game(sweep, agents, cell, index))
    return encoded(row, rows)


def encoded(row: GameRow, rows: list[DecisionRow]) -> tuple[GameRow, list[DecisionRow]]:
    """The rows with their record and decision details as JSON text: encoded here, in the worker,
    they cross to the bench as a few strings instead of hundreds of small objects, and the bench
    stores them as they are."""
    row = replace(row, record=JsonText(to_json(row.record)))
    return row, [replace(d, info=JsonText(to_json(d.info))) for d in rows]
