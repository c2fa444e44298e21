"""Descriptive statistics the report and the games' own report analyses share.

Pure functions of numbers, so a game's analyses in ``engine/`` and the report in
``tcgtui/report/`` compute them the same way.  The exact binomial interval takes
scipy's steps (``binomtest(...).proportion_ci(method="exact")``) from the
``scipy.special`` tails it calls, imported on first use: ``scipy.stats`` costs a
report 0.9 s to import.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from tcgtui.engine.brent import brentq


def sample_variance(values: Sequence[float]) -> float | None:
    """Variance with n−1 in the denominator; None below two values."""
    if len(values) < 2:
        return None
    return float(np.var(np.asarray(values, dtype=float), ddof=1))


def median(values: Sequence[float]) -> float | None:
    return float(np.median(np.asarray(values, dtype=float))) if len(values) else None


def mean(values: Sequence[float]) -> float | None:
    """The exactly rounded mean (``math.fsum``), whatever the order of the values."""
    if not len(values):
        return None
    return math.fsum(values.tolist() if isinstance(values, np.ndarray) else values) / len(values)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """The exact interval for k successes in n trials; None when there are no trials."""
    if n <= 0:
        return None
    # start-up time: scipy's tails on first use (see above)
    try:        # the binomial tails scipy.stats.binom evaluates (private names: fall back to scipy.stats)
        from scipy.special._ufuncs import _binom_cdf as cdf, _binom_sf as sf
    except ImportError:  # pragma: no cover - another scipy
        from scipy.stats import binomtest
        ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
        return float(ci.low), float(ci.high)
    alpha = (1 - confidence) / 2
    low = 0.0 if k == 0 else brentq(lambda p: float(sf(k - 1, n, p)) - alpha, 0.0, 1.0)
    high = 1.0 if k == n else brentq(lambda p: float(cdf(k, n, p)) - alpha, 0.0, 1.0)
    return low, high
