"""What a sweep is: its cells, its deals, and the run it belongs to.

Game ``i`` of every cell is dealt from the same seed (derived from the run seed
and ``i`` only) with the measured player in the same seat (``i % 2``), so any
two cells of a run are paired game by game.  A run's identity (the game, the
content hash of the files it was built from, the run seed and how each player is configured) is fixed
when it is created; resuming under the same name with a different identity is
refused, while new cells and more games may be added to it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from typing import Any, Callable

from tcgtui import locales
from tcgtui import __version__
from tcgtui.engine.core import Game
from tcgtui.errors import UserError
from tcgtui.store import Run, Store
from tcgtui.store.schema import LATEST


@dataclass(frozen=True, order=True)
class Cell:
    """One agent against one opponent in one language."""

    agent: str
    opponent: str
    lang: str

    def label(self) -> str:
        return f"{self.agent} vs {self.opponent} [{self.lang}]"


def deal_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index``: the same deal in every cell of a run (63 bits: a SQLite integer)."""
    digest = hashlib.blake2b(f"tcgtui/deal/{run_seed}/{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def game_deal_seed(game: Game) -> Callable[[int, int], int]:
    """The game's own ``bench.deal_seed`` where it has one (a bank game: game i is puzzle i), else ``deal_seed``."""
    try:
        return game.spec.bench.deal_seed or deal_seed
    except LookupError:                          # a game made outside the registry (a test's own)
        return deal_seed


def agent_seat(index: int, seats: int = 2) -> int:
    """Seats alternate: the measured player moves first in even games, second in odd ones."""
    return index % seats


def identity(game: Game, seed: int) -> dict[str, Any]:
    """What a run is: the game, its setup and the seed; a game built from files (``GameSpec.files``:
    the card game's pack) by their content, each under its parameter's name, then the rest of its setup."""
    try:
        files = game.spec.files(game)
    except LookupError:                          # a game made outside the registry (a test's own)
        files = []
    if not files:
        return {"game": game.name, "params": game.setup(), "seed": seed}
    out: dict[str, Any] = {"game": game.name}
    out.update({p.name: {"id": f.id, "version": f.version, "hash": f.hash} for p, f in files})
    out["seed"] = seed
    setup = game.setup()
    named = {k for p, _ in files for k in (p.name, f"{p.name}_version", p.digest)}    # said by the file's block
    # Other files' contents first (deck lists, when the game has them, are part of the run), then a
    # protocol's settings (--protocol seed and its loop; tcgtui's own adds none): the order runs were
    # always stored in.
    contents = [p.digest for p in game.spec.info.params if p.digest and p.digest not in named]
    out.update({k: setup[k] for k in contents if k in setup})
    out.update({k: v for k, v in setup.items() if k not in named})
    return out


def default_run_name(ident: dict[str, Any]) -> str:
    """Readable and stable: the same game setup and seed always resume the same run; named after the
    first file the game was built from (a pack), else the game."""
    digest = hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:8]
    files = [v["id"] for v in ident.values() if isinstance(v, dict) and set(v) == {"id", "version", "hash"}]
    prefix = files[0] if "params" not in ident and files else ident["game"]
    return f"{prefix}-seed{ident['seed']}-{digest}"


def build_config(ident: dict[str, Any], cells: list[Cell], players: dict[str, dict[str, dict[str, Any]]],
                 games: int, settings: dict[str, Any]) -> dict[str, Any]:
    """The full config stored with a run: identity, players, cells, game count and versions.

    ``players`` maps each spec to what its agent says of itself in each language
    (``Agent.describe()`` after ``start``): model, endpoint settings, prompt version.
    """
    return {"identity": ident, "players": players,
            "agents": sorted({c.agent for c in cells}), "opponents": sorted({c.opponent for c in cells}),
            "langs": sorted({c.lang for c in cells}),
            "cells": [[c.agent, c.opponent, c.lang] for c in cells], "games": games,
            "settings": settings,
            "versions": {"tcgtui": __version__, "schema": LATEST, "python": sys.version.split()[0]}}


def _first_difference(old: Any, new: Any, path: str) -> tuple[str, Any, Any] | None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            found = _first_difference(old.get(key), new.get(key), f"{path}.{key}")
            if found:
                return found
        return None
    return None if old == new else (path, old, new)


# Where a player is served may move between sessions (a new port, a mirror of the
# same model), and its prices and facts may be corrected; what it is and how it is asked may
# not.  The settings hash is not compared itself: it is made of settings that are (and runs
# made before it have none).
VOLATILE = ("base_url", "settings_hash", "prices", "facts")


def _player_difference(old: dict[str, Any], new: dict[str, Any]) -> tuple[str, Any, Any] | None:
    """The first setting a shared player (and language) was described with differently."""
    for spec in sorted(set(old) & set(new)):
        for lang in sorted(set(old[spec]) & set(new[spec])):
            was = {k: v for k, v in old[spec][lang].items() if k not in VOLATILE}
            now = {k: v for k, v in new[spec][lang].items() if k not in VOLATILE}
            found = _first_difference(was, now, f"players.{spec}.{lang}")
            if found:
                return found
    return None


def open_run(store: Store, name: str, config: dict[str, Any]) -> Run:
    """Create the run, or check this command agrees with it and record the added cells.

    Raises UserError naming the first setting that differs from the stored run.
    """
    text = locales.load()
    with store.transaction():
        run = store.run(name)
        if run is None:
            return store.create_run(name, config)
        old = run.config
        diff = (_first_difference(old.get("identity"), config["identity"], "identity")
                or _player_difference(old.get("players", {}), config["players"]))
        if diff is not None:
            setting, was, now = diff
            raise UserError(text.t("cmd_bench.errors.run_mismatch", run=name, setting=setting,
                                   old=json.dumps(was), new=json.dumps(now)))
        cells = [Cell(*c) for c in old.get("cells", [])]
        merged = sorted(set(cells) | {Cell(*c) for c in config["cells"]})
        players = {spec: {**old.get("players", {}).get(spec, {}), **config["players"].get(spec, {})}
                   for spec in set(old.get("players", {})) | set(config["players"])}
        updated = build_config(config["identity"], merged, players, max(int(old.get("games", 0)), config["games"]),
                               config["settings"])
        store.update_run_config(run.id, updated)
        return Run(run.id, run.name, run.kind, updated, run.created_at, run.updated_at)
