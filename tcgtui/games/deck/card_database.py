"""A card database the user gives for ManaBench's questions: an MTGJSON AtomicCards export.

Read whole (the full export is about 100 MB of JSON), checked for its shape, and
turned into a lookup by card name or face name (``engine/deck/manabench.py``).
"""

from __future__ import annotations

from tcgtui.engine.deck.manabench import Lookup, index
from tcgtui.errors import UserError
from tcgtui.userfiles import TooDeep, parse_json, read_text

LIMIT = 1 << 30


def load(flag: str, path: str) -> Lookup:
    try:
        data = parse_json(read_text(flag, path, LIMIT))
    except TooDeep as exc:
        raise UserError(f"{flag}: {path}: {exc}") from None
    except ValueError:
        raise UserError(f"{flag}: {path}: not valid JSON; expected an MTGJSON AtomicCards file") from None
    cards = data.get("data") if isinstance(data, dict) else None
    if not isinstance(cards, dict) or not all(isinstance(v, list) and all(isinstance(f, dict) for f in v)
                                              for v in cards.values()):
        raise UserError(f"{flag}: {path}: expected an MTGJSON AtomicCards file, an object whose \"data\" maps "
                        "card names to lists of faces")
    return index(cards)
