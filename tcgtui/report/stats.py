"""The statistics behind the report: exact binomial intervals and the decay fit.

Intervals are Clopper–Pearson (scipy's exact method): conservative, never
below their nominal 95% coverage, unlike normal or bootstrap intervals at the
small win rates strong opponents produce.

The decay form is ``w(K) = a·exp(−b·ln K) = a·K^(−b)``: exponential in log K.
The paper's K values span three decades (1 to 1000); ``a·exp(−b·K)`` would put
every point past K≈10 on the floor (on the paper's Table 1 means it reaches
R² 0.90 against 0.99 for this form), while this form decays by the same
factor per tenfold K, which is how the data fall.  ``a`` is the fitted win
rate at K=1 and ``b`` the decay per unit of ln K.  It is fitted by least
squares on the win rates themselves (scipy.optimize.curve_fit) and R² is
``1 − SS_res / SS_tot`` on those win rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy.optimize import curve_fit
from scipy.stats import binomtest

DECAY_FORM = "w(K) = a·exp(−b·ln K)"
MIN_FIT_POINTS = 3


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """The exact interval for k successes in n trials; None when there are no trials."""
    if n <= 0:
        return None
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    return float(ci.low), float(ci.high)


def decay(k: np.ndarray, a: float, b: float) -> np.ndarray:
    return a * np.exp(-b * np.log(k))


@dataclass(frozen=True)
class DecayFit:
    a: float
    b: float
    r2: float | None          # None when every win rate is equal (nothing to explain)
    points: int


def fit_decay(ks: Sequence[float], rates: Sequence[float]) -> DecayFit | None:
    """Fit ``DECAY_FORM`` to win rates at K ≥ 1; None with fewer than three distinct K."""
    k = np.asarray(ks, dtype=float)
    w = np.asarray(rates, dtype=float)
    if len(set(k.tolist())) < MIN_FIT_POINTS or np.any(k < 1):
        return None
    start = (max(float(w[np.argmin(k)]), 1e-3), 0.5)
    try:
        (a, b), _ = curve_fit(decay, k, w, p0=start, bounds=([0.0, -np.inf], [np.inf, np.inf]), maxfev=20000)
    except (RuntimeError, ValueError):
        return None
    residual = w - decay(k, a, b)
    total = float(np.sum((w - w.mean()) ** 2))
    r2 = None if np.ptp(w) == 0 else 1.0 - float(residual @ residual) / total
    return DecayFit(float(a), float(b), r2, len(k))


def sample_variance(values: Sequence[float]) -> float | None:
    """Variance with n−1 in the denominator; None below two values."""
    if len(values) < 2:
        return None
    return float(np.var(np.asarray(values, dtype=float), ddof=1))


def median(values: Sequence[float]) -> float | None:
    return float(np.median(np.asarray(values, dtype=float))) if len(values) else None


def mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if len(values) else None
