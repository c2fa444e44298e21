"""Win rates of a deck completed with each option, measured by games on the compiled path.

Each option's deck (the partial deck plus that card) plays every deck of a fixed field,
half of the games in each seat, both seats played by flat Monte Carlo (``mc:K``).  Game g
against field deck f in seat s uses the same seed for every option (paired deals), so two
options are compared game by game.  Work comes as plain-data ``SimTask``s, so a caller can
hand them to a process pool (or a Ray cluster); ``run_task`` is all a worker runs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.fast import layout as L

Counts = tuple[int, ...]


@dataclass(frozen=True)
class SimTask:
    """Games ``first .. first+count-1`` of one (option, field deck, seat) pairing."""

    code: np.ndarray
    k: int
    seed: int
    first: int
    count: int
    option: int
    opponent: int
    seat: int  # the option's deck's seat


def run_task(task: SimTask) -> np.ndarray:
    """Each game's score for the option's deck: 1 win, 0.5 draw, 0 loss."""
    # start-up time: the compiled kernels (numba) only when decks are simulated
    from tcgtui.engine.tcg.fast.kernel import mc_games

    out = np.zeros(task.count, dtype=np.int64)
    mc_games(np.require(task.code, requirements="W"), task.k, task.seed, task.first, task.count, out)
    win = 1 + task.seat
    return np.where(out == win, 1.0, np.where(out == L.OUT_DRAW, 0.5, 0.0))


def pairing_seed(seed: int, opponent: int, seat: int) -> int:
    """The deal stream of one pairing: the same for every option (63 bits)."""
    digest = hashlib.blake2b(f"tcgtui/deck/{seed}/{opponent}/{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def tasks(
    pack: Pack, decks: list[Counts], field: list[Counts], k: int, games: int, seed: int, chunk: int = 200
) -> list[SimTask]:
    """Every option's games against every field deck, ``games`` per pairing split over the two
    seats, cut into chunks of at most ``chunk`` games."""
    out = []
    for o, deck in enumerate(decks):
        for f, opp in enumerate(field):
            for seat in (0, 1):
                program = L.compile_pack(pack, (deck, opp) if seat == 0 else (opp, deck))
                n = games // 2 + (games % 2 if seat == 0 else 0)
                s = pairing_seed(seed, f, seat)
                for first in range(0, n, chunk):
                    out.append(SimTask(program.code, k, s, first, min(chunk, n - first), o, f, seat))
    return out


def scores(all_tasks: list[SimTask], results: list[np.ndarray], options: int) -> np.ndarray:
    """Per option, the scores of its games in one fixed order (pairing by pairing), so row i
    and row j are paired game by game."""
    rows: list[list[tuple[tuple[int, int, int], np.ndarray]]] = [[] for _ in range(options)]
    for t, r in zip(all_tasks, results):
        rows[t.option].append(((t.opponent, t.seat, t.first), r))
    return np.array([np.concatenate([r for _, r in sorted(row, key=lambda x: x[0])]) for row in rows])
