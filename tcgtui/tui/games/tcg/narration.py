"""The battle log's sentences: one event, one sentence, in the reader's language.

The sentences are the game's shared narration (``engine.tcg.narrator``), the
same ones a language model reads in its prompts, so the log and the prompts
never disagree.  This module only adapts it to the board: the event is
filtered to the reader's seat first (a hidden card is never named), and the
end of a turn is left out because the next turn's header marks it.
"""

from __future__ import annotations

from tcgtui.engine.core import Event
from tcgtui.engine.tcg.cards import Pack
from tcgtui.locales import Catalog
from tcgtui.engine.tcg.narrator import Narrator
from tcgtui.tui.games.base import SPECTATOR

SILENT = ("end_turn",)


def narrate(event: Event, seat: int, catalog: Catalog, pack: Pack) -> str | None:
    """A sentence for the log from ``seat``'s point of view (``SPECTATOR`` sees all)."""
    if event.kind in SILENT:
        return None
    if seat == SPECTATOR:
        return Narrator(catalog, pack, None)(event)
    return Narrator(catalog, pack, seat)(event.for_seat(seat))
