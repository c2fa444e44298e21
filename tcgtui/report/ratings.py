"""Bradley–Terry ratings on the Elo scale, with bootstrap intervals.

The model: ``P(a beats b) = 1 / (1 + 10^((R_b − R_a)/400))``; a draw counts as
half a win for each side (the likelihood takes the score s ∈ {0, ½, 1} as a
fractional success).  Ratings are the maximum a posteriori estimate under a
weak Gaussian prior, each rating ~ N(1000, 400²): without it a player who never
loses has no finite maximum-likelihood rating; with it such a player gets a
high but finite one, and with many games the prior's pull is negligible (it is
worth about one game against an equal opponent).  The likelihood only sees
differences, so the prior also anchors the scale: at the optimum the mean
rating is exactly 1000 (the gradient of the likelihood sums to zero, so the
prior's must too); the result is re-centred on 1000 to remove rounding.

The fit is ``scipy.optimize.minimize`` (L-BFGS-B) on the negative log-posterior
with its gradient.  95% intervals are percentile bootstrap intervals over
games: ``resamples`` (default 200) resamples of the games with replacement from
a seeded generator (seed 0 by default), each refitted; the interval is the
2.5th to 97.5th percentile of a player's rating across the resamples.

``anchor`` fixes one player at 1000 instead of the mean (the seed's convention in
The Token Games, whose first player by name sits at 1000; ``FIRST`` names that
choice): the point and every resample are shifted by that player's rating, so
the intervals are those of each player's difference to the anchor (the
anchor's own is a point).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Sequence

import numpy as np

SCALE = 400.0 / math.log(10.0)      # Elo points per natural-log unit of odds
ANCHOR = 1000.0
PRIOR_SD = 400.0
RESAMPLES = 200
SEED = 0
FIRST = "first"                      # anchor: the first player by name (The Token Games' choice)

Result = tuple[str, str, float]      # (player a, player b, a's score: 1 win, 0.5 draw, 0 loss)


def expected(ra: float, rb: float) -> float:
    """P(a beats b) on the Elo scale."""
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / 400.0))


def _arrays(results: Sequence[Result], players: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    index = {p: i for i, p in enumerate(players)}
    a = np.fromiter((index[r[0]] for r in results), dtype=np.int64, count=len(results))
    b = np.fromiter((index[r[1]] for r in results), dtype=np.int64, count=len(results))
    s = np.fromiter((float(r[2]) for r in results), dtype=float, count=len(results))
    return a, b, s


def _fit(a: np.ndarray, b: np.ndarray, s: np.ndarray, n: int, weights: np.ndarray | None = None,
         prior_sd: float = PRIOR_SD) -> np.ndarray:
    w = np.ones(len(s)) if weights is None else weights
    lam = 1.0 / prior_sd ** 2

    def objective(r: np.ndarray) -> tuple[float, np.ndarray]:
        d = (r[a] - r[b]) / SCALE
        # −[s·log p + (1−s)·log(1−p)] with p = sigmoid(d), in a stable form
        nll = float(np.sum(w * (np.logaddexp(0.0, d) - s * d)))
        resid = w * (1.0 / (1.0 + np.exp(-d)) - s) / SCALE
        grad = np.bincount(a, resid, n) - np.bincount(b, resid, n)
        dev = r - ANCHOR
        return nll + 0.5 * lam * float(dev @ dev), grad + lam * dev

    from scipy.optimize import minimize     # 0.4 s to import: only reports with a round robin fit ratings

    res = minimize(objective, np.full(n, ANCHOR), jac=True, method="L-BFGS-B")
    r = res.x
    return r - r.mean() + ANCHOR


@dataclass(frozen=True)
class Rating:
    player: str
    rating: float
    ci_low: float | None
    ci_high: float | None
    games: int


def fit(results: Sequence[Result], prior_sd: float = PRIOR_SD) -> dict[str, float]:
    """The rating of every player in ``results`` (mean 1000)."""
    players = sorted({r[0] for r in results} | {r[1] for r in results})
    if not players:
        return {}
    a, b, s = _arrays(results, players)
    return dict(zip(players, (float(x) for x in _fit(a, b, s, len(players), prior_sd=prior_sd))))


@dataclass(frozen=True)
class Fitted:
    """Every player's rating and, per bootstrap resample, all of them refitted together (a row per
    resample: the draws keep the players' covariance, which a placement on the scale needs)."""

    players: list[str]
    point: np.ndarray
    boot: np.ndarray | None
    games: np.ndarray


def fitted(results: Sequence[Result], *, resamples: int = RESAMPLES, seed: int = SEED,
           prior_sd: float = PRIOR_SD, clusters: Sequence[Hashable] | None = None,
           anchor: str | None = None) -> Fitted | None:
    """The fit behind ``ratings``, with its resamples; None for fewer than two players."""
    players = sorted({r[0] for r in results} | {r[1] for r in results})
    if len(players) < 2:
        return None
    a, b, s = _arrays(results, players)
    n = len(players)
    fixed = 0 if anchor == FIRST else players.index(anchor) if anchor in players else None

    def anchored(r: np.ndarray) -> np.ndarray:
        return r if fixed is None else r - r[fixed] + ANCHOR
    point = anchored(_fit(a, b, s, n, prior_sd=prior_sd))
    games = np.bincount(a, minlength=n) + np.bincount(b, minlength=n)
    boot = None
    if resamples > 0:
        rng = np.random.default_rng(seed)
        boot = np.empty((resamples, n))
        groups = np.arange(len(s)) if clusters is None else np.unique(np.asarray(clusters, dtype=str),
                                                                           return_inverse=True)[1]
        k = int(groups.max()) + 1
        for i in range(resamples):
            drawn = np.bincount(rng.integers(0, k, k), minlength=k).astype(float)
            boot[i] = anchored(_fit(a, b, s, n, drawn[groups], prior_sd))
    return Fitted(players, point, boot, games)


def ratings(results: Sequence[Result], *, resamples: int = RESAMPLES, seed: int = SEED,
            prior_sd: float = PRIOR_SD, clusters: Sequence[Hashable] | None = None,
            anchor: str | None = None) -> list[Rating]:
    """Ratings with percentile-bootstrap 95% intervals over games, best first.

    ``clusters`` (one label per result) resamples whole clusters instead of results: the
    rounds of one duel stay together, so the interval is over duels."""
    fit_ = fitted(results, resamples=resamples, seed=seed, prior_sd=prior_sd, clusters=clusters, anchor=anchor)
    if fit_ is None:
        return []
    low = high = None
    if fit_.boot is not None:
        low, high = np.percentile(fit_.boot, 2.5, axis=0), np.percentile(fit_.boot, 97.5, axis=0)
    out = [Rating(p, float(fit_.point[i]), None if low is None else float(low[i]),
                  None if high is None else float(high[i]), int(fit_.games[i])) for i, p in enumerate(fit_.players)]
    return sorted(out, key=lambda r: (-r.rating, r.player))
