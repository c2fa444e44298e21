"""The statistics behind the report's common sections.

Win-rate intervals are Clopper–Pearson (scipy's exact method): conservative,
never below their nominal 95% coverage, unlike normal or bootstrap intervals at
the small win rates strong opponents produce.  Mean scores get Student's t
interval.  The card game's decay fit lives with the card game
(``tcgtui.engine.tcg.analyses``) and is re-exported here.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.stats import binomtest
from scipy.stats import t as student_t

from tcgtui.engine.stats import mean, median, sample_variance  # noqa: F401  (shared with the games' analyses)
from tcgtui.engine.tcg.analyses import decay, fit_decay  # noqa: F401  (the decay fit is the card game's; read here too)


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """The exact interval for k successes in n trials; None when there are no trials."""
    if n <= 0:
        return None
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """Student's t interval for the mean; None below two values (a single value: both ends equal it)."""
    n = len(values)
    if n == 0:
        return None
    m = math.fsum(values) / n
    if n == 1:
        return None
    sd = float(np.std(np.asarray(values, dtype=float), ddof=1))
    half = float(student_t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return m - half, m + half
