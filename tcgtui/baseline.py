"""Human baselines travel as JSON Lines: one game per line, many people's files merged.

Export writes every person's game with its decisions; import merges files into
a store.  Game ids are UUIDs, so importing the same file twice changes nothing.
A malformed file is refused with its name and line, and nothing of any file is
imported then: every file is read and checked before the first write.  The
writes commit in short batches (see ``Store.merge_games``) so a bench sharing
the store is never locked out; an import cut short mid-way is completed by
running it again.

A private pack's cards never leave the machine unless asked: unless
``--include-card-text``, card ids of a pack that is not shipped with tcgtui are
replaced by opaque names: an HMAC of the card id keyed by a random salt drawn
for each export and never written anywhere, so within one file a card always
has the same name (analyses still work) but nobody can confirm a guessed card
id by hashing it.  The pack's hash itself is always written, so results still
say which pack they came from.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from tcgtui import locales
from tcgtui.engine.core import GameRecord
from tcgtui.engine.tcg.describe import card_text
from tcgtui.config import HANDLE_RE
from tcgtui.console_text import shorten
from tcgtui.errors import UserError
from tcgtui.limits import SEED_LIMIT
from tcgtui.live import HUMAN, RESUME_KEY
from tcgtui.games.tcg.packs import builtin_names, load_pack
from tcgtui.store import ABANDONED, ERRORED, FINISHED, IN_PROGRESS, DecisionRow, GameRow, Store
from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text, write_atomic

FORMAT, VERSION = "tcgtui-human-game", 2
READABLE = (1, 2)          # version 1: card games only, decisions carry "card_type" instead of "kind"
STATUSES = (FINISHED, ERRORED, ABANDONED, IN_PROGRESS)


def public_hashes() -> set[str]:
    return {load_pack(name).hash for name in builtin_names()}


def _pseudonym(salt: bytes, pack_hash: str, card_id: str) -> str:
    """Consistent within one export (one salt), unguessable without the salt."""
    return "card-" + hmac.new(salt, f"{pack_hash}:{card_id}".encode(), hashlib.sha256).hexdigest()[:16]


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    return value


def _card_ids(game: GameRow, pack: Any) -> set[str]:
    if pack is not None:
        return {c.id for c in pack.cards}
    record = game.record
    ids = set(record.get("moves", []))
    for event in record.get("events", []):
        for key in ("card", "attacker", "source"):
            if isinstance(event.get(key), str):
                ids.add(event[key])
        ids.update(b for b in event.get("blockers", []) if isinstance(b, str))
    return ids


def _pack_for(game: GameRow) -> Any:
    source = (game.record.get(RESUME_KEY) or {}).get("pack") or game.pack_id
    try:
        pack = load_pack(source)
    except Exception:  # the pack may be gone from this machine; the record still names its cards
        return None
    return pack if pack.hash == game.pack_hash else None


def export_line(game: GameRow, decisions: list[DecisionRow], *, public: set[str], include_text: bool,
                salt: bytes) -> dict[str, Any]:
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
    if game.pack_hash is None or game.pack_hash in public:
        return out
    pack = _pack_for(game)
    if include_text:
        if pack is not None:
            out["pack_text"] = {lang: {c.id: {"name": c.name(lang), "text": card_text(c, locales.load(lang))}
                                       for c in pack.cards}
                                for lang in pack.languages if lang in locales.available()}
        return out
    names = {cid: _pseudonym(salt, game.pack_hash, cid) for cid in _card_ids(game, pack)}
    for key in ("record", "decisions"):
        out[key] = _rename(out[key], names)
    out["pack_id"] = "private-" + game.pack_hash[:12]
    out["record"]["setup"] = {**out["record"].get("setup", {}), "pack": out["pack_id"]}
    out["game_params"] = {**out["game_params"], "pack": out["pack_id"]}
    return out


def export(store: Store, path: Path, *, include_text: bool) -> int:
    games = store.games("agent LIKE ?", (f"{HUMAN}:%",))
    public = public_hashes()
    salt = secrets.token_bytes(32)        # this export's only: forgotten when it returns
    lines = (json.dumps(export_line(game, store.decisions(game.id), public=public, include_text=include_text,
                                    salt=salt), ensure_ascii=False, separators=(",", ":")) + "\n" for game in games)
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
