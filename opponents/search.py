"""Running search work off the event loop, and stopping it when the caller gives up.

A decision is cut into batches.  Without an executor the batches run one after
another in a thread (``asyncio.to_thread``), so cancelling the awaiting task
takes effect at the next batch boundary; with an executor (the bench's process
pool, or a thread pool for ``workers``) they run side by side and cancelling
withdraws every batch that has not started.  The kernels release the GIL, so a
thread pool uses every core too.

Work too small to be worth handing over (``inline``: at most INLINE_UNITS
compiled playouts or iterations, see ``is_cheap``) runs right here instead:
sending a batch to a worker process and taking its answer back costs the
caller about half a millisecond of CPU, more than a few dozen compiled
playouts, and a cheap decision handed to a shared pool would wait behind every
dear batch queued before it.  So ``mc:1`` never queues behind ``mc:1000``.

While the game's compiled path compiles (a new install), a person's opponent
searches on the slower interim path, and there it may have a time budget
(``Budget``, given only by the TUI): the batches are small, and once the budget
is spent no further batch starts, so the answer is the best after the work
done (anytime search), and the decision records that it was cut.  The bench
never gives one: its results must not depend on the machine's speed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BATCH_PLAYOUTS = 2048  # about 20 ms of playouts: the longest a cancelled search runs on
INLINE_UNITS = 64  # about 0.6 ms of compiled playouts: no dearer than a round trip to a worker


INTERIM_BUDGET_S = 1.0  # the TUI's budget for a decision on the interim path (the person waits at most ~2 s)
# Playouts or iterations in the first batch under a budget (the budget is overrun by one batch; batches
# double up to the usual size): on a game's interim path (numpy: ~0.1 ms a playout), and through the
# core API (Python: milliseconds a playout; those batches do not grow).
BUDGET_UNITS = 64
BUDGET_CORE_UNITS = 4


@dataclass
class Budget:
    """A time budget for one decision: ``spent`` once ``seconds`` have passed since ``start``.
    The clock is a parameter so a test can say exactly when the budget runs out."""

    seconds: float
    clock: Callable[[], float] = time.monotonic
    started: float = 0.0

    def start(self) -> None:
        self.started = self.clock()

    def spent(self) -> bool:
        return self.clock() - self.started >= self.seconds

    def describe(self, done: int, asked: int) -> dict[str, Any]:
        """What a decision records: an interim answer cut by the budget, how much of the asked work it did."""
        return {"budget_s": self.seconds, "budget_cut": done < asked, "done": done, "asked": asked}


@dataclass
class Progress:
    """How far the current decision's search has got, in work units (playouts, iterations)."""

    done: int = 0
    total: int = 0


def is_cheap(units: Sequence[int], compiled: bool) -> bool:
    """Work to run inline: compiled, and no more than INLINE_UNITS playouts or iterations."""
    return compiled and sum(units) <= INLINE_UNITS


async def run_batches(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    executor: Executor | None,
    progress: Progress,
    units: Sequence[int],
    inline: bool = False,
    budget: Budget | None = None,
) -> list[R]:
    """``fn`` over ``tasks`` without blocking the loop, or at once here when ``inline``;
    results in task order.  With a ``budget`` the tasks run one after another, and none
    starts once it is spent (the first always runs): the results of a prefix of ``tasks``."""
    progress.done, progress.total = 0, sum(units)
    if budget is not None:
        results: list[Any] = []
        for task, unit in zip(tasks, units):
            if results and budget.spent():
                break
            results.append(await asyncio.to_thread(fn, task))
            progress.done += unit
        return results
    if inline:
        results = [fn(task) for task in tasks]
        progress.done = progress.total
        return results
    if executor is None:
        results = []
        for task, unit in zip(tasks, units):
            results.append(await asyncio.to_thread(fn, task))
            progress.done += unit
        return results
    loop = asyncio.get_running_loop()
    futures = [loop.run_in_executor(executor, fn, task) for task in tasks]
    for fut, unit in zip(futures, units):
        fut.add_done_callback(partial(_count, progress=progress, unit=unit))
    try:
        return [await fut for fut in futures]
    finally:
        for fut in futures:
            fut.cancel()


def _count(fut: asyncio.Future, progress: Progress, unit: int) -> None:
    if not fut.cancelled() and fut.exception() is None:
        progress.done += unit


def growing(total: int, first: int, most: int) -> list[tuple[int, int]]:
    """``total`` units as (first, count) ranges whose counts double from ``first`` up to ``most``:
    under a budget, the first batches are small (a cut comes soon after the budget) and the later
    ones larger (a search that fits its budget pays the hand-over to a thread a few times, not
    hundreds)."""
    out, start, count = [], 0, max(1, first)
    while start < total:
        n = min(count, total - start)
        out.append((start, n))
        start += n
        count = min(max(1, most), count * 2)
    return out


def split(total: int, parts: int) -> list[tuple[int, int]]:
    """``total`` units as ``parts`` (first, count) ranges, as even as possible, none empty."""
    parts = max(1, min(parts, total))
    base, extra = divmod(total, parts)
    out, first = [], 0
    for i in range(parts):
        count = base + (1 if i < extra else 0)
        out.append((first, count))
        first += count
    return out


class Workers:
    """The executor a search agent uses: the one it was given, or its own thread pool
    when asked for more than one worker, or none (batches in a thread, one at a time)."""

    def __init__(self, executor: Executor | None, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be 1 or more, got {workers}")
        self.given = executor
        self.workers = workers
        self._own: ThreadPoolExecutor | None = None

    @property
    def executor(self) -> Executor | None:
        if self.given is not None:
            return self.given
        if self.workers > 1 and self._own is None:
            self._own = ThreadPoolExecutor(self.workers, thread_name_prefix="search")
        return self._own

    def describe(self) -> dict[str, Any]:
        if self.given is not None:
            runs_in = type(self.given).__name__
        else:
            runs_in = "ThreadPoolExecutor" if self.workers > 1 else "thread"
        return {"workers": self.workers, "runs_in": runs_in}

    def close(self) -> None:
        if self._own is not None:
            self._own.shutdown(wait=False, cancel_futures=True)
            self._own = None
