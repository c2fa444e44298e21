"""``tcgtui report --table diversity``: how varied a player's choices are (issue 40, part 2), as the
Shannon entropy in bits of the shares of its decisions in each category, over the whole game and
by phase (``tcgtui.quality.phases``' thirds).

The categories are each game's own (``ToolHooks.choices``): the card game by the type of the card
played (a decision that plays no card is not counted), the grid games that place a stone anywhere by
the region of the chosen cell (corner, edge, inside), Connect Four by column.  Read from the stored decisions: no
values are needed, so every finished game counts, analyzed or not.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Callable

from tcgtui.engine import registry
from tcgtui.quality import stored
from tcgtui.quality.phases import by_turns, phases
from tcgtui.quality.table import Row, views

ALL = "all"
Categorize = Callable[[stored.Choice], "str | None"]


def categories(game: str, params: dict[str, Any]) -> tuple[str, tuple[str, ...], Categorize] | None:
    """(what the choices are counted by, every category, a decision's category) for the game, or None:
    each game declares its own (``ToolHooks.choices``)."""
    declared = registry.get(game).tools.choices
    found = declared(params) if declared is not None else None
    if found is None:
        return None
    return found.by, found.categories, lambda choice: found.of(choice.move, choice.kind)


def offered(spec: registry.GameSpec) -> bool:
    """Whether the game's report offers the table (its choices have categories)."""
    return categories(spec.id, {}) is not None


def entropy(counts: Counter) -> float:
    """Shannon entropy in bits of the shares ``counts`` make."""
    n = sum(counts.values())
    return -sum(k / n * math.log2(k / n) for k in counts.values() if k) + 0.0


def diversity(games: list[Any], context: Any) -> list[Row]:
    """Per player, language, phase: the decisions counted, the entropy of their categories, the
    most it could be (every category equally often) and each category's share."""
    reader = getattr(context, "decision_values", None)
    if reader is None:
        return []
    seats = views(games)
    ids = sorted({v.game_id for v in seats})
    found_choices, lengths = reader.choices(ids)
    by_seat: dict[tuple[str, int], list[stored.Choice]] = defaultdict(list)
    for choice in found_choices:
        by_seat[(choice.game_id, choice.seat)].append(choice)
    of_game = {g.id: g for g in games}
    counted: dict[tuple, Counter] = defaultdict(Counter)
    universe: dict[str, tuple[str, ...]] = {}
    for view in seats:
        game = of_game[view.game_id]
        found = categories(game.game, game.params)
        if found is None:
            continue
        name, every, categorize = found
        universe[name] = every
        turns = by_turns(game.game)
        for choice in by_seat.get((view.game_id, view.seat), []):
            category = categorize(choice)
            if category is None:
                continue
            where = [(ALL, ALL), *phases(choice.idx, choice.turn, lengths.get(view.game_id, (0, 0)), turns)]
            for by, phase in where:
                counted[(view.agent, view.lang, name, by, phase)][category] += 1
    order = {p: i for i, p in enumerate((ALL, "opening", "middle", "end"))}
    rows = []
    for (agent, lang, name, by, phase), counts in sorted(counted.items(),
                                                         key=lambda kv: (*kv[0][:4], order[kv[0][4]])):
        n = sum(counts.values())
        every = universe[name]
        rows.append({"agent": agent, "lang": lang, "choice": name, "by": by, "phase": phase, "counted": n,
                     "entropy_bits": entropy(counts), "max_bits": math.log2(len(every)),
                     "shares": " · ".join(f"{c}: {100 * counts[c] / n:.0f}%" for c in every if counts[c])})
    return rows
