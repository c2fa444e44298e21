"""The card game's part of ``tcgtui baseline export``: a private pack's cards never leave the machine.

Unless ``--include-card-text``, card ids of a pack that is not shipped with tcgtui are
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
from typing import Any, Callable

from tcgtui import locales
from tcgtui.engine.tcg.describe import card_text
from tcgtui.games.tcg.packs import builtin_names, load_pack
from tcgtui.live import RESUME_KEY
from tcgtui.store import GameRow


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


def exporter(include_text: bool) -> Callable[[dict[str, Any], GameRow], dict[str, Any]]:
    """What an export writes of a card game: as is for a shipped pack; for a private one, its card
    text added (``include_text``) or its card ids renamed under this export's own salt."""
    public = public_hashes()
    salt = secrets.token_bytes(32)        # this export's only: forgotten when it returns

    def private(out: dict[str, Any], game: GameRow) -> dict[str, Any]:
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
    return private
