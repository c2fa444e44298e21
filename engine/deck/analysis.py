"""The quiz's report sections: accuracy with exact intervals, accuracy against the golden
margin, the letters picked (position bias) and how answers were read (extraction paths).

Each section is a list of rows (dicts); people are players like any other, so they
stand beside models in every table.  Intervals are Clopper-Pearson (exact binomial), as
sets of a few hundred questions are too small for normal approximations near 0 or 1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from tcgtui.engine.deck.questions import LETTERS
from tcgtui.engine.stats import clopper_pearson

MARGIN_BINS = ((0.0, 0.03), (0.03, 0.06), (0.06, 0.10), (0.10, 1.01))


def _field(g: Any, name: str, default: Any = None) -> Any:
    return g.get(name, default) if isinstance(g, dict) else getattr(g, name, default)


def _reveal(g: Any) -> dict[str, Any]:
    record = _field(g, "record") or {}
    for e in record.get("events", []):
        if e.get("kind") == "reveal":
            return e
    return {}


def _question(g: Any) -> dict[str, Any]:
    record = _field(g, "record") or {}
    for e in record.get("events", []):
        if e.get("kind") == "question":
            return e
    return {}


def _accuracy_row(keys: dict[str, Any], right: int, n: int) -> dict[str, Any]:
    lo, hi = clopper_pearson(right, n) or (0.0, 1.0)
    return {**keys, "n": n, "right": right, "accuracy": right / n if n else None, "low": lo, "high": hi}


def _groups(g: Any) -> list[str]:
    """The rows a game counts in: its player, and for people also the pooled row of all people."""
    groups = getattr(g, "groups", None)
    return groups() if callable(groups) else [_field(g, "agent", "")]


def sections(games: list) -> dict[str, list[dict[str, Any]]]:
    finished = [g for g in games if _reveal(g)]
    by_cell: dict[tuple, list[bool]] = defaultdict(list)
    by_margin: dict[tuple, list[bool]] = defaultdict(list)
    letters: dict[str, Counter] = defaultdict(Counter)
    paths: dict[str, Counter] = defaultdict(Counter)
    for g in finished:
        reveal, q = _reveal(g), _question(g)
        right = bool(reveal.get("right"))
        qset = (_field(g, "params") or {}).get("questions", "")
        margin = reveal.get("margin")
        band = (
            None
            if margin is None
            else next(f"{lo:.2f}-{min(hi, 1):.2f}" for lo, hi in MARGIN_BINS if lo <= margin < hi)
        )
        for player in _groups(g):
            by_cell[(player, qset, q.get("language") or _field(g, "lang", ""))].append(right)
            if band is not None:
                by_margin[(player, band)].append(right)
            letters[player][reveal.get("chosen") or "-"] += 1
            for m in _field(g, "moves", []) or []:
                path = getattr(m, "parse_path", None)
                if path:
                    paths[player][path] += 1
    accuracy = [
        _accuracy_row({"player": p, "questions": s, "lang": lang}, sum(v), len(v))
        for (p, s, lang), v in sorted(by_cell.items())
    ]
    margin_rows = [
        _accuracy_row({"player": p, "margin": band}, sum(v), len(v)) for (p, band), v in sorted(by_margin.items())
    ]
    letter_rows = [
        {"player": p, **{x: c[x] for x in LETTERS}, "none": c["-"], "n": sum(c.values())}
        for p, c in sorted(letters.items())
    ]
    path_rows = [
        {"player": p, **{k: c[k] for k in ("answer", "letter", "boxed", "none")}, "n": sum(c.values())}
        for p, c in sorted(paths.items())
    ]
    return {"accuracy": accuracy, "margin": margin_rows, "letters": letter_rows, "paths": path_rows}
