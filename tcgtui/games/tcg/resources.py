"""The card game's parameters that name files: a pack (a name or a folder) and deck lists."""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.games.tcg.packs import load_pack, read_deck

LOADERS: dict[str, Callable[[str, str], Any]] = {"pack": lambda flag, name: load_pack(name), "deck": read_deck}
# Kinds --resume reads again from the same file or folder (by its absolute path).
BY_PATH: tuple[str, ...] = ("pack",)          # deck lists are stored as their cards
