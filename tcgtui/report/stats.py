"""The statistics behind the report's common sections.

Win-rate intervals are Clopper–Pearson (scipy's exact method): conservative,
never below their nominal 95% coverage, unlike normal or bootstrap intervals at
the small win rates strong opponents produce.  Mean scores get Student's t
interval.  The card game's decay fit lives with the card game
(``tcgtui.engine.tcg.analyses``) and is re-exported here.

Both are computed as ``scipy.stats`` computes them (``binomtest(...).proportion_ci
(method="exact")`` and ``t.ppf``) from the ``scipy.special`` functions it calls,
without importing ``scipy.stats`` (0.9 s, a fifth of a large report's time).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.special import stdtrit

from tcgtui.report.brent import brentq

try:        # the binomial tails scipy.stats.binom evaluates (private names: fall back to scipy.stats)
    from scipy.special._ufuncs import _binom_cdf, _binom_sf
except ImportError:  # pragma: no cover - another scipy
    _binom_cdf = _binom_sf = None

from tcgtui.engine.stats import mean, median, sample_variance  # noqa: F401  (shared with the games' analyses)
from tcgtui.engine.tcg.analyses import decay, fit_decay  # noqa: F401  (the decay fit is the card game's; read here too)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """The exact interval for k successes in n trials; None when there are no trials."""
    if n <= 0:
        return None
    if _binom_cdf is None or _binom_sf is None:  # pragma: no cover - another scipy
        from scipy.stats import binomtest
        ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
        return float(ci.low), float(ci.high)
    alpha = (1 - confidence) / 2
    sf, cdf = _binom_sf, _binom_cdf
    low = 0.0 if k == 0 else brentq(lambda p: float(sf(k - 1, n, p)) - alpha, 0.0, 1.0)
    high = 1.0 if k == n else brentq(lambda p: float(cdf(k, n, p)) - alpha, 0.0, 1.0)
    return low, high


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """Student's t interval for the mean; None below two values (a single value: both ends equal it)."""
    n = len(values)
    if n == 0:
        return None
    m = math.fsum(values) / n
    if n == 1:
        return None
    sd = float(np.std(np.asarray(values, dtype=float), ddof=1))
    half = float(stdtrit(n - 1, 0.5 + confidence / 2)) * sd / math.sqrt(n)     # scipy.stats.t.ppf
    return m - half, m + half
