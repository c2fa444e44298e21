"""What one seat may see of a card game: its own hand and tricks, never the
opponent's, and no deck order.  Agents act on these, never on the true state."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tcgtui.engine.core import Outcome


@dataclass(frozen=True, slots=True)
class ChampionView:
    card: str
    power: int  # current, with every bonus
    guard: int
    base_power: int  # as printed
    base_guard: int
    perm_power: int  # printed plus permanent bonuses
    perm_guard: int
    temp_power: int  # until end of turn
    temp_guard: int
    summoned_turn: int
    frozen: bool  # cannot attack on its owner's current or next turn
    frozen_through: int
    can_attack: bool  # would attack in this turn's combat
    blocked_this_turn: bool


@dataclass(frozen=True, slots=True)
class TcgObservation:
    seat: int
    pack_id: str
    turn: int
    turn_limit: int
    current_player: int
    lp: tuple[int, int]
    hand: tuple[str, ...]
    my_tricks: tuple[str, ...]
    opp_hand_size: int
    opp_trick_count: int
    deck_sizes: tuple[int, int]
    boards: tuple[tuple[ChampionView, ...], tuple[ChampionView, ...]]
    graves: tuple[tuple[str, ...], tuple[str, ...]]
    legal_moves: tuple[str, ...]
    outcome: Outcome | None

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["outcome"] = None if self.outcome is None else self.outcome.to_json()
        return out
