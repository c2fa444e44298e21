"""Per game, what the report aggregates of the measured player's decisions (schema version 4).

A large store holds hundreds of thousands of decisions; reading them back one
row at a time cost ``tcgtui report`` more than a second.  So when a game's
decisions are written, its ``decision_facts`` row is written beside them, in
the same transaction, from the decisions' own columns (the values json_extract
gives, schema v3): counts (decisions, invalid attempts, parse paths, invalid
replies and fallbacks among the decisions that report a parse path, move kinds),
and the two per-decision values a report needs whole, in move order, as
little-endian float64 arrays: seconds, and tokens (prompt + completion; NaN
where the agent reported neither).  The report then reads one row per game.
"""

from __future__ import annotations

import json
import math
import sqlite3
import struct
from collections import Counter
from typing import Any, Iterable, Sequence

from tcgtui.engine.core import INVALID
from tcgtui.engine.prompting import FALLBACKS

# The LLM player's fallbacks (defined with the prompt protocol, which the store reads without
# numpy), counted one column each; tcgtui.engine.decision_facts reads them by name.  Parse paths
# are each game's prompter's own ("tags", "last_name" in the card game, "json" in grid games,
# "action" in Eleusis, "none"), so they are kept as one JSON object per game.
COLUMNS = ("decisions", "invalid_attempts", "tokens_estimated", "reported", "invalid",
           *(f"fallback_{f}" for f in FALLBACKS), "kinds", "card_kinds", "parse_paths", "distinct_cards",
           "seconds", "tokens")

TABLE = """
CREATE TABLE decision_facts (
    game_id          TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    decisions        INTEGER NOT NULL,
    invalid_attempts INTEGER NOT NULL,
    tokens_estimated INTEGER NOT NULL,
    reported         INTEGER NOT NULL,
    invalid          INTEGER NOT NULL,
    fallback_random  INTEGER NOT NULL,
    fallback_forfeit INTEGER NOT NULL,
    kinds            TEXT NOT NULL,
    card_kinds       TEXT NOT NULL,
    parse_paths      TEXT NOT NULL,
    distinct_cards   INTEGER NOT NULL,
    seconds          BLOB NOT NULL,
    tokens           BLOB NOT NULL
) WITHOUT ROWID
"""

# A game's decisions as the facts are computed from them; _DECISIONS: the measured seat's.
_SELECT = ("SELECT d.game_id, d.move, d.kind, d.seconds, d.prompt_tokens, d.completion_tokens,"
           " d.tokens_estimated, d.parse_path, d.invalid, d.fallback FROM decisions d JOIN games g"
           " ON g.id = d.game_id")
_DECISIONS = _SELECT + " WHERE d.seat = g.agent_seat"
_INSERT = (f"INSERT OR REPLACE INTO decision_facts (game_id, {', '.join(COLUMNS)})"
           f" VALUES ({', '.join('?' * (len(COLUMNS) + 1))})")


def facts(rows: Sequence[Sequence[Any]]) -> tuple:
    """The COLUMNS of one game from its measured decisions: (move, kind, seconds, prompt tokens,
    completion tokens, tokens estimated, parse path, invalid, fallback) rows in move order.
    ``kinds`` counts the decisions of each kind (JSON object); a game's cards are its moves other
    than forfeits (invalid attempts included): ``card_kinds`` their kinds (JSON list, sorted, null
    first) and ``distinct_cards`` how many different ones it played."""
    seconds, tokens, kinds, card_kinds, cards = [], [], Counter(), set(), set()
    invalid_attempts = estimated = reported = invalid = 0
    paths, fallbacks = Counter(), Counter()
    for move, kind, sec, ptok, ctok, est, path, bad, fallback in rows:
        seconds.append(float(sec))
        tokens.append(_tokens(ptok, ctok))
        invalid_attempts += max(move.startswith(INVALID), _replies(bad))
        estimated |= bool(est)
        if kind:
            kinds[kind] += 1
        if move:
            card_kinds.add(kind)
            cards.add(move)
        if path is not None:
            reported += 1
            paths[path] += 1
            fallbacks[fallback] += 1
            invalid += bool(bad)
    return (len(seconds), invalid_attempts, int(estimated), reported, invalid,
            *(fallbacks[f] for f in FALLBACKS), json.dumps(dict(sorted(kinds.items())), ensure_ascii=False),
            json.dumps(sorted(card_kinds, key=lambda k: (k is not None, str(k))), ensure_ascii=False),
            json.dumps({str(k): v for k, v in sorted(paths.items(), key=lambda kv: str(kv[0]))},
                       ensure_ascii=False),
            len(cards), _floats(seconds), _floats(tokens))


def _replies(invalid: Any) -> int:
    """The invalid replies a decision records (its ``invalid`` detail: a count, or true/false)."""
    return int(invalid) if isinstance(invalid, (int, float)) and invalid > 0 else 0


def _tokens(prompt: Any, completion: Any) -> float:
    """Prompt + completion tokens; NaN (not reported) when neither is, or either is not a number."""
    if prompt is None and completion is None:
        return math.nan
    try:
        return float(prompt or 0) + float(completion or 0)
    except (TypeError, ValueError):
        return math.nan


def stored_row(move: str, kind: str | None, seconds: float, info: dict[str, Any] | str) -> tuple:
    """One decision as ``facts`` takes it, from its details (``info``, or its JSON text) as the
    columns hold them."""
    if isinstance(info, str):
        info = json.loads(info)
    return (move, kind, seconds, *(v if v is None or type(v) in _PLAIN else as_stored(v)
                                   for v in map(info.get, DETAILS)))


# The decision details in the order ``facts`` takes them (the v3 columns of the same names): keys of
# a model's decision info (``tcgtui.opponents.base.ModelDecisionInfo``).
DETAILS = ("prompt_tokens", "completion_tokens", "tokens_estimated", "parse_path", "invalid", "fallback")
_PLAIN = (str, int, float)


def as_stored(value: Any) -> Any:
    """A decision detail as its column holds it (what json_extract gives): true/false as 1/0,
    objects and lists as their JSON text, numpy scalars as numbers."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def write(conn: sqlite3.Connection, game_id: str, rows: Sequence[Sequence[Any]]) -> None:
    """Write one game's facts from its measured decisions' rows (as ``facts`` takes them)."""
    conn.execute(_INSERT, (game_id, *facts(rows)))


def _floats(values: list[float]) -> bytes:
    return struct.pack(f"<{len(values)}d", *values)


def refresh(conn: sqlite3.Connection, game_id: str) -> None:
    """Write one game's facts from its stored decisions (inside the caller's transaction)."""
    rows = conn.execute(_DECISIONS + " AND d.game_id = ? ORDER BY d.idx", (game_id,)).fetchall()
    write(conn, game_id, [r[1:] for r in rows])


def other_seat(conn: sqlite3.Connection, joins: str, where: str, params: Sequence[Any]) -> dict[str, tuple]:
    """By game id, the COLUMNS of the seat other than the measured one in two-seat games (a round
    robin measures every seat, and only the measured seat's facts are stored), computed from its
    decision rows: ``joins`` and ``where`` (on ``g``, the games) choose the games."""
    by_game: dict[str, list[tuple]] = {}
    for row in conn.execute(f"{_SELECT}{joins} WHERE d.seat = 1 - g.agent_seat AND {where} ORDER BY d.game_id, d.idx",
                            params):
        by_game.setdefault(row[0], []).append(row[1:])
    return {gid: facts(rows) for gid, rows in by_game.items()}


def fill(conn: sqlite3.Connection) -> None:
    """Every game's facts, in one pass over the decisions (the upgrade to version 4)."""
    conn.execute(TABLE)
    by_game: dict[str, list[tuple]] = {gid: [] for (gid,) in conn.execute("SELECT id FROM games")}
    for row in conn.execute(_DECISIONS + " ORDER BY d.game_id, d.idx"):
        by_game[row[0]].append(row[1:])
    conn.executemany(_INSERT, ((gid, *facts(rows)) for gid, rows in by_game.items()))


def columns(alias: str) -> Iterable[str]:
    """The facts' columns as a query names them (``alias.column``)."""
    return (f"{alias}.{c}" for c in COLUMNS)
