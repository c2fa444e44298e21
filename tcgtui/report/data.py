"""The report's view of the store: games and what the measured player's decisions add up to.

The reading itself is ``tcgtui.store.queries`` (no SQL here); this module
turns its rows into the ``Game`` objects the analyses use, the common ones and
each game's own (see ``tcgtui.engine.tcg.analyses``).  A large store holds
hundreds of thousands of decisions, so they are never read one by one: each
game's stored decision facts (``tcgtui.store.facts``) go into one shared
``DecisionFacts`` of arrays, which each game points into (``facts``, ``position``).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tcgtui import locales
from tcgtui.engine.decision_facts import DecisionFacts
from tcgtui.errors import UserError
from tcgtui.store import FINISHED, Store
from tcgtui.store import queries

HUMAN_PREFIX = queries.HUMAN_PREFIX
POOLED_HUMAN = "human"


@dataclass(slots=True)
class Game:
    id: str
    run: str | None
    agent: str
    opponent: str
    lang: str
    index: int
    seat: int
    status: str
    winner: int | None
    turns: int
    pack: str | None = None            # pack id and short content hash, e.g. community@3f2a9c01d4e7
    game: str = "tcg"
    params: dict[str, Any] = field(default_factory=dict)
    score: float | None = None         # the measured player's score (score games)
    code: str | None = None            # the game's result code
    reason: str | None = None
    error: str | None = None
    seats: tuple[str, ...] = ()
    started_at: str = ""
    finished_at: str | None = None
    record: dict[str, Any] | None = None
    facts: DecisionFacts | None = None  # its decisions' facts (finished games): those of the games read with it
    position: int = -1                  # ... of which it is this one
    # 'win', 'loss' or 'draw' for the measured player; None unless finished (the analyses ask
    # hundreds of thousands of times, so it is worked out once)
    result: str | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if self.status == FINISHED:
            self.result = "draw" if self.winner is None else "win" if self.winner == self.seat else "loss"

    def groups(self) -> tuple[str, ...]:
        """The agent rows this game counts in: its own spec, and the pooled human row for people."""
        return _groups(self.agent)


@functools.lru_cache(maxsize=None)
def _groups(agent: str) -> tuple[str, ...]:
    return (agent, POOLED_HUMAN) if agent.startswith(HUMAN_PREFIX) else (agent,)


def run_ids(store: Store, names: list[str] | None) -> list[int] | None:
    """The ids of the named runs (None: every game); an unknown name is a one-line error."""
    if not names:
        return None
    ids = []
    for name in names:
        run = store.run(name)
        if run is None:
            known = ", ".join(r.name for r in store.runs()) or "-"
            raise UserError(locales.load().t("cmd_report.errors.unknown_run", run=name, known=known))
        ids.append(run.id)
    return ids


def _pack(pack_id: str | None, pack_hash: str | None) -> str | None:
    if pack_id is None:
        return None
    return f"{pack_id}@{(pack_hash or '')[:12]}"


def load_games(store: Store, runs: list[int] | None, humans: bool = True, game: str | None = "tcg", *,
               with_record: bool = False) -> list[Game]:
    """The games of one game id (None: every game) with the measured player's decisions in finished games."""
    games: list[Game] = []
    params: dict[str, dict[str, Any]] = {}        # most games share their parameters' and kinds' text:
    parsed: dict[str, Any] = {}                   # parse each text once
    counts: list[tuple] = []
    kinds, card_kinds, paths, seconds, tokens = [], [], [], [], []
    found = queries.decision_facts(store.conn, game=game, runs=runs, humans=humans)
    rows, seats = queries.games(store.conn, game=game, runs=runs, humans=humans, with_record=with_record)
    n = len(queries.FACT_COUNTS)
    for (gid, run, agent, opponent, lang, index, seat, status, winner, turns, game_id, params_json, pack_id,
         pack_hash, score, result, reason, error, started, finished, record) in rows:
        if params_json not in params:
            params[params_json] = json.loads(params_json)
        games.append(Game(gid, run, agent, opponent, lang, index, seat, status, winner, turns,
                          _pack(pack_id, pack_hash), game_id, dict(params[params_json]), score, result, reason,
                          error, seats.get(gid, ()), started, finished,
                          None if record is None else json.loads(record)))
        fact = found.get(gid)
        if fact is None:                          # not finished: no decisions counted
            counts.append(_NONE)
            kinds.append({})
            card_kinds.append(())
            paths.append({})
            continue
        counts.append(fact[:n])
        kinds.append(_parsed(parsed, fact[n], {}))
        card_kinds.append(_parsed(parsed, fact[n + 1], ()))
        paths.append(_parsed(parsed, fact[n + 2], {}))
        seconds.append(fact[n + 3])
        tokens.append(fact[n + 4])
    columns = np.array(counts, dtype=np.int64).reshape(len(games), n)
    table = DecisionFacts({c: columns[:, i] for i, c in enumerate(queries.FACT_COUNTS)}, kinds, card_kinds,
                          paths, np.frombuffer(b"".join(seconds), "<f8"), np.frombuffer(b"".join(tokens), "<f8"))
    for i, g in enumerate(games):
        g.facts, g.position = table, i
    return games


_NONE = (0,) * len(queries.FACT_COUNTS)


def _parsed(cache: dict[str, Any], text: str | None, empty: Any) -> Any:
    """JSON text parsed once per distinct text (lists as tuples); ``empty`` for NULL."""
    if text is None:
        return empty
    if text not in cache:
        value = json.loads(text)
        cache[text] = tuple(value) if isinstance(value, list) else value
    return cache[text]
