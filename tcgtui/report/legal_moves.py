"""How many legal moves each decision of a stored game had: the game is rebuilt from its setup and
seed and its moves are played again (``tcgtui.replay.load``), since the store keeps the move made,
not the choices.  Read only when a table asks (the card game's branching factor)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from tcgtui.engine.core import INVALID, GameRecord, Match
from tcgtui.errors import UserError
from tcgtui.store import open_store

CHUNK = 500          # ids per query (SQLite's limit on bound parameters is far above)


class Reader:
    """``counts`` for one store, each game replayed once however many tables ask (Table 2 asks per
    run and over all)."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.known: dict[str, list[tuple[int, int]] | None] = {}

    def __call__(self, ids: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
        missing = [i for i in ids if i not in self.known]
        if missing:
            found = counts(self.db, missing)
            self.known.update({i: found.get(i) for i in missing})
        return {i: self.known[i] for i in ids if self.known[i] is not None}  # type: ignore[misc]


def counts(db: str, ids: Sequence[str]) -> dict[str, list[tuple[int, int]]]:
    """Per game id, each decision's seat and number of legal moves, in move order (invalid attempts
    are no decision among legal moves).  A game that cannot be rebuilt as it was played (its pack
    gone or changed since, a record that does not fit) is left out: the tables count the games replayed."""
    # start-up time: a report loads this module; the replay's (packs, live games) only once a table asks
    from tcgtui.replay.load import rebuild, stored_params
    out: dict[str, list[tuple[int, int]]] = {}
    built: dict[str, Any] = {}             # games sharing their setup share the rebuilt game (a pack each)
    with open_store(db, create=False, read_only=True) as store:
        for start in range(0, len(ids), CHUNK):
            chunk = list(ids[start:start + CHUNK])
            for row in store.games(f"id IN ({','.join('?' * len(chunk))})", tuple(chunk)):
                key = json.dumps([row.game, row.pack_hash, stored_params(row)], sort_keys=True, default=str)
                if key not in built:
                    try:
                        built[key] = rebuild(row)
                    except UserError:
                        built[key] = None
                try:
                    if built[key] is not None:
                        out[row.id] = _legal(built[key], GameRecord.from_json(row.record))
                except (KeyError, TypeError, ValueError):      # IllegalMove is a ValueError
                    continue
    return out


def _legal(game: Any, record: GameRecord) -> list[tuple[int, int]]:
    match = Match(game, record.seed)
    invalid = iter(record.invalid)
    found = []
    for text in record.moves:
        if text.startswith(INVALID):
            match.play_invalid(text[len(INVALID):], next(invalid, ""))
            continue
        found.append((match.state.current_player, len(match.state.legal_moves())))
        match.play(game.move_from_text(text))
    return found
