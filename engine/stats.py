"""Descriptive statistics the report and the games' own report analyses share.

Pure functions of numbers, so a game's analyses in ``engine/`` and the report in
``tcgtui/report/`` compute them the same way.  The exact binomial interval takes
scipy's steps (``binomtest(...).proportion_ci(method="exact")``) from the
``scipy.special`` tails it calls, imported on first use: ``scipy.stats`` costs a
report 0.9 s to import.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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
    try:  # the binomial tails scipy.stats.binom evaluates (private names: fall back to scipy.stats)
        from scipy.special._ufuncs import _binom_cdf as cdf
        from scipy.special._ufuncs import _binom_sf as sf
    except ImportError:  # pragma: no cover - another scipy
        from scipy.stats import binomtest

        ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
        return float(ci.low), float(ci.high)
    alpha = (1 - confidence) / 2
    low = 0.0 if k == 0 else brentq(lambda p: float(sf(k - 1, n, p)) - alpha, 0.0, 1.0)
    high = 1.0 if k == n else brentq(lambda p: float(cdf(k, n, p)) - alpha, 0.0, 1.0)
    return low, high


def confidence_sequence(k: int, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """An anytime-valid interval for a share after k successes in n trials: the Beta(1/2, 1/2)
    mixture of likelihood ratios (Robbins' method of mixtures; a conjugate mixture for the
    binomial), whose set {p : mixture / likelihood(p) < 1/alpha} covers the true share at every n
    at once with probability 1 - alpha (Ville's inequality), so a run may stop whenever it likes;
    a fixed-n interval such as Clopper–Pearson does not survive that (optional stopping).  Wider
    than the fixed-n interval at the same n: the price of looking after every game."""
    if n <= 0:
        return None
    bound = math.log(1 / (1 - confidence))
    # log of the mixture's marginal likelihood: B(1/2 + k, 1/2 + n - k) / B(1/2, 1/2)
    mixture = (math.lgamma(0.5 + k) + math.lgamma(0.5 + n - k) - math.lgamma(1.0 + n)) - math.log(math.pi)

    def excess(p: float) -> float:  # log(mixture / likelihood(p)) - log(1/alpha); < 0 inside
        return mixture - (k * math.log(p) if k else 0.0) - ((n - k) * math.log1p(-p) if n - k else 0.0) - bound

    centre = k / n  # inside: a mixture of likelihoods is never above their maximum
    low = 0.0 if k == 0 else brentq(excess, 1e-300, centre)
    high = 1.0 if k == n else brentq(excess, centre, 1 - 1e-16)
    return low, high
