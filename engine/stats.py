"""Descriptive statistics the report and the games' own report analyses share.

Pure functions of numbers (numpy only), so a game's analyses in ``engine/`` and
the report in ``tcgtui/report/`` compute them the same way.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np


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
