"""A replay: a stored game's positions, one ``Step`` per move, as ``load`` rebuilds them and
``moments`` marks them, with ``tcgtui.quality.worst``'s blunders where values are stored (apart from both, so neither imports the other to name them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tcgtui.engine import registry
from tcgtui.engine.core import Event, Game
from tcgtui.store import DecisionRow, GameRow


@dataclass
class Step:
    """The position after ``index`` moves (0: the deal), and the move that led to it."""

    index: int
    state: Any
    move: str = ""                                 # the move as stored ("" for the deal, "!kind" an invalid one)
    seat: int = -1                                 # who moved (-1: nobody or the referee)
    events: list[Event] = field(default_factory=list)
    decision: DecisionRow | None = None            # what the player said and tried (models: reasoning, attempts)
    moment: tuple[str, dict[str, Any]] | None = None   # a locale key and its parameters: this move decided it
    judged: tuple[str, dict[str, Any]] | None = None   # the same, from a stored evaluator: a blunder (tcgtui.quality.worst)


@dataclass
class Replay:
    row: GameRow
    game: Game
    steps: list[Step]

    @property
    def spec(self) -> registry.GameSpec:
        return self.game.spec
