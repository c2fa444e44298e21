"""One small store of card games whose report is kept as golden files (tests/golden/).

The golden files were produced by the v1 code (before the arena's store and
report refactor); the card game's report must stay byte-identical, but where a change of what is
reported says so in its commit (the pooled ``human`` row counting people, not games: its estimate,
interval, ``people`` column and note; the tables' headers in one capitalisation, "player" for "agent").
"""

from __future__ import annotations

import math
import re

from typing import Any, Callable

from tcgtui.store import ABANDONED, ERRORED

A_WINS = {("en", 1): 8, ("en", 4): 4, ("en", 16): 2, ("ar", 1): 6, ("ar", 4): 4, ("ar", 16): 0}
T = {"parse_path": "tags"}
B_GAMES = [
    ("win", 8, [("c1", "champion", 1.0, 100, T), ("c2", "spell", 3.0, 300, {"parse_path": "last_name",
                                                                             "invalid": 1})]),
    ("loss", 12, [("c1", "champion", 2.0, 200, T), ("c2", "champion", 4.0, 400, T),
                  ("c3", "trick", 6.0, None, {"parse_path": "none", "fallback": "random", "invalid": True})]),
    ("loss", 6, [("c1", "champion", 1.0, 100, T), ("c1", "champion", 1.0, 100, T)]),
    ("draw", 50, [("c4", "spell", 5.0, 500, T), ("c5", "trick", 5.0, 500, T), ("c1", "champion", 5.0, 500, T),
                  ("c2", "champion", 5.0, 500, {"parse_path": "last_name"})]),
]
C_RESULTS = {"en": ["win", "loss", "loss", "loss"], "ar": ["win", "win", "loss", "loss"]}
FORMATS = [("table", None), ("md", None), ("json", None)] + [("csv", s) for s in (
    "win_rates", "decay", "language_gap", "summary", "error_patterns", "quarters", "llm")]


def populate(store: Any, add_game: Callable[..., Any]) -> None:
    run = store.create_run("hand", {}).id
    for (lang, k), wins in A_WINS.items():
        for i in range(20):
            add_game(store, run, "A", f"mc:{k}", lang, i, result="win" if i < wins else "loss", turns=20,
                     moves=[("c1", "champion", 0.5 + i / 10, None, {}), ("c7", "trick", 1.5, None, {})])
    add_game(store, run, "A", "mc:1", "en", 20, status=ERRORED)
    add_game(store, run, "A", "mc:1", "en", 21, status=ERRORED)
    add_game(store, run, "A", "mc:1", "en", 22, status=ABANDONED)
    for i, (result, turns, moves) in enumerate(B_GAMES):
        add_game(store, run, "B", "random", "en", i, result=result, turns=turns, moves=moves)
    add_game(store, run, "B", "random", "en", 4, status=ERRORED,
             moves=[("c9", "spell", 100.0, 9000, {"parse_path": "none"})])
    for lang, results in C_RESULTS.items():
        for i, result in enumerate(results):
            add_game(store, run, "C", "random", lang, i, result=result)
    other = store.create_run("other", {}).id
    add_game(store, other, "A", "mc:1", "en", 0, result="win", turns=3)
    for i, (handle, result) in enumerate([("ann", "win"), ("ann", "loss"), ("bob", "loss")]):
        add_game(store, None, f"human:{handle}", "mc:1", "en", i, result=result,
                 moves=[("c2", "spell", 7.0, None, {})])


def argv(fmt: str, section: str | None) -> list[str]:
    return ["--format", fmt] + (["--table", section] if section else [])


def golden_name(fmt: str, section: str | None) -> str:
    return f"tcg_report.{section}.csv" if fmt == "csv" else f"tcg_report.{fmt}" + (".txt" if fmt == "table" else "")


NUMBER = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")


def same_report(actual: str, golden: str) -> bool:
    """The report as the golden file has it: text to the letter, decimals to 7 significant digits.
    The decay fits (scipy's curve_fit over OpenBLAS) move in the 9th digit from one CPU's kernel
    to another's; nothing else may move at all."""
    if NUMBER.split(actual) != NUMBER.split(golden):
        return False
    a, g = NUMBER.findall(actual), NUMBER.findall(golden)
    return len(a) == len(g) and all(math.isclose(float(x), float(y), rel_tol=1e-7, abs_tol=1e-12) for x, y in zip(a, g))
