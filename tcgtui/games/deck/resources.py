"""The deck quiz's parameter that names a file: its question set (a file or a built-in set)."""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.games.deck.questions import load_set

LOADERS: dict[str, Callable[[str, str], Any]] = {"questions": load_set}
# Kinds --resume reads again from the same file or folder (by its absolute path).
BY_PATH: tuple[str, ...] = ("questions",)
