"""Round robins measure every seat: which runs are round robins.

In a round robin every player is under study, so each per-player table counts
a game for both of its players; outside one, the opponent is a yardstick and a
game counts for its measured player only.  A run is a round robin when
``tcgtui bench --round-robin`` says so in its settings, or (runs stored before
it did) when at least three players met pair by pair.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

MIN_ROUND_ROBIN = 3


def met_pairwise(seatings: Iterable[tuple[str, ...]]) -> bool:
    """At least three players, every pair of them met (in either seat) at least once."""
    seatings = set(seatings)
    players = {p for seats in seatings for p in seats}
    met = {frozenset(seats) for seats in seatings if len(set(seats)) == 2}
    return len(players) >= MIN_ROUND_ROBIN and len(met) == len(players) * (len(players) - 1) // 2


def round_robin_runs(seatings: Iterable[tuple[str | None, tuple[str, ...]]], flagged: Iterable[str]) -> set[str]:
    """The runs, among those of the (run, seats) pairs of two-seat games, that are round robins."""
    by_run: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for run, seats in seatings:
        if run is not None and len(seats) == 2:
            by_run[run].add(seats)
    flagged = set(flagged)
    return {run for run, seen in by_run.items() if run in flagged or met_pairwise(seen)}


def flagged_runs(runs: Iterable[Any]) -> list[str]:
    """The names of the runs whose settings say they are round robins."""
    return [r.name for r in runs if (r.config.get("settings") or {}).get("round_robin")]
