"""Brent's root finder, step for step as scipy's compiled ``brentq`` takes it.

The exact win-rate intervals are roots of binomial tail probabilities; scipy
finds them with ``scipy.optimize.brentq``, whose package costs the report
about 0.4 s to import (and ``scipy.stats`` around it 0.9 s).  Taking the same
steps in the same floating-point order gives the same bits, so the report's
numbers do not change (tests/test_report_speed.py compares them with scipy's).
"""

from __future__ import annotations

import math
from collections.abc import Callable

XTOL = 2e-12  # scipy's defaults
RTOL = 4 * 2.220446049250313e-16
MAXITER = 100


def brentq(f: Callable[[float], float], xa: float, xb: float) -> float:
    """A root of ``f`` between ``xa`` and ``xb``, where ``f`` changes sign."""
    xpre, xcur = xa, xb
    xblk = fblk = spre = scur = 0.0
    fpre, fcur = f(xpre), f(xcur)
    if fpre == 0:
        return xpre
    if fcur == 0:
        return xcur
    if math.copysign(1.0, fpre) == math.copysign(1.0, fcur):
        raise ValueError(f"no sign change between {xa} and {xb}")
    for _ in range(MAXITER):
        if fpre != 0 and fcur != 0 and math.copysign(1.0, fpre) != math.copysign(1.0, fcur):
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        delta = (XTOL + RTOL * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:  # interpolate
                stry = -fcur * (xcur - xpre) / (fcur - fpre)
            else:  # extrapolate
                dpre = (fpre - fcur) / (xpre - xcur)
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            if 2 * abs(stry) < min(abs(spre), 3 * abs(sbis) - delta):
                spre, scur = scur, stry  # a good short step
            else:
                spre = scur = sbis  # bisect
        else:
            spre = scur = sbis
        xpre, fpre = xcur, fcur
        xcur += scur if abs(scur) > delta else (delta if sbis > 0 else -delta)
        fcur = f(xcur)
    raise RuntimeError(f"no root found in {MAXITER} steps")
