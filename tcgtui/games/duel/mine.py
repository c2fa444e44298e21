"""``tcgtui duel mine``: the valid puzzles of recorded duels as a puzzle bank (JSON Lines).

A puzzle is valid when its sample solution checked True; each distinct code is kept once
(its first appearance), with its sample as the row's ``value`` so ``tcgtui duel check``
re-tests the bank as it is, and where it came from (proposer, duel, round, outcome).
"""

from __future__ import annotations

from typing import Any, Iterable

from tcgtui.engine.duel.analysis import rounds_of
from tcgtui.report.data import StoredGame


def bank_rows(games: Iterable[StoredGame]) -> list[dict[str, Any]]:
    duels: set[str] = set()
    codes: set[str] = set()
    rows = []
    for g in sorted(games, key=lambda g: (g.started_at, g.id)):
        if g.status != "finished" or not g.record or g.record.get("game") != "duel" or g.id in duels:
            continue
        duels.add(g.id)
        for r in rounds_of(g.record):
            code = r.get("code", "")
            if r.get("sample") != "true" or not code or code in codes:
                continue
            codes.add(code)
            rows.append({"code": code, "value": r.get("solution", ""), "proposer": g.seats[r["proposer"]],
                         "duel": g.id, "round": r["round"], "outcome": r["outcome"]})
    return rows
