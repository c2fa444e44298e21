"""The report's view of the store: games and what the measured player's decisions add up to.

The reading itself is ``tcgtui.store.queries`` (no SQL here); this module
turns its rows into the ``StoredGame`` objects the analyses use, the common ones and
each game's own (its rules package's ``analysis`` module).  A large store holds
hundreds of thousands of decisions, so they are never read one by one: each
game's stored decision facts (``tcgtui.store.facts``) go into one shared
``DecisionFacts`` of arrays, which each game points into (``facts``, ``position``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.decision_facts import DecisionFacts
from tcgtui.errors import UserError
from tcgtui.limits import check_name
from tcgtui.report.seats import flagged_runs, round_robin_runs
from tcgtui.store import FINISHED, Store
from tcgtui.store import queries

HUMAN_PREFIX = queries.HUMAN_PREFIX
POOLED_HUMAN = "human"


@dataclass(slots=True)
class StoredGame:
    """A stored game as the report reads it: from its measured seat, with its result worked out
    and its decision facts beside it (the store's row is ``tcgtui.store.GameRow``; the rules a
    ``tcgtui.engine.core.Game``)."""

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
    game: str = registry.DEFAULT       # the game's id (a game made by hand: the registry's default)
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
    mirror: bool = False                # a round robin's game seen from the seat its row does not measure
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
    """A person's row and the pooled row of all people, in the group the report gave the game
    (``human:ann [style=image]`` pools into ``human [style=image]``)."""
    if not agent.startswith(HUMAN_PREFIX):
        return (agent,)
    group = agent.find(" [")
    return agent, POOLED_HUMAN + (agent[group:] if group >= 0 else "")


def run_ids(store: Store, names: list[str] | None) -> list[int] | None:
    """The ids of the named runs (None: every game); an unknown name is a one-line error."""
    if not names:
        return None
    ids = []
    for name in names:
        run = store.run(check_name("--run", name))
        if run is None:
            known = ", ".join(r.name for r in store.runs()) or "-"
            raise UserError(locales.load().t("cmd_report.errors.unknown_run", run=name, known=known))
        ids.append(run.id)
    return ids


def load_games(store: Store, runs: list[int] | None, humans: bool = True, game: str | None = registry.DEFAULT, *,
               with_record: bool = False, every_seat: bool = False) -> list[StoredGame]:
    """The games of one game id (None: every game) with the measured player's decisions in finished games;
    with ``every_seat``, a round robin's games also from their other seat (``mirror``), in row order."""
    params: dict[str, dict[str, Any]] = {}    # most games share their parameters' text: parse each once,
    games: list[StoredGame] = []              # and share the dict (read only, as the kinds' are)
    found = queries.decision_facts(store.conn, game=game, runs=runs, humans=humans)
    rows, seats, seat_scores = queries.games(store.conn, game=game, runs=runs, humans=humans,
                                             with_record=with_record)
    facts_rows = [found.get(row[0], _NONE) for row in rows]
    for (gid, run, agent, opponent, lang, index, seat, status, winner, turns, game_id, params_json, pack,
         score, result, reason, error, started, finished, record) in rows:
        if params_json not in params:
            params[params_json] = json.loads(params_json)
        games.append(StoredGame(gid, run, agent, opponent, lang, index, seat, status, winner, turns, pack, game_id,
                                params[params_json], score, result, reason, error, seats.get(gid, ()), started,
                                finished, None if record is None else json.loads(record)))
    _read_unrecorded(store, games)
    if every_seat:
        games, facts_rows = _every_seat(store, games, facts_rows, seat_scores)
    # Column by column (a game not finished has no decisions counted): a loop per game cost a
    # large store a tenth of a second.
    n = len(queries.FACT_COUNTS)
    columns = list(zip(*facts_rows)) or [()] * len(_NONE)
    counts = np.array(columns[:n], dtype=np.int64).reshape(n, len(games))
    shared = DecisionFacts({c: counts[i] for i, c in enumerate(queries.FACT_COUNTS)}, _parsed(columns[n], {}),
                           _parsed(columns[n + 1], ()), _parsed(columns[n + 2], {}),
                           np.frombuffer(b"".join(columns[n + 3]), "<f8"),
                           np.frombuffer(b"".join(columns[n + 4]), "<f8"))
    for i, g in enumerate(games):
        g.facts, g.position = shared, i
    shared.read = games
    return games


def _read_unrecorded(store: Store, games: list[StoredGame]) -> None:
    """A bench game stored before its game recorded a parameter has it read from its run's identity
    (``ReportHooks.unrecorded``), once per run and set of parameters: the store is read, not rewritten."""
    hooks = {spec.id: spec.report.unrecorded for spec in registry.games()}
    if not any(hooks.get(g) for g in {g.game for g in games}):
        return
    identities = {r.name: r.config.get("identity") for r in store.runs() if r.kind == "bench"}
    read: dict[tuple[str, int], dict[str, Any]] = {}
    for g in games:
        hook, identity = hooks.get(g.game), identities.get(g.run or "")
        if hook is not None and isinstance(identity, dict):
            key = (g.run or "", id(g.params))
            if key not in read:
                read[key] = hook(g.params, identity)
            g.params = read[key]


def _every_seat(store: Store, games: list[StoredGame], facts_rows: list[tuple],
                seat_scores: dict[str, tuple[float | None, ...]]) -> tuple[list[StoredGame], list[tuple]]:
    """``games`` and the mirrors of the round robins' games (each game's other seat, its facts and
    score), every one after the row it mirrors."""
    rr = round_robin_runs(((g.run, g.seats) for g in games), flagged_runs(store.runs()))
    other = queries.other_seat_facts(store.conn, sorted(rr))
    out, out_facts = [], []
    for g, f in zip(games, facts_rows):
        out.append(g)
        out_facts.append(f)
        if g.run in rr and len(g.seats) == 2 and g.seats[0] != g.seats[1]:
            seat = 1 - g.seat
            scores = seat_scores.get(g.id, ())
            out.append(dataclasses.replace(g, agent=g.seats[seat], opponent=g.agent, seat=seat, mirror=True,
                                           score=scores[seat] if seat < len(scores) else None))
            out_facts.append(other.get(g.id, _NONE))
    return out, out_facts


# The facts of a game that has none counted: no decisions, no kinds, cards or parse paths.
_NONE = (*(0,) * len(queries.FACT_COUNTS), None, None, None, b"", b"", None)


def _parsed(texts: tuple[str | None, ...], empty: Any) -> list[Any]:
    """Each JSON text parsed (lists as tuples; ``empty`` for NULL), each distinct text once,
    its value shared by the games that have it."""
    values: dict[str | None, Any] = {None: empty}
    for text in set(texts):
        if text is not None:
            value = json.loads(text)
            values[text] = tuple(value) if isinstance(value, list) else value
    return list(map(values.__getitem__, texts))
