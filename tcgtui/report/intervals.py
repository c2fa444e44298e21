"""Randomized exact binomial intervals (``--ci exact-randomized``), as TCG-Bench reports them.

TCG-Bench's intervals are Voracek's (2024): the randomized exact interval,
Stevens' construction, whose coverage is exactly the nominal level for every
true rate (Clopper–Pearson's is at least it, so it is wider).  With one uniform
draw U per interval and k successes in n trials, the bounds are the rates p where

    lower:  P_p(X > k) + U · P_p(X = k) = α/2
    upper:  P_p(X < k) + (1 − U) · P_p(X = k) = α/2

(a side already past α/2 at p = 0 or 1 puts its bound there).
Both sides are monotone in p, so each bound is one root.  U comes from a
generator seeded by the report's seed and the row's own key, so a table
reprints identically and a row keeps its interval when other rows come or go.
"""

from __future__ import annotations

import zlib

import numpy as np
from scipy.special import bdtr, bdtrc

from tcgtui.engine.brent import brentq

METHODS = ("exact", "exact-randomized")
DEFAULT_SEED = 0


def uniform(seed: int, key: str) -> float:
    """The row's U: the same seed and key always give the same draw."""
    return float(np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))]).random())


def _pmf(k: int, n: int, p: float) -> float:
    return float(bdtr(k, n, p) - (bdtr(k - 1, n, p) if k > 0 else 0.0))


def randomized(k: int, n: int, u: float, confidence: float = 0.95) -> tuple[float, float] | None:
    """The randomized exact interval for k successes in n trials, given the draw ``u`` in [0, 1)."""
    if n <= 0:
        return None
    alpha = (1 - confidence) / 2

    def above(p: float) -> float:          # P(X > k) + U·P(X = k), rising with p
        return float(bdtrc(k, n, p)) + u * _pmf(k, n, p) - alpha

    def below(p: float) -> float:          # P(X < k) + (1 − U)·P(X = k), falling with p
        return (float(bdtr(k - 1, n, p)) if k > 0 else 0.0) + (1 - u) * _pmf(k, n, p) - alpha

    low = 0.0 if above(0.0) >= 0 else (1.0 if above(1.0) <= 0 else brentq(above, 0.0, 1.0))
    high = 1.0 if below(1.0) >= 0 else (0.0 if below(0.0) <= 0 else brentq(below, 0.0, 1.0))
    return low, high
