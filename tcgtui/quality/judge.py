"""One stored game's decisions judged: its positions rebuilt from the store (``tcgtui.replay.load``),
every legal move valued by the evaluator, the chosen move's regret and whether it was among the best.

Pure of any write, so worker processes run it (``tcgtui.quality.analyze``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.quality.evaluators import decision_seed
from tcgtui.replay.load import positions
from tcgtui.store import DecisionRow, GameRow

TIE = 1e-9          # values this close are the same value (Connect Four's heuristic is a float)


@dataclass(frozen=True)
class Judged:
    """A decision's values as the store keeps them (``decision_values``)."""

    idx: int
    seat: int
    move_values: dict[str, float]
    chosen: float
    best: float

    @property
    def regret(self) -> float:
        return max(0.0, self.best - self.chosen)

    @property
    def agrees(self) -> bool:
        return self.chosen >= self.best - TIE


def judge(row: GameRow, decisions: list[DecisionRow], evaluator: Any, idxs: set[int]) -> list[Judged]:
    """The decisions numbered ``idxs`` of the stored game ``row`` judged by ``evaluator`` (its
    ``values(state)``).  A move the evaluator does not list (a record that does not fit) is a UserError."""
    replay = positions(row, decisions)
    out = []
    for before, step in zip(replay.steps, replay.steps[1:]):
        i = step.index - 1
        if i not in idxs:
            continue
        values = evaluator.values(before.state, decision_seed(row.id, i))
        chosen = values.get(step.move)
        if chosen is None:
            raise UserError(locales.load().t("quality.unfit", id=row.id[:12], move=step.index, text=step.move[:40]))
        out.append(Judged(i, step.seat, values, chosen, max(values.values())))
    return out
