"""What the card game's setup adds to the keys reports keep results apart by (``--by pack``,
``--by deck``): the pack, by the store's pack columns (id and short content hash), and the deck
lists, by their content.  Read from the report's stored games (any object with ``pack`` and
``params``), so this module needs nothing of the report's."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def pack(game: Any, _style: str) -> str:
    return game.pack or "-"


def deck(game: Any, _style: str) -> str:
    """The deck lists the setup holds (``deck``, ``opp_deck``, and ``decks`` by the digest of its JSON);
    a quiz's question set is its own parameter's key."""
    p = game.params
    parts = [str(p[k]) for k in ("deck", "opp_deck") if p.get(k)]
    if p.get("decks"):
        decks = p["decks"]
        text = (
            decks if isinstance(decks, str) else hashlib.sha256(json.dumps(decks, sort_keys=True).encode()).hexdigest()
        )
        parts.append(text[:12])
    return "/".join(parts) or "-"


GROUP_KEYS = {"pack": pack, "deck": deck}
