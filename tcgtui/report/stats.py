"""The statistics behind the report's common sections.

Win-rate intervals are Clopper–Pearson (scipy's exact method, in
``tcgtui.engine.stats`` so games' own sections share it): conservative, never
below their nominal 95% coverage, unlike normal or bootstrap intervals at the
small win rates strong opponents produce.  So are right/wrong scores' (a deck
quiz's accuracy), whose t interval collapses to a point at none or all right.
Other mean scores get Student's t interval, computed as ``scipy.stats.t.ppf``
does from ``scipy.special`` without importing ``scipy.stats`` (0.9 s, a fifth of
a large report's time).  A game's own fits (the card game's decay) live with the game
(its ``analysis`` module); their figures on its app side (``AppSide.figures``).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy.special import stdtrit

from tcgtui.engine.stats import clopper_pearson, mean, median, sample_variance  # noqa: F401  (shared with games)


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


def score_interval(values: Sequence[float], right_wrong: bool,
                   confidence: float = 0.95) -> tuple[float, float] | None:
    """The interval of a mean score: exact binomial when every score is 1 (right) or 0 (wrong), since
    the t interval of 0 right of 3 is [0, 0]; Student's t otherwise."""
    if right_wrong:
        return clopper_pearson(round(math.fsum(values)), len(values), confidence)
    return t_interval(values, confidence)
