"""``tcgtui report --table quality_by_phase``: decision quality in a game's opening, middle and end.

A game's phases are the thirds of its own length, so a short game and a long one are each split in
three: by move number (every game; the record's moves, both seats', invalid attempts included in the
count), and in the card game also by its own turn number (its turns go on without a decision once
the hands are empty, so its turns and its moves differ).  Decision ``i`` (from 0) of a game of ``n``
is in third ``⌊3i / n⌋``.  The measures and their interval are ``quality``'s (bootstrap over games).
"""

from __future__ import annotations

from typing import Any

from tcgtui.engine import registry
from tcgtui.quality import stored
from tcgtui.quality.table import Row, View, cells, measures

PHASES = ("opening", "middle", "end")
BY_MOVE, BY_TURN = "move", "turn"


def third(position: int, length: int) -> str:
    """The phase of the decision at ``position`` (from 0) of a game ``length`` long."""
    if length <= 0:
        return PHASES[0]
    return PHASES[min(2, max(0, 3 * position // length))]


def by_turns(game: str) -> bool:
    """Whether the game counts its own turns apart from its moves: the card game, whose moves have kinds."""
    return registry.get(game).store.move_kind is not None


def phases(idx: int, turn: int, length: tuple[int, int], turns: bool) -> list[tuple[str, str]]:
    """(by, phase) of decision ``idx`` made in ``turn`` of a game (moves, turns) long: its move's
    third, and its turn's where the game has turns of its own."""
    moves, turn_count = length
    out = [(BY_MOVE, third(idx, moves))]
    if turns:
        out.append((BY_TURN, third(turn - 1, turn_count)))      # turns count from 1
    return out


def quality_by_phase(games: list[Any], context: Any) -> list[Row]:
    """``quality``'s measures per player, opponent, language, evaluator and phase."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)
    turns = {g.id: by_turns(g.game) for g in games}

    def keys(view: View, value: stored.Value, length: tuple[int, int]) -> list[tuple]:
        return [(view.agent, view.opponent, view.lang, value.evaluator, by, PHASES.index(phase))
                for by, phase in phases(value.idx, value.turn, length, turns[view.game_id])]

    found = cells(games, context, keys)
    return [{"agent": agent, "opponent": opponent, "lang": lang, "evaluator": evaluator, "by": by,
             "phase": PHASES[phase], **measures(per_game, seed)}
            for (agent, opponent, lang, evaluator, by, phase), per_game in sorted(found.items())]
