"""Human baselines travel as JSON Lines: one game per line, many people's files merged.

Export writes every person's game against an opponent with its decisions (not a game of two
people at one keyboard: it measures no one against anything); import merges files into
a store.  Game ids are UUIDs, so importing the same file twice changes nothing.
A malformed file is refused with its name and line, and nothing of any file is
imported then: every file is read and checked before the first write.  The
writes commit in short batches (see ``Store.merge_games``) so a bench sharing
the store is never locked out; an import cut short mid-way is completed by
running it again.

A game may change what leaves the machine: its app side's ``baseline.exporter``
(``tcgtui.games.<game>.baseline``; the card game's hides a private pack's cards).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from tcgtui import locales
from tcgtui.engine.core import GameRecord
from tcgtui.config import HANDLE_RE
from tcgtui.console_text import shorten
from tcgtui.errors import UserError
from tcgtui.app_side import app_side
from tcgtui.limits import SEED_LIMIT
from tcgtui.live import HUMAN, RESUME_KEY, between_people
from tcgtui.store import ABANDONED, ERRORED, FINISHED, IN_PROGRESS, DecisionRow, GameRow, Store
from tcgtui.study.names import KIND, RUN_PREFIX
from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text, write_atomic

FORMAT, VERSION = "tcgtui-human-game", 2
READABLE = (1, 2)          # version 1: card games only, decisions carry "card_type" instead of "kind"
STATUSES = (FINISHED, ERRORED, ABANDONED, IN_PROGRESS)


def export_line(game: GameRow, decisions: list[DecisionRow],
                private: Callable[[dict[str, Any], GameRow], dict[str, Any]] | None = None) -> dict[str, Any]:
    """One line of the export; ``private``: the game's say on what may leave the machine."""
    record = {k: v for k, v in game.record.items() if k != RESUME_KEY}   # local paths stay local
    out: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "id": game.id, "agent": game.agent, "opponent": game.opponent,
        "lang": game.lang, "seed": game.seed, "agent_seat": game.agent_seat, "game": game.game,
        "game_params": dict(game.game_params), "seats": list(game.seats),
        "pack_id": game.pack_id, "pack_hash": game.pack_hash, "status": game.status, "winner": game.winner,
        "score": game.score, "result": game.result,
        "reason": game.reason, "turns": game.turns, "moves": game.moves, "started_at": game.started_at,
        "finished_at": game.finished_at, "record": record,
        "decisions": [{"idx": d.idx, "turn": d.turn, "seat": d.seat, "agent": d.agent, "move": d.move,
                       "kind": d.kind, "seconds": d.seconds, "info": d.info} for d in decisions],
    }
    return private(out, game) if private is not None else out


def export(store: Store, path: Path, *, include_text: bool, study: str | None = None) -> int:
    """Every person's game against an opponent, or (``study``) the counted games of that study, each
    line then saying which study and slot it was; a study's players are their pseudonyms already."""
    where, params, tagged = "agent LIKE ?", (f"{HUMAN}:%",), {}
    if study is not None:
        run = store.run(RUN_PREFIX + study)
        if run is None or run.kind != KIND:
            known = ", ".join(r.name.removeprefix(RUN_PREFIX) for r in store.runs() if r.kind == KIND) or "–"
            raise UserError(locales.load().t("cmd_baseline.unknown_study", study=study, known=known))
        where, params = where + " AND run_id = ?", (*params, run.id)
        tagged = {"study": study, "study_digest": run.config.get("digest")}
    games = [g for g in store.games(where, params) if not between_people(g.opponent)]
    exporters: dict[str, Any] = {}         # per game id, made once per export (a salt is this export's only)

    def private(game: GameRow) -> Any:
        if game.game not in exporters:
            side = app_side(game.game, "baseline")
            exporters[game.game] = side.exporter(include_text) if side is not None else None
        return exporters[game.game]
    lines = (json.dumps({**export_line(game, store.decisions(game.id), private(game)),
                         **({**tagged, "game_index": game.game_index} if tagged else {})},
                        ensure_ascii=False, separators=(",", ":")) + "\n" for game in games)
    write_atomic("", path, lines)
    return len(games)


@dataclass
class Parsed:
    game: GameRow
    decisions: list[DecisionRow]


class _Bad(Exception):
    pass


def _need(obj: dict, key: str, kind: type | tuple, *, optional: bool = False) -> Any:
    if key not in obj:
        if optional:
            return None
        raise _Bad(locales.load().t("humans.import_missing", key=key))
    value = obj[key]
    if value is None and optional:
        return None
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise _Bad(locales.load().t("humans.import_type", key=key, value=repr(value)[:40]))
    if isinstance(value, int) and not -SEED_LIMIT <= value < SEED_LIMIT:       # what SQLite stores
        raise _Bad(locales.load().t("humans.import_range", key=key, value=shorten(str(value)),
                                    expected=locales.load().t("humans.a_stored_integer")))
    return value


def parse_line(text: str) -> Parsed:
    t = locales.load()
    try:
        obj = parse_json(text)
    except TooDeep as exc:
        raise _Bad(str(exc)) from None
    except ValueError as exc:
        raise _Bad(t.t("humans.import_json", reason=getattr(exc, "msg", str(exc)))) from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise _Bad(t.t("humans.import_format", format=FORMAT))
    if obj.get("version") not in READABLE:
        raise _Bad(t.t("humans.import_version", version=repr(obj.get("version")), expected=VERSION))
    agent = _need(obj, "agent", str)
    if not agent.startswith(f"{HUMAN}:"):
        raise _Bad(t.t("humans.import_not_human", agent=agent))
    if not HANDLE_RE.fullmatch(agent[len(HUMAN) + 1:]):
        raise _Bad(t.t("humans.import_type", key="agent", value=repr(agent)[:40]))
    status = _need(obj, "status", str)
    if status not in STATUSES:
        raise _Bad(t.t("humans.import_type", key="status", value=repr(status)))
    seat = _need(obj, "agent_seat", int)
    winner = _need(obj, "winner", int, optional=True)
    seats = tuple(_need(obj, "seats", list, optional=True) or ())
    count = len(seats) or 2              # version 1 files name no seats: two, the card game's
    for key, value in (("agent_seat", seat), ("winner", winner)):
        if value is not None and not 0 <= value < count:
            raise _Bad(t.t("humans.import_range", key=key, value=value, expected=t.t("humans.a_seat", high=count - 1)))
    seed = _need(obj, "seed", int)
    if seed < 0:
        raise _Bad(t.t("humans.import_range", key="seed", value=seed, expected=t.t("humans.a_seed")))
    record = _need(obj, "record", dict)
    try:
        GameRecord.from_json(record)
    except (KeyError, TypeError, ValueError):
        raise _Bad(t.t("humans.import_type", key="record", value="...")) from None
    decisions = []
    for raw in _need(obj, "decisions", list):
        if not isinstance(raw, dict):
            raise _Bad(t.t("humans.import_type", key="decisions", value=repr(raw)[:40]))
        decisions.append(DecisionRow(_need(raw, "idx", int), _need(raw, "turn", int), _need(raw, "seat", int),
                                     _need(raw, "agent", str), _need(raw, "move", str),
                                     _need(raw, "kind" if "kind" in raw else "card_type", str, optional=True),
                                     float(_need(raw, "seconds", (int, float))), _need(raw, "info", dict)))
    game = GameRow(agent=agent, opponent=_need(obj, "opponent", str), lang=_need(obj, "lang", str),
                   game_index=0, seed=seed, agent_seat=seat, game=_need(obj, "game", str),
                   pack_id=_need(obj, "pack_id", str, optional=True),
                   pack_hash=_need(obj, "pack_hash", str, optional=True),
                   game_params=_need(obj, "game_params", dict, optional=True) or {},
                   seat_specs=seats,
                   score=_score(_need(obj, "score", (int, float), optional=True)),
                   result=_need(obj, "result", str, optional=True),
                   status=ABANDONED if status == IN_PROGRESS else status, record=record,
                   started_at=_need(obj, "started_at", str), winner=winner,
                   reason=_need(obj, "reason", str, optional=True), turns=_need(obj, "turns", int),
                   moves=_need(obj, "moves", int), finished_at=_need(obj, "finished_at", str, optional=True),
                   id=_need(obj, "id", str))
    return Parsed(game, decisions)


def _score(value: Any) -> float | None:
    return None if value is None else float(value)


def read_files(paths: Iterable[Path]) -> list[Parsed]:
    """Parse every file fully first; the first bad line stops everything with FILE:LINE."""
    parsed: list[Parsed] = []
    for path in paths:
        for number, line in numbered_lines(read_text("", path)):
            try:
                parsed.append(parse_line(line))
            except _Bad as exc:
                raise UserError(f"{path}:{number}: {exc}") from None
    return parsed


def import_games(store: Store, parsed: list[Parsed]) -> tuple[int, int]:
    """(imported, already present); checked whole first, written in short batches."""
    return store.merge_games([(p.game, p.decisions) for p in parsed])
