"""``mc:K``: the paper's flat Monte Carlo opponent, played honestly, for any game with a move list.

For each legal move, K playouts: rebuild a full state from what this seat sees
(``Game.resample``: the exact state in a game of perfect information, a fresh
re-deal of the hidden cards otherwise), play the move, then uniformly random
moves for every player to the end.  The move with the best score (a win 1, a
draw 1/2) is played; ties go to the agent's seeded RNG, so a game replays from
its seed.  A game that registers a compiled accelerator (``GameSpec.fast``)
runs its playouts there, in batches a thread or a process pool can share.
While that path compiles (a new install; ``compiled`` not set yet), decisions
run on the game's interim path (``GameSpec.interim``: the same tallies) or
through the core API: the same K, the same algorithm, no wait for the compile.
There the TUI gives a time budget (``interim_budget``): the playouts run a few
per move at a time, and once the budget is spent the move with the best mean
after the playouts done is played (each move has had as many); the decision
records the budget and the playouts done of the K asked.  The bench gives none.

``mc:K:peek`` is the public engine's omniscient variant, kept for comparison
(card game only): it is handed a clone of the true state before each decision
(see ``Agent.omniscient``) and plays out from it.  Unlike that engine, it does
play the evaluated card.
"""

from __future__ import annotations

import asyncio
import math
import random
import threading
from concurrent.futures import Executor
from functools import partial
from typing import Any

import numpy as np

from tcgtui.engine.core import Event, Game, GameState
from tcgtui.engine.fast import DRAW, WIN
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext, agent_rng, game_of, refuse_other_rules
from tcgtui.opponents.search import (
    BATCH_PLAYOUTS,
    BUDGET_CORE_UNITS,
    BUDGET_UNITS,
    Budget,
    Progress,
    Workers,
    growing,
    is_cheap,
    run_batches,
    split,
)
from tcgtui.opponents.spec import AgentSpec


def compiled_ready(compiled: threading.Event | None) -> bool:
    """Whether a search agent may load the game's compiled path now."""
    return compiled is None or compiled.is_set()


def best_moves(moves: list[Any], scores: list[float]) -> list[Any]:
    top = max(scores)
    return [m for m, s in zip(moves, scores) if s == top]


def random_playout(state: GameState, rng: random.Random) -> GameState:
    """Uniformly random legal moves for every player until the game ends."""
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def score_of(state: GameState, seat: int) -> float:
    """A finished playout from ``seat``'s side: a win 1, a draw 1/2, a loss 0."""
    winner = state.winner
    return 0.5 if winner is None else float(winner == seat)


def generic_playouts(game: Game, obs: Any, moves: list[Any], first: int, count: int, seed: int) -> np.ndarray:
    """Win/draw/loss counts per move through the core API; playout i of move m has its own stream."""
    out = np.zeros((len(moves), 3), dtype=np.int64)
    for m, move in enumerate(moves):
        for i in range(first, first + count):
            rng = random.Random(f"{seed}:{m}:{i}")
            state = game.resample(obs, rng)
            state.apply(move)
            end = random_playout(state, rng)
            s = score_of(end, obs.seat)
            out[m, WIN if s == 1.0 else DRAW if s == 0.5 else 2] += 1
    return out


_PREPARED: dict[int, tuple[Any, Any, Any]] = {}  # id(game) -> (game, compiled module, its prepared data)


def fast_scores(game: Game, k: int, seat: int, game_seed: int, obs: Any) -> dict[Any, float] | None:
    """The scores an ``mc:K`` decision records (``decide``'s ``info["scores"]``, for an agent started
    with ``game_seed`` at ``seat``), from one call of the game's compiled path: no event loop, no
    thread, no batches, so judging many stored decisions pays the kernel alone (the agent's way
    added 6 ms to a card-game decision's 17).  None when the game has no compiled path."""
    spec = game.spec
    if spec.fast is None:
        return None
    if id(game) not in _PREPARED or _PREPARED[id(game)][0] is not game:
        _PREPARED.clear()
        fast = spec.fast()
        _PREPARED[id(game)] = (game, fast, fast.prepare(game))
    _, fast, program = _PREPARED[id(game)]
    seed = agent_rng(game_seed, seat, f"turn{obs.turn}").getrandbits(63)  # as begin_turn, then decide
    moves = list(obs.legal_moves)
    tally = fast.playouts(
        program, fast.encode(program, obs), obs.seat, fast.move_index(program, obs, moves), 0, k, seed
    )
    return {m: round((int(t[WIN]) + 0.5 * int(t[DRAW])) / k, 4) for m, t in zip(moves, tally)}


class MonteCarloAgent(Agent):
    """Flat Monte Carlo with K playouts per legal move."""

    def __init__(
        self,
        k: int,
        *,
        peek: bool = False,
        executor: Executor | None = None,
        workers: int = 1,
        compiled: threading.Event | None = None,
        interim_budget: Budget | None = None,
    ) -> None:
        if k < 1:
            raise ValueError(f"K must be 1 or more, got {k}")
        self.k = k
        self.peek = peek
        self.omniscient = peek
        self.spec = str(AgentSpec("mc", k, peek=peek))
        self.workers = Workers(executor, workers)
        self.compiled = compiled  # None: the compiled path may be loaded at any time
        self.interim_budget = interim_budget  # a decision's time budget while on the interim path
        self.progress = Progress()
        self._true_state: np.ndarray | None = None
        self._prepared: dict[tuple[int, str], Any] = {}

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.game = game_of(ctx, self.spec)
        self.fast = None
        self._loaded = False  # the compiled path loads at the first decision, off the event loop
        self._true_state = None
        refuse_other_rules(self.spec, self.game)
        if self.peek and self.game.spec.fast is None:
            raise AgentError(f"{self.spec}: {self.game.name} has no compiled path to peek with")

    def _load(self) -> None:
        """Import (so compile, or load from numba's cache) the game's compiled path: seconds
        on a new install, so it runs in a thread, never when the agent is started.  Until
        ``compiled`` is set, the interim path stands in, and loading is tried again next time."""
        spec = self.game.spec
        ready = compiled_ready(self.compiled)
        make = spec.fast if ready else spec.interim
        self.fast = make() if make is not None else None
        if self.fast is not None:
            key = (id(self.game), self.fast.__name__)
            if key not in self._prepared:  # agents are reused across a sweep's games
                self._prepared = {key: self.fast.prepare(self.game)}
            self.program = self._prepared[key]
        self._loaded = ready

    def see_state(self, state: Any) -> None:
        self._true_state = state  # encoded once the compiled path is loaded

    def _tasks(self, obs: Any, moves: list[Any], seed: int, budgeted: bool = False) -> tuple[Any, list[Any], list[int]]:
        if budgeted:  # batches of a few playouts of every move, growing, so a cut leaves them even
            first, most = (BUDGET_UNITS, BATCH_PLAYOUTS) if self.fast is not None else (BUDGET_CORE_UNITS,) * 2
            ranges = growing(self.k, first // len(moves), most // len(moves))
        else:
            ranges = split(self.k, max(self.workers.workers, math.ceil(self.k * len(moves) / BATCH_PLAYOUTS)))
        units = [count * len(moves) for _, count in ranges]
        if self.fast is None:
            return (lambda r: generic_playouts(self.game, obs, moves, r[0], r[1], seed)), ranges, units
        if self.peek:
            if self._true_state is None:
                raise AgentError(f"{self.spec} needs the true state, and this runner did not hand it over")
            base, self._true_state = self.fast.encode_state(self._true_state, self.program), None
        else:
            base = self.fast.encode(self.program, obs)
        index = self.fast.move_index(self.program, obs, moves)
        fn = partial(_fast_batch, self.fast.playouts, self.program, base, obs.seat, index, seed, not self.peek)
        return fn, ranges, units

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return Decision(moves[0], {"playouts": 0})
        if self.peek and not compiled_ready(self.compiled):
            await asyncio.to_thread(self.compiled.wait)  # type: ignore[union-attr]  # only the compiled path can peek
        budget = self.interim_budget if not compiled_ready(self.compiled) else None
        if budget is not None:
            budget.start()  # loading the interim path counts: the person waits for it too
        if not self._loaded:
            await asyncio.to_thread(self._load)
        if self._loaded:
            budget = None  # the compiled path was ready after all: the whole K, as in the bench
        seed = self.rng.getrandbits(63)
        fn, ranges, units = self._tasks(obs, moves, seed, budgeted=budget is not None)
        executor = self.workers.executor if self.fast is not None and budget is None else None
        results = await run_batches(
            fn,
            ranges,
            executor,
            self.progress,
            units,
            inline=is_cheap(units, self._loaded and self.fast is not None),
            budget=budget,
        )
        played = sum(count for _, count in ranges[: len(results)])  # playouts of each move
        tally = np.sum(results, axis=0)
        scores = [(int(t[WIN]) + 0.5 * int(t[DRAW])) / played for t in tally]
        tied = best_moves(moves, scores)
        move = tied[0] if len(tied) == 1 else self.rng.choice(tied)
        return Decision(
            move,
            {
                "playouts": played * len(moves),
                "tied": len(tied),
                **self._path(played, budget),
                "scores": {m: round(s, 4) for m, s in zip(moves, scores)},
            },
        )

    def _path(self, played: int, budget: Budget | None) -> dict[str, Any]:
        """Recorded with a decision taken while the compiled path was not ready (and its budget:
        playouts done and asked per move)."""
        if self._loaded:
            return {}
        return {"interim": True, **(budget.describe(played, self.k) if budget is not None else {})}

    def describe(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": "mc",
            "k": self.k,
            "redeal": not self.peek,
            "omniscient": self.peek,
            "rollout": "uniform random moves for both players",
            "score": "win 1, draw 1/2",
            **self.workers.describe(),
        }

    async def aclose(self) -> None:
        self.workers.close()


def _fast_batch(
    playouts: Any,
    program: Any,
    base: np.ndarray,
    seat: int,
    index: np.ndarray,
    seed: int,
    redeal: bool,
    rng: tuple[int, int],
) -> np.ndarray:
    """One batch on a compiled path: module-level, so a process pool can pickle it."""
    first, count = rng
    if redeal:
        return playouts(program, base, seat, index, first, count, seed)
    return playouts(program, base, seat, index, first, count, seed, redeal=False)
