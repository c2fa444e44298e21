"""A participant's schedule: practice first, then one block of games per rung, the blocks in a
counterbalanced order, every game with its own deal.

The order of the blocks is a row of a balanced Latin square (Williams' design) picked by the
participant's number, so over people each rung comes equally often in each position and after each
other rung: a learning effect does not favour the rung that comes last.  Seats alternate within a
block.  Deals are never repeated for a person: fresh ones are drawn from the study's digest, the
pseudonym and the game's place in the schedule (so a schedule is the same every time it is
rebuilt); paired ones are the deals, and seats, a stored run's players met.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from tcgtui.study.spec import FRESH, Rung, Study


@dataclass(frozen=True)
class Slot:
    """One game of a participant's schedule."""

    index: int                 # its place, 0.. over the whole schedule (practice included): the stored game_index
    rung: Rung
    seed: int
    seat: int                  # the person's seat (0 moves first)
    practice: bool


def williams_row(k: int, row: int) -> list[int]:
    """Row ``row`` of a balanced Latin square over ``k`` conditions (2k rows when k is odd: the
    mirrored rows balance what follows what)."""
    if k <= 1:
        return [0] * k
    first = [0]
    low, high = 1, k - 1
    for i in range(1, k):
        if i % 2:
            first.append(low)
            low += 1
        else:
            first.append(high)
            high -= 1
    rows = k if k % 2 == 0 else 2 * k
    r = row % rows
    seq = [(c + r) % k for c in first]
    return seq if r < k else seq[::-1]


def fresh_seed(digest: str, pid: str, index: int, taken: set[int]) -> int:
    salt = 0
    while True:
        h = hashlib.sha256(f"{digest}:{pid}:{index}:{salt}".encode()).digest()
        seed = int.from_bytes(h[:4], "big") & 0x7FFFFFFF
        if seed not in taken:
            return seed
        salt += 1


def schedule(study: Study, pid: str, number: int, paired: dict[Rung, list[tuple[int, int]]] | None = None) -> list[Slot]:
    """The participant's games in order.  ``paired``: for a paired study, each rung's stored deals
    as (seed, seat of the player measured there), in the run's order."""
    order = [study.rungs[i] for i in williams_row(len(study.rungs), number)]
    slots: list[Slot] = []
    taken: set[int] = set()
    for i in range(study.practice):
        seed = fresh_seed(study.digest, pid, len(slots), taken)
        taken.add(seed)
        slots.append(Slot(len(slots), order[0], seed, i % 2 if _two_seats(order[0]) else 0, True))
    for rung in order:
        for j in range(study.games_per_rung):
            if study.deals == FRESH or paired is None:
                seed = fresh_seed(study.digest, pid, len(slots), taken)
                seat = j % 2 if _two_seats(rung) else 0
            else:                       # the run's deals from the person's offset on, none met before
                deals = paired[rung]
                start = number * study.games_per_rung * len(study.rungs)
                seed, seat = next(d for k in range(len(deals)) if (d := deals[(start + k) % len(deals)])[0] not in taken)
            taken.add(seed)
            slots.append(Slot(len(slots), rung, seed, seat, False))
    return slots


def _two_seats(rung: Rung) -> bool:
    return bool(rung.opponent)


def describe(slot: Slot) -> dict[str, Any]:
    """What the stored record keeps of the slot a game was played in."""
    return {"slot": slot.index, "practice": slot.practice}
