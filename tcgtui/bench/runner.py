"""Play a sweep: many games at once, each stored the moment it ends.

A sequential sweep (``bench --until WIDTH``) stops a cell once its anytime-valid interval is no
wider than WIDTH; games of that cell already under way still finish and count.

Games run as asyncio tasks, at most ``concurrency`` at a time, so a sweep of
language models keeps that many requests in flight while Monte Carlo agents
hand their playouts to the process pool they were built with; cheap games (see
``offload``) are played whole in ``game_pool``'s worker processes instead.  A
game that raises, or outlives ``timeout``, ends as ``errored`` with what it had
played; it is never counted as a loss and ``--retry-errored`` plays it again.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field, replace
from typing import Iterator, Protocol

from tcgtui.engine.core import CANCELLED, DISQUALIFIED
from tcgtui.bench.offload import Offload
from tcgtui.bench.one_game import BUDGET_ERROR, AgentFactory, AgentPool, Sweep, play_game
from tcgtui.bench.plan import Cell
from tcgtui.store import ERRORED, EXISTS, FINISHED, REPLACED, DecisionRow, GameRow, Store
from tcgtui.store.db import UNTIL
from tcgtui.opponents.llm.spend import METER
from tcgtui.store.db import StoreError


@dataclass
class Tally:
    """A cell's games so far, as the progress bars and the summary show them."""

    planned: int
    finished: int = 0
    errored: int = 0
    wins: int = 0
    draws: int = 0
    cancelled: int = 0              # finished at the move cap: no result, counted apart (not draws)
    disqualified: int = 0           # lost by the measured player's disqualification (also among the losses)
    scores: list[float] = field(default_factory=list)    # the measured player's score per finished game (score games)
    solved: int = 0                 # finished games that ended solved, where the game says which are (Eleusis)

    @property
    def done(self) -> int:
        return self.finished + self.errored

    @property
    def decided(self) -> int:
        """Finished games with a result: wins, draws and losses (a cancelled game has none)."""
        return self.finished - self.cancelled

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.decided if self.decided else None

    @property
    def mean_score(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    def narrow_enough(self, width: float, right_wrong: bool) -> bool:
        """Whether the cell's anytime-valid interval (wins among decided games; a right/wrong game's
        share right) is at most ``width`` wide: a sequential run (``bench --until``) stops it there."""
        from tcgtui.engine.stats import confidence_sequence     # only a sequential run needs it
        k, n = (int(sum(self.scores)), len(self.scores)) if right_wrong else (self.wins, self.decided)
        cs = confidence_sequence(k, n)
        return cs is not None and cs[1] - cs[0] <= width

    def add(self, status: str, winner: int | None, seat: int, sign: int = 1, score: float | None = None,
            solved: bool = False, reason: str | None = None) -> None:
        if status == FINISHED:
            self.finished += sign
            cancelled = reason == CANCELLED
            self.cancelled += sign * cancelled
            self.wins += sign * (winner == seat)
            self.draws += sign * (winner is None and not cancelled)
            self.disqualified += sign * (reason == DISQUALIFIED and winner is not None and winner != seat)
            self.solved += sign * solved
            if score is not None:
                if sign > 0:
                    self.scores.append(score)
                elif score in self.scores:
                    self.scores.remove(score)
        elif status == ERRORED:
            self.errored += sign


class Observer(Protocol):
    def started(self, tallies: dict[Cell, Tally]) -> None: ...
    def game_done(self, cell: Cell, tally: Tally) -> None: ...


@dataclass
class SweepResult:
    tallies: dict[Cell, Tally]
    played: int = 0
    stored: int = 0
    skipped: int = 0
    halted: str | None = None        # the last error, when a run of errored games stopped the sweep
    errors: list[str | None] = field(default_factory=list)   # why each errored game of the cells errored
    over_budget: bool = False        # the sweep stopped because --budget was spent


def halt_after(concurrency: int) -> int:
    """Errored games in a row that stop a sweep: an endpoint that is down would error every game."""
    return max(10, 2 * concurrency)


LOCKED_RETRIES = 5          # each after the store's own busy timeout and a pause


async def save_with_retry(store: Store, row: GameRow, rows: list[DecisionRow], replace_errored: bool,
                          pause: float = 1.0) -> str:
    """Save a game; a store locked past its busy timeout (another writer, e.g. a large
    ``baseline import``) is tried again a few times before the sweep gives up."""
    for attempt in range(LOCKED_RETRIES + 1):
        try:
            return store.save_game(row, rows, replace_errored=replace_errored)
        except StoreError as exc:
            cause = exc.__context__
            if attempt == LOCKED_RETRIES or not (isinstance(cause, sqlite3.OperationalError)
                                                 and "locked" in str(cause)):
                raise
            await asyncio.sleep(pause * (attempt + 1))
    raise AssertionError("unreachable")


def plan_jobs(sweep: Sweep, stored: list[tuple], tallies: dict[Cell, Tally],
              stopped: set[tuple[Cell, int]] = frozenset()) -> list[tuple[Cell, int]]:  # type: ignore[assignment]
    """Games still to play, game index first so every cell advances together: those not stored,
    those a budget ``stopped``, and errored ones when asked."""
    status: dict[tuple[Cell, int], str] = {}
    for agent, opponent, lang, index, st, winner, seat, score, reason in stored:
        cell = Cell(agent, opponent, lang)
        status[(cell, index)] = st
        if cell in tallies and index < sweep.games:
            tallies[cell].add(st, winner, seat, score=score, solved=sweep.is_solved(reason),
                               reason=reason)
    jobs = []
    settled = {c for c in sweep.cells
               if sweep.until is not None and tallies[c].narrow_enough(sweep.until, sweep.right_wrong)}
    for index in range(sweep.games):
        for cell in sweep.cells:
            st = status.get((cell, index))
            if cell not in settled and (st is None or (st == ERRORED and (sweep.retry_errored
                                                                           or (cell, index) in stopped))):
                jobs.append((cell, index))
    return jobs


def budget_stopped(store: Store, sweep: Sweep) -> set[tuple[Cell, int]]:
    """The run's games a budget stopped before their end: played again by the next session."""
    rows = store.conn.execute("SELECT agent, opponent, lang, game_index FROM games WHERE run_id = ? AND status = ?"
                              " AND error = ?", (sweep.run.id, ERRORED, BUDGET_ERROR)).fetchall()
    return {(Cell(agent, opponent, lang), index) for agent, opponent, lang, index in rows}


async def run_sweep(store: Store, sweep: Sweep, factory: AgentFactory,
                    observer: Observer | None = None) -> SweepResult:
    """Play every game of the sweep not yet stored; return the tallies of its cells."""
    tallies = {cell: Tally(sweep.games) for cell in sweep.cells}
    stopped = budget_stopped(store, sweep)
    jobs = plan_jobs(sweep, store.cell_games(sweep.run.id), tallies, stopped)
    result = SweepResult(tallies, skipped=sweep.games * len(sweep.cells) - len(jobs))
    if observer:
        observer.started(tallies)
    pool = AgentPool(factory)
    queue: Iterator[tuple[Cell, int]] = iter(jobs)
    offload = Offload.of(sweep.game_pool, replace(sweep, game_pool=None))

    errored_in_a_row = 0
    settled: set[Cell] = set()           # --until: cells whose interval is narrow enough, played no more

    async def worker() -> None:
        nonlocal errored_in_a_row
        for cell, index in queue:
            if cell in settled:
                continue
            await asyncio.sleep(0)       # let Ctrl-C and the other games in, even when no agent ever waits
            if sweep.budget is not None and sweep.budget.reached:
                result.over_budget = True          # no game starts; those being played stop at their next request
            if result.halted is not None or result.over_budget:
                return
            specs = (cell.agent,) if sweep.seats == 1 else (cell.agent, cell.opponent)
            if offload is not None and offload.wanted(sweep, specs):
                row, rows = await offload.play(cell, index)
            else:
                row, rows = await play_game(sweep, pool, cell, index)
            if sweep.until is not None:          # the stopping rule travels with the game (the report reads it)
                row.game_params = {**row.game_params, UNTIL: sweep.until}
            outcome = await save_with_retry(store, row, rows, sweep.retry_errored or (cell, index) in stopped)
            result.played += 1
            if row.error == BUDGET_ERROR:
                result.over_budget = True
            else:
                errored_in_a_row = errored_in_a_row + 1 if row.status == ERRORED else 0
            if errored_in_a_row >= halt_after(sweep.concurrency) and result.halted is None:
                result.halted = row.error
            if outcome == EXISTS:
                continue
            result.stored += 1
            tally = tallies[cell]
            if outcome == REPLACED:
                tally.errored -= 1
            tally.add(row.status, row.winner, row.agent_seat, score=row.score, solved=sweep.is_solved(row.reason),
                      reason=row.reason)
            if sweep.until is not None and tally.narrow_enough(sweep.until, sweep.right_wrong):
                settled.add(cell)
            if observer:
                observer.game_done(cell, tally)

    metered = METER.set(sweep.budget)      # every game's requests are checked against it and charged to it
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(sweep.concurrency, len(jobs))):
                group.create_task(worker())
    except ExceptionGroup as eg:   # the store failed: stop every game, report the first cause
        raise eg.exceptions[0] from None
    finally:
        METER.reset(metered)
        await pool.aclose()
    result.errors = errored_reasons(store, sweep)
    return result


def errored_reasons(store: Store, sweep: Sweep) -> list[str | None]:
    """The stored reason of every errored game in the sweep's cells, this session's or earlier."""
    cells = set(sweep.cells)
    rows = store.conn.execute("SELECT agent, opponent, lang, game_index, error FROM games "
                              "WHERE run_id = ? AND status = ?", (sweep.run.id, ERRORED)).fetchall()
    return [error for agent, opponent, lang, index, error in rows
            if Cell(agent, opponent, lang) in cells and index < sweep.games and error != BUDGET_ERROR]
