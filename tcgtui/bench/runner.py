"""Play a sweep: many games at once, each stored the moment it ends.

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
from collections import defaultdict
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Protocol

from tcgtui.engine.core import CANCELLED, DISQUALIFIED, Game, GameRecord, Match
from tcgtui.opponents.base import Agent
from tcgtui.bench.offload import Offload
from tcgtui.bench.plan import Cell, agent_seat, game_deal_seed
from tcgtui.match import DecisionRecord, MatchResult, run_match
from tcgtui.store import ERRORED, EXISTS, FINISHED, REPLACED, DecisionRow, GameRow, Run, Store
from tcgtui.store.db import StoreError, now
from tcgtui.store.rows import decision_rows, game_row, scrub_info

AgentFactory = Callable[[str], Agent]


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
class Sweep:
    run: Run
    game: Game
    cells: list[Cell]
    games: int
    seed: int
    concurrency: int = 8
    timeout: float | None = None
    retry_errored: bool = False
    log_prompts: bool = False
    options: dict[str, Any] = field(default_factory=dict)     # game-level settings for players (prompt style)
    seats: int = 2
    # Games whose protocol varies the setup game by game (Eleusis: every rule on the same deals):
    # index -> (the game of that index, the index its deal is drawn from).  None: one game, deal = index.
    rounds: Callable[[int], tuple[Any, int]] | None = None
    game_pool: Executor | None = None     # worker processes that play cheap games whole; None: all here
    solved: str = ""                # the outcome reason of a solved round, where the game names one (Eleusis)
    budget: Any = None              # bench --budget (``tcgtui.bench.budget.Budget``): stops the sweep once spent

    def round(self, index: int) -> tuple[Any, int]:
        return self.rounds(index) if self.rounds is not None else (self.game, index)

    def is_solved(self, reason: str | None) -> bool:
        return bool(self.solved) and reason == self.solved


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


class AgentPool:
    """Reuse agents across games (``start()`` resets them), one per concurrent game.

    Keeps connection pools and worker handles warm; an agent whose game was
    cut short (timeout, crash) is closed rather than trusted again.
    """

    def __init__(self, factory: AgentFactory) -> None:
        self.factory = factory
        self.free: dict[str, list[Agent]] = defaultdict(list)
        self.all: list[Agent] = []

    def take(self, spec: str) -> Agent:
        if self.free[spec]:
            return self.free[spec].pop()
        agent = self.factory(spec)
        self.all.append(agent)
        return agent

    def give(self, spec: str, agent: Agent) -> None:
        self.free[spec].append(agent)

    async def discard(self, agent: Agent) -> None:
        self.all.remove(agent)
        await agent.aclose()

    async def aclose(self) -> None:
        agents, self.all = self.all, []
        self.free.clear()
        for agent in agents:
            await agent.aclose()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def seated(game: Game, agent_seat: int) -> Any:
    """The game with what belongs to the measured player (the card game's deck) at its seat."""
    return game.seated(agent_seat) if hasattr(game, "seated") else game


def deal_and_seat(game: Game, sweep: Sweep, deal: int, index: int) -> tuple[int, int]:
    """Game ``index``'s seed and the measured player's seat: the protocol's where it fixes them
    (``Game.run_seed``, ``Game.measured_seat``), else paired deals and alternating seats."""
    fixed = game.run_seed(sweep.seed, deal) if hasattr(game, "run_seed") else None
    seed = fixed if fixed is not None else game_deal_seed(game)(sweep.seed, deal)
    measured = getattr(game, "measured_seat", None)
    return seed, measured if measured is not None else agent_seat(index, sweep.seats)


async def play_game(sweep: Sweep, pool: AgentPool, cell: Cell, index: int) -> tuple[GameRow, list[DecisionRow]]:
    """Play game ``index`` of ``cell`` to the end (or to errored) and build its rows."""
    game, deal = sweep.round(index)
    seed, seat = deal_and_seat(game, sweep, deal, index)
    if sweep.seats == 1:
        specs: tuple[str, ...] = (cell.agent,)
    else:
        specs = (cell.agent, cell.opponent) if seat == 0 else (cell.opponent, cell.agent)
    agents = tuple(pool.take(s) for s in specs)
    game = seated(game, seat)
    match = Match(game, seed)
    decisions: list[DecisionRecord] = []
    started = now()
    error: str | None = None
    healthy = True
    try:
        result = await asyncio.wait_for(
            run_match(game, seed, agents, lang=cell.lang, match=match, on_decision=decisions.append,
                      options=sweep.options),
            sweep.timeout)
    except TimeoutError:
        result, healthy = None, False
        error = f"timeout: the game took over {sweep.timeout:g} s"
    except Exception as exc:  # a faulty agent ends its game, never the sweep
        result, healthy = None, False
        error = _describe(exc)
    if result is None:
        record: GameRecord = match.record()
        result = MatchResult(record, decisions, ERRORED, None, error)
    for s, agent in enumerate(agents):
        if healthy:
            pool.give(specs[s], agent)
        else:
            await pool.discard(agent)
    row = game_row(result, game=game, agent=cell.agent, opponent=cell.opponent, lang=cell.lang,
                   game_index=index, agent_seat=seat, run_id=sweep.run.id, started_at=started, finished_at=now(),
                   options=sweep.options)
    rows = decision_rows(decisions, row.seats, game, lambda info: scrub_info(info, sweep.log_prompts))
    return row, rows


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


def plan_jobs(sweep: Sweep, stored: list[tuple], tallies: dict[Cell, Tally]) -> list[tuple[Cell, int]]:
    """Games still to play, game index first so every cell advances together."""
    status: dict[tuple[Cell, int], str] = {}
    for agent, opponent, lang, index, st, winner, seat, score, reason in stored:
        cell = Cell(agent, opponent, lang)
        status[(cell, index)] = st
        if cell in tallies and index < sweep.games:
            tallies[cell].add(st, winner, seat, score=score, solved=sweep.is_solved(reason),
                               reason=reason)
    jobs = []
    for index in range(sweep.games):
        for cell in sweep.cells:
            st = status.get((cell, index))
            if st is None or (st == ERRORED and sweep.retry_errored):
                jobs.append((cell, index))
    return jobs


async def run_sweep(store: Store, sweep: Sweep, factory: AgentFactory,
                    observer: Observer | None = None) -> SweepResult:
    """Play every game of the sweep not yet stored; return the tallies of its cells."""
    tallies = {cell: Tally(sweep.games) for cell in sweep.cells}
    jobs = plan_jobs(sweep, store.cell_games(sweep.run.id), tallies)
    result = SweepResult(tallies, skipped=sweep.games * len(sweep.cells) - len(jobs))
    if observer:
        observer.started(tallies)
    pool = AgentPool(factory)
    queue: Iterator[tuple[Cell, int]] = iter(jobs)
    offload = Offload.of(sweep.game_pool, replace(sweep, game_pool=None))

    errored_in_a_row = 0
    workers: list[asyncio.Task] = []

    async def worker() -> None:
        nonlocal errored_in_a_row
        for cell, index in queue:
            await asyncio.sleep(0)       # let Ctrl-C and the other games in, even when no agent ever waits
            if result.halted is not None or result.over_budget:
                return
            specs = (cell.agent,) if sweep.seats == 1 else (cell.agent, cell.opponent)
            if offload is not None and offload.wanted(sweep, specs):
                row, rows = await offload.play(cell, index)
            else:
                row, rows = await play_game(sweep, pool, cell, index)
            outcome = await save_with_retry(store, row, rows, sweep.retry_errored)
            result.played += 1
            if sweep.budget is not None:
                sweep.budget.add(rows)
                if sweep.budget.reached and not result.over_budget:
                    result.over_budget = True          # stop the games being played, as Ctrl-C does
                    for task in workers:
                        if task is not asyncio.current_task():
                            task.cancel()
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
            if observer:
                observer.game_done(cell, tally)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(min(sweep.concurrency, len(jobs))):
                workers.append(group.create_task(worker()))
    except ExceptionGroup as eg:   # the store failed: stop every game, report the first cause
        raise eg.exceptions[0] from None
    finally:
        await pool.aclose()
    result.errors = errored_reasons(store, sweep)
    return result


def errored_reasons(store: Store, sweep: Sweep) -> list[str | None]:
    """The stored reason of every errored game in the sweep's cells, this session's or earlier."""
    cells = set(sweep.cells)
    rows = store.conn.execute("SELECT agent, opponent, lang, game_index, error FROM games "
                              "WHERE run_id = ? AND status = ?", (sweep.run.id, ERRORED)).fetchall()
    return [error for agent, opponent, lang, index, error in rows
            if Cell(agent, opponent, lang) in cells and index < sweep.games]
