"""A game's worst moments in the replay: the decisions whose stored regret is a blunder (above the
quality table's ``BLUNDER``), marked on the replay's steps so the viewer's N and P reach them.

Only values ``tcgtui analyze --run`` stored are read; nothing is computed for a replay.  Where
several evaluators judged the game, the one that valued most of its decisions speaks (ties: the
first by name), so a step has one verdict.
"""

from __future__ import annotations

import json

from tcgtui.quality.judge import TIE
from tcgtui.quality.table import BLUNDER
from tcgtui.replay.steps import Replay
from tcgtui.store import Store

KEY = "replay.moment.blunder"


def _evaluator(store: Store, game_id: str) -> str | None:
    """The evaluator with the most stored values of the game, or None (none stored, or a store before version 7)."""
    table = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'decision_values'"
    if store.conn.execute(table).fetchone() is None:
        return None
    row = store.conn.execute("SELECT evaluator FROM decision_values WHERE game_id = ? GROUP BY evaluator"
                             " ORDER BY count(*) DESC, evaluator LIMIT 1", (game_id,)).fetchone()
    return row[0] if row else None


def mark(store: Store, replay: Replay) -> None:
    """Give each step whose decision the game's evaluator judged a blunder its verdict (``Step.judged``):
    the regret, the evaluator and its best moves (a tuple of move texts, which the viewer names)."""
    evaluator = _evaluator(store, replay.row.id)
    if evaluator is None:
        return
    by_index = {s.index: s for s in replay.steps}
    for idx, values, regret in store.conn.execute(
            "SELECT idx, move_values, regret FROM decision_values WHERE game_id = ? AND evaluator = ? AND regret > ?",
            (replay.row.id, evaluator, BLUNDER)):
        step = by_index.get(idx + 1)             # decision i led to the position after i + 1 moves
        if step is None:
            continue
        moves = json.loads(values)
        best = max(moves.values())
        step.judged = (KEY, {"regret": f"{round(regret, 2):g}", "evaluator": evaluator,
                             "best": tuple(m for m, v in moves.items() if v >= best - TIE)})
