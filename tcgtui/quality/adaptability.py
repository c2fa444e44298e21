"""``tcgtui report --table adaptability``: how a player's decision quality changes with its
opponent's strength (issue 40, part 2).  For each opponent ``mc:K``, the player's mean regret (the
``quality`` table's, with its interval), per language and evaluator; and the least-squares slope of
those means on log2 K, the change in mean regret per doubling of the opponent's playouts.

The slope's interval resamples games at each K apart (each K keeps its number of games: a resample
that lost a level would have no slope), refits the slope each time, and takes the 2.5th and 97.5th
percentiles, from the generator ``--ci-seed`` seeds.  Other opponents (random, people, models) have
no K and are left out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import numpy as np

from tcgtui.quality import stored
from tcgtui.quality.table import CONFIDENCE, RESAMPLES, Row, View, cells, measures

STRENGTH = re.compile(r"mc:([1-9][0-9]*)")


def strength(opponent: str) -> int | None:
    """K of an ``mc:K`` opponent, else None."""
    found = STRENGTH.fullmatch(opponent)
    return int(found.group(1)) if found else None


def slopes(ks: np.ndarray, means: np.ndarray) -> np.ndarray:
    """The least-squares slope of ``means`` (the last axis, one per K) on log2 ``ks``."""
    x = np.log2(ks) - np.log2(ks).mean()
    return (means * x).sum(axis=-1) / (x * x).sum()


def slope_interval(ks: np.ndarray, per_k: list[np.ndarray], seed: int) -> tuple[float, float] | None:
    """The slope's percentile interval, resampling each K's games (``per_k``: rows of regret sum and
    decisions per game); None when no K has two games (nothing to resample)."""
    if all(len(t) < 2 for t in per_k):
        return None
    rng = np.random.default_rng(seed)
    means = np.empty((RESAMPLES, len(ks)))
    for j, t in enumerate(per_k):
        picks = rng.integers(0, len(t), size=(RESAMPLES, len(t)))
        means[:, j] = t[picks, 0].sum(axis=1) / t[picks, 1].sum(axis=1)
    tail = (1 - CONFIDENCE) / 2
    low, high = np.quantile(slopes(ks, means), [tail, 1 - tail])
    return float(low), float(high)


def adaptability(games: list[Any], context: Any) -> list[Row]:
    """Per player, language, evaluator and opponent K: the mean regret; on each of the player's rows,
    the slope over its Ks and its interval (None with one K)."""
    if getattr(context, "decision_values", None) is None:
        return []
    seed = getattr(context, "seed", 0)

    def keys(view: View, value: stored.Value, _: tuple[int, int]) -> list[tuple]:
        k = strength(view.opponent)
        return [] if k is None else [(view.agent, view.lang, value.evaluator, k)]

    grouped: dict[tuple, dict[int, dict[str, list[float]]]] = defaultdict(dict)
    for (agent, lang, evaluator, k), per_game in cells(games, context, keys).items():
        grouped[(agent, lang, evaluator)][k] = per_game
    rows = []
    for (agent, lang, evaluator), by_k in sorted(grouped.items()):
        ks = np.array(sorted(by_k), dtype=float)
        per_k = [np.array(list(by_k[int(k)].values()), dtype=float)[:, :2] for k in ks]
        fit: dict[str, float | None] = {"slope": None, "slope_low": None, "slope_high": None}
        if len(ks) >= 2:
            means = np.array([t[:, 0].sum() / t[:, 1].sum() for t in per_k])
            ci = slope_interval(ks, per_k, seed)
            fit = {"slope": float(slopes(ks, means)), "slope_low": ci[0] if ci else None,
                   "slope_high": ci[1] if ci else None}
        for k in ks:
            m = measures(by_k[int(k)], seed)
            rows.append({"agent": agent, "lang": lang, "evaluator": evaluator, "opponent_k": int(k),
                         **{key: m[key] for key in ("games", "judged", "mean_regret", "ci_low", "ci_high")}, **fit})
    return rows
