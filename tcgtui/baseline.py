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
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import GameRecord, Outcome
from tcgtui.config import HANDLE_RE
from tcgtui.console_text import shorten
from tcgtui.errors import UserError
from tcgtui.app_side import app_for
from tcgtui.limits import SEED_LIMIT
from tcgtui.live import HUMAN, RESUME_KEY, between_people
from tcgtui.store import ABANDONED, ERRORED, FINISHED, IN_PROGRESS, DecisionRow, GameRow, Store
from tcgtui.opponents.spec import parse_spec
from tcgtui.study.names import KIND, RUN_PREFIX
from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text, write_atomic

FORMAT, VERSION = "tcgtui-human-game", 2
INFO_LIMIT = 1 << 20       # characters of one decision's info as JSON: a person's decisions carry a few dozen
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_ID = re.compile(r"[0-9a-f-]{1,36}")      # a UUID, as every game's id is: what replay finds
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
            side = app_for(game.game).baseline
            exporters[game.game] = side.load().exporter(include_text) if side is not None else None
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
    game_id, lang, opponent = _need(obj, "game", str), _need(obj, "lang", str), _need(obj, "opponent", str)
    try:
        spec = registry.get(game_id)
    except registry.UnknownGame:
        raise _Bad(t.t("humans.import_type", key="game", value=repr(game_id)[:40])) from None
    if lang not in locales.available():
        raise _Bad(t.t("humans.import_type", key="lang", value=repr(lang)[:40]))
    _check_opponent(opponent)
    decisions, indices = [], set()
    for raw in _need(obj, "decisions", list):
        if not isinstance(raw, dict):
            raise _Bad(t.t("humans.import_type", key="decisions", value=repr(raw)[:40]))
        row = DecisionRow(_need(raw, "idx", int), _need(raw, "turn", int), _need(raw, "seat", int),
                          _need(raw, "agent", str), _need(raw, "move", str),
                          _need(raw, "kind" if "kind" in raw else "card_type", str, optional=True),
                          float(_need(raw, "seconds", (int, float))), _need(raw, "info", dict))
        for key, value, expected in (("idx", row.idx, t.t("humans.a_count")), ("turn", row.turn, t.t("humans.a_count")),
                                     ("seat", row.seat, t.t("humans.a_seat", high=count - 1))):
            if value < 0 or key == "seat" and value >= count or key == "idx" and value in indices:
                raise _Bad(t.t("humans.import_range", key=f"decisions.{key}", value=value, expected=expected))
        if len(json.dumps(row.info, ensure_ascii=False)) > INFO_LIMIT:
            raise _Bad(t.t("humans.import_range", key="decisions.info", value=t.t("humans.too_long"),
                           expected=t.t("humans.at_most_chars", limit=f"{INFO_LIMIT:,}")))
        indices.add(row.idx)
        decisions.append(row)
    for key in ("turns", "moves"):
        if _need(obj, key, int) < 0:
            raise _Bad(t.t("humans.import_range", key=key, value=obj[key], expected=t.t("humans.a_count")))
    result, reason = _need(obj, "result", str, optional=True), _need(obj, "reason", str, optional=True)
    code = spec.store.result_code
    if result is not None and code is not None and status == FINISHED \
            and result != code(Outcome(winner, reason or "")):
        raise _Bad(t.t("humans.import_result", result=shorten(result), winner=winner))
    game = GameRow(agent=agent, opponent=opponent, lang=lang,
                   game_index=0, seed=seed, agent_seat=seat, game=game_id,
                   pack_id=_need(obj, "pack_id", str, optional=True),
                   pack_hash=_need(obj, "pack_hash", str, optional=True),
                   game_params=_need(obj, "game_params", dict, optional=True) or {},
                   seat_specs=seats,
                   score=_score(_need(obj, "score", (int, float), optional=True)),
                   result=result,
                   status=ABANDONED if status == IN_PROGRESS else status, record=record,
                   started_at=_need(obj, "started_at", str), winner=winner,
                   reason=reason, turns=_need(obj, "turns", int),
                   moves=_need(obj, "moves", int), finished_at=_need(obj, "finished_at", str, optional=True),
                   id=_game_id(_need(obj, "id", str)))
    return Parsed(game, decisions)


def _game_id(value: str) -> str:
    if not _ID.fullmatch(value):
        raise _Bad(locales.load().t("humans.import_type", key="id", value=shorten(repr(value), 40)))
    return value


def _check_opponent(opponent: str) -> None:
    """A person's opponent is one of tcgtui's players, named plainly: never a person (a game between
    people is no baseline), nor text that would print as something else."""
    t = locales.load()
    try:
        ok = not _CONTROL.search(opponent) and parse_spec(opponent).kind != HUMAN
    except Exception:         # whatever a spec's parser raises: not a player this tcgtui knows
        ok = False
    if not ok:
        raise _Bad(t.t("humans.import_type", key="opponent", value=shorten(repr(opponent), 40)))


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
