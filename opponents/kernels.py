"""Search loops on the fast path: flat Monte Carlo playouts and information-set MCTS.

Both start from an observation array and re-deal the hidden cards before
every playout or iteration (``rules.determinize``); only ``mc:K:peek`` starts
from a true state instead.  Each playout or iteration draws from its own
stream, fixed by (decision seed, move, index), so splitting the work into
batches, threads or processes never changes the result.

The functions taking plain data (``run_playouts``, ``run_tree``) are what
worker processes receive: everything they need travels in a picklable task.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from engine.tcg.fast import layout as L
from engine.tcg.fast.rules import apply_move, determinize, playout, rng_below, rng_seed

WIN, DRAW, LOSS = 0, 1, 2
_TREE_STREAM = 0x7EE5   # keeps tree iterations off the playouts' streams


@njit(cache=True, nogil=True)
def mc_playouts(P, base, redeal, seat, moves, first, count, seed, out):
    """For each move, playouts ``first .. first+count-1``: re-deal (or copy), play it, play on."""
    n = P[L.P_N]
    S = np.zeros(L.SH + 8 * n + 2 * n * L.CHW, dtype=np.int64)
    W = np.zeros(5 * n + 1 + L.MAX_FRAMES * L.FW + L.MAX_FRAMES * n, dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    for m in range(moves.shape[0]):
        c = moves[m]
        for j in range(first, first + count):
            rng_seed(rs, seed, c, j)
            if redeal:
                determinize(P, base, S, W, rs, n)
            else:
                S[:] = base
            apply_move(P, S, W, rs, n, c)
            o = playout(P, S, W, rs, n)
            if o == L.OUT_DRAW:
                out[m, DRAW] += 1
            elif o == 1 + seat:
                out[m, WIN] += 1
            else:
                out[m, LOSS] += 1


@njit(cache=True, nogil=True)
def find_child(first, sibling, edge, node, key):
    k = first[node]
    while k >= 0 and edge[k] != key:
        k = sibling[k]
    return k


@njit(cache=True, nogil=True)
def ismcts_iterate(P, O, start, count, seed, explore, first, sibling, edge, visits, reward, avail,
                   size):
    """Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012), iterations ``start..``.

    Each iteration re-deals the hidden cards, descends through moves legal in
    that deal by UCB1 with availability counts, adds one node, plays randomly
    to the end and credits each node to the player who made its move.  A
    node's children form a linked list (``first``, ``sibling``) keyed by the
    edge player * n + card, so the tree costs a few numbers per node.
    """
    n = P[L.P_N]
    S = np.zeros(L.SH + 8 * n + 2 * n * L.CHW, dtype=np.int64)
    W = np.zeros(5 * n + 1 + L.MAX_FRAMES * L.FW + L.MAX_FRAMES * n, dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    path = np.zeros(P[L.P_LIMIT] + 2, dtype=np.int64)
    for it in range(start, start + count):
        rng_seed(rs, seed, _TREE_STREAM, it)
        determinize(P, O, S, W, rs, n)
        node = 0
        depth = 0
        while S[L.S_OUT] == L.OUT_NONE:
            p = S[L.S_CUR]
            h = L.SH + (2 + p) * n
            hn = S[L.S_HANDN + p]
            untried = 0
            for t in range(hn):
                if find_child(first, sibling, edge, node, p * n + S[h + t]) < 0:
                    untried += 1
            if untried > 0:
                pick = rng_below(rs, untried)
                c = -1
                for t in range(hn):
                    if find_child(first, sibling, edge, node, p * n + S[h + t]) < 0:
                        if pick == 0:
                            c = S[h + t]
                            break
                        pick -= 1
                k = size[0]
                size[0] = k + 1
                edge[k] = p * n + c
                sibling[k] = first[node]
                first[node] = k
                for t in range(hn):
                    known = find_child(first, sibling, edge, node, p * n + S[h + t])
                    if known >= 0:
                        avail[known] += 1.0
                apply_move(P, S, W, rs, n, c)
                path[depth] = k
                depth += 1
                break
            best = -1
            best_card = -1
            best_value = -1.0
            for t in range(hn):
                c = S[h + t]
                k = find_child(first, sibling, edge, node, p * n + c)
                avail[k] += 1.0
                value = reward[k] / visits[k] + explore * math.sqrt(math.log(avail[k]) / visits[k])
                if value > best_value:
                    best = k
                    best_card = c
                    best_value = value
            apply_move(P, S, W, rs, n, best_card)
            node = best
            path[depth] = best
            depth += 1
        o = playout(P, S, W, rs, n)
        visits[0] += 1.0
        for d in range(depth):
            k = path[d]
            visits[k] += 1.0
            mover = edge[k] // n
            if o == 1 + mover:
                reward[k] += 1.0
            elif o == L.OUT_DRAW:
                reward[k] += 0.5


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


def run_playouts(batch: PlayoutBatch) -> np.ndarray:
    """Win, draw and loss counts per move, from the searching seat's side."""
    out = np.zeros((len(batch.moves), 3), dtype=np.int64)
    mc_playouts(batch.code, batch.base, batch.redeal, batch.seat, batch.moves, batch.first,
                batch.count, batch.seed, out)
    return out


class Tree:
    """An ISMCTS tree that can grow in steps (so a thread can stop between them)."""

    def __init__(self, code: np.ndarray, obs: np.ndarray, iterations: int, seed: int,
                 explore: float) -> None:
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
        ismcts_iterate(self.code, self.obs, self.done, count, self.seed, self.explore, self.first,
                       self.sibling, self.edge, self.visits, self.reward, self.avail, self.size)
        self.done += count

    def root(self, seat: int, moves: np.ndarray) -> np.ndarray:
        """Visits and total reward of the root's children for ``moves``, shape (len(moves), 2)."""
        out = np.zeros((len(moves), 2))
        for i, c in enumerate(moves):
            k = find_child(self.first, self.sibling, self.edge, 0, seat * self.n + int(c))
            if k >= 0:
                out[i] = self.visits[k], self.reward[k]
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
    tree = Tree(task.code, task.obs, task.iterations, task.seed, task.explore)
    tree.grow(task.iterations)
    return tree.root(task.seat, task.moves)
