"""The card game's search accelerator (``engine.fast.FastSearch``), as plain-data work items.

Flat Monte Carlo batches and ISMCTS trees over ``engine.tcg.fast.kernel``'s
search loops: what a thread or a worker process is handed.  Both start from an observation array and re-deal the hidden
cards before every playout or iteration; only ``mc:K:peek`` starts from a true
state.  Each playout or iteration draws from its own stream, fixed by
(decision seed, move, index), so splitting the work into batches, threads or
processes never changes the result.  Tasks hold only numpy arrays and
numbers, so they pickle cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast.encode import encode_observation, encode_state, observed_slots
from tcgtui.engine.tcg.fast.kernel import DRAW, LOSS, WIN, ismcts_iterate, mc_playouts, nmc_playouts

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "PlayoutBatch",
    "Tree",
    "TreeTask",
    "encode",
    "encode_state",
    "move_index",
    "playouts",
    "prepare",
    "run_playouts",
    "run_tree",
    "warm_up",
]


# --- the FastSearch protocol -----------------------------------------------------------------


def prepare(game: TcgGame) -> L.Program:
    return L.compile_pack(game.pack, None if game.default_decks else game.owned())


def encode(program: L.Program, obs: object) -> np.ndarray:
    return encode_observation(obs, program)  # type: ignore[arg-type]


def move_index(program: L.Program, obs: object, moves: list[str]) -> np.ndarray:
    """Each move as the slot of its first copy in the hand."""
    hand = observed_slots(obs, program)[0]  # type: ignore[arg-type]
    return np.array([next(k for k in hand if program.card_ids[k] == m) for m in moves], dtype=np.int64)


def playouts(
    program: L.Program,
    encoded: np.ndarray,
    seat: int,
    moves: np.ndarray,
    first: int,
    count: int,
    seed: int,
    redeal: bool = True,
) -> np.ndarray:
    """``redeal=False`` only for ``mc:K:peek``, whose ``encoded`` is a true state (``encode_state``)."""
    return run_playouts(PlayoutBatch(program.code, encoded, redeal, seat, moves, first, count, seed))


# --- plain-data tasks for threads and worker processes ---------------------------------------


@dataclass(frozen=True)
class PlayoutBatch:
    """Playouts ``first .. first+count-1`` for every move; ``base`` is an observation
    array when ``redeal`` is set, else a true state (the omniscient variant)."""

    code: np.ndarray
    base: np.ndarray
    redeal: bool
    seat: int
    moves: np.ndarray
    first: int
    count: int
    seed: int


def writable(a: np.ndarray) -> np.ndarray:
    """The array itself, or a copy when it came read-only (Ray's object store hands arrays over so),
    since the compiled loops take writable arrays."""
    return np.require(a, requirements="W")


def run_playouts(batch: PlayoutBatch) -> np.ndarray:
    """Win, draw and loss counts per move, from the searching seat's side."""
    out = np.zeros((len(batch.moves), 3), dtype=np.int64)
    mc_playouts(
        writable(batch.code),
        writable(batch.base),
        batch.redeal,
        batch.seat,
        batch.moves,
        batch.first,
        batch.count,
        batch.seed,
        out,
    )
    return out


class Tree:
    """An ISMCTS tree that can grow in steps (so a thread can stop between them)."""

    def __init__(self, code: np.ndarray, obs: np.ndarray, iterations: int, seed: int, explore: float) -> None:
        cap = iterations + 1
        self.code, self.obs, self.seed, self.explore = code, obs, seed, explore
        self.n = int(code[L.P_N])
        self.first = np.full(cap, -1, dtype=np.int64)
        self.sibling = np.full(cap, -1, dtype=np.int64)
        self.edge = np.full(cap, -1, dtype=np.int64)
        self.visits = np.zeros(cap)
        self.reward = np.zeros(cap)
        self.avail = np.zeros(cap)
        self.size = np.ones(1, dtype=np.int64)
        self.done = 0

    def grow(self, count: int) -> None:
        ismcts_iterate(
            self.code,
            self.obs,
            self.done,
            count,
            self.seed,
            self.explore,
            self.first,
            self.sibling,
            self.edge,
            self.visits,
            self.reward,
            self.avail,
            self.size,
        )
        self.done += count

    def root(self, seat: int, moves: np.ndarray) -> np.ndarray:
        """Visits and total reward of the root's children for ``moves``, shape (len(moves), 2)."""
        out = np.zeros((len(moves), 2))
        card = [int(self.code[L.PH + int(c) * L.CW + L.C_CARD]) for c in moves]
        k = self.first[0]
        while k >= 0:  # copies of one card in hand add up to one move
            mover, slot = divmod(int(self.edge[k]), self.n)
            c = int(self.code[L.PH + slot * L.CW + L.C_CARD])
            if mover == seat and c in card:
                out[card.index(c)] += self.visits[k], self.reward[k]
            k = self.sibling[k]
        return out


@dataclass(frozen=True)
class TreeTask:
    """A whole tree in one call: what a worker process runs (root parallelisation)."""

    code: np.ndarray
    obs: np.ndarray
    seat: int
    moves: np.ndarray
    iterations: int
    seed: int
    explore: float


def run_tree(task: TreeTask) -> np.ndarray:
    tree = Tree(writable(task.code), writable(task.obs), task.iterations, task.seed, task.explore)
    tree.grow(task.iterations)
    return tree.root(task.seat, task.moves)


def warm_up(game: TcgGame | Pack) -> None:
    """Compile the search loops now, with one playout, one iteration and one nested playout.

    numba compiles them on first use (about 20 s on a new install, under 1 s once
    its cache is on disk); the TUI calls this in a thread at start, so a person's
    first move, not the opponent's first decision, covers that time."""
    pack = game.pack if isinstance(game, TcgGame) else game
    program = L.compile_pack(pack)
    state = TcgGame(pack).new_state(0)
    seat = state.current_player
    obs = encode_observation(state.observation(seat), program)
    moves = move_index(program, state.observation(seat), state.legal_moves())
    run_playouts(PlayoutBatch(program.code, obs, True, seat, moves, 0, 1, 0))
    run_tree(TreeTask(program.code, obs, seat, moves, 1, 0, 1.0))
    nmc_playouts(program.code, obs, seat, moves[:1], 0, 1, 0, 1, np.zeros((1, 3), dtype=np.int64))
