"""One game of a sweep, played to its end and turned into rows: here, by ``runner``, or in a
worker process, by ``offload`` (the same code either way, so a result does not depend on where
its game was played).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable

from tcgtui.bench.plan import Cell, agent_seat, game_deal_seed
from tcgtui.engine.core import Game, GameRecord, Match
from tcgtui.match import DecisionRecord, MatchResult, run_match
from tcgtui.opponents.base import Agent
from tcgtui.opponents.llm.spend import BUDGET_STOPPED, BudgetSpent
from tcgtui.store import ERRORED, DecisionRow, GameRow, Run
from tcgtui.store.db import now
from tcgtui.store.rows import decision_rows, game_row, scrub_info

AgentFactory = Callable[[str], Agent]
# The error of a game --budget stopped (stored as errored, with what it played and spent): a rerun plays it again.
BUDGET_ERROR = "stopped by --budget before its end; rerunning the command plays it again"


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
    budget: Any = None              # bench --budget (``tcgtui.bench.budget.Budget``): the requests' meter
    until: float | None = None      # bench --until: a cell stops once its anytime interval is this narrow
    right_wrong: bool = False       # ... the interval of its share right (a right/wrong game), else of its wins

    def round(self, index: int) -> tuple[Any, int]:
        return self.rounds(index) if self.rounds is not None else (self.game, index)

    def is_solved(self, reason: str | None) -> bool:
        return bool(self.solved) and reason == self.solved


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
    except BudgetSpent:
        result, error = None, BUDGET_ERROR
    except Exception as exc:  # a faulty agent ends its game, never the sweep
        result, healthy = None, False
        error = _describe(exc)
    if result is not None and any(d.info.get(BUDGET_STOPPED) for d in decisions):
        result = None           # a decision the budget cut short: the game has no fair result
        error = BUDGET_ERROR
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
