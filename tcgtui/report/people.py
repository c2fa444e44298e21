"""Statistics that count people, not games: the human baseline of a study.

Fifty games of one person are not fifty independent draws: people differ, so
games of one person resemble each other, and a binomial interval over pooled
games is far too narrow.  Here a person is the unit:

- the estimate is the mean over people of each person's own mean (win share,
  draws as non-wins as in the report's win rates; a score game's mean score),
  so every person weighs the same whatever the number of games they played;
- its 95% interval is a cluster bootstrap: resample PEOPLE with replacement
  (``RESAMPLES`` times, a seeded generator) and take the BCa interval of the
  resampled estimates (bias-corrected and accelerated), its tail levels widened
  by Hesterberg's small-sample expansion (for n people, the level a normal
  sample would need for the bootstrap to match Student's t on n − 1 degrees of
  freedom).  With 10-20 people the plain percentile interval covered 91-93%,
  BCa 93-95% and the expanded BCa 96% on a population with people who always
  and never win; on skewed populations 85-90% against the expanded one's 89-91%
  (docs/study-stats.md).  Where every person has the same mean there is nothing
  to resample; at all-0 or all-1 (everyone lost, everyone won) the interval is
  then the exact Clopper–Pearson one over people (k of n people), so it is
  never the empty [0, 0];
- the spread between people: the SD of their means and the intraclass
  correlation (one-way ANOVA estimator), the share of the variance of a game's
  result that lies between people.

The bootstrap assumes people are independent draws from the population the
study samples (not the games of one person); dropouts must leave for reasons
unrelated to their strength, else the estimate is of those who stayed.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

import numpy as np

from scipy.special import stdtrit

from tcgtui.engine.stats import clopper_pearson

RESAMPLES = 2000
# Fewer people get no interval: resampling 3 people covered 78-89% in the coverage study, 5 people 90-91%.
MIN_PEOPLE = 5
CONFIDENCE = 0.95
METHOD = "person bootstrap, expanded BCa"      # recorded with every table: the interval's name
_NORMAL = NormalDist()


def rng(seed: int, key: str) -> np.random.Generator:
    """The generator of one table row: the same seed and row key always draw the same resamples."""
    return np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])


def person_means(people: Sequence[Sequence[float]]) -> np.ndarray:
    """Each person's mean value (people without a value are left out)."""
    return np.array([math.fsum(v) / len(v) for v in people if len(v)], dtype=float)


def _bca(means: np.ndarray, stats: np.ndarray, confidence: float) -> tuple[float, float]:
    """The BCa interval of the mean of ``means`` from its bootstrap replicates ``stats``."""
    estimate = float(means.mean())
    below = float(np.mean(stats < estimate)) + 0.5 * float(np.mean(stats == estimate))
    below = min(max(below, 1 / (2 * len(stats))), 1 - 1 / (2 * len(stats)))
    z0 = _NORMAL.inv_cdf(below)
    n = len(means)
    jack = (means.sum() - means) / (n - 1)            # the estimate without each person
    d = jack.mean() - jack
    denom = 6 * float((d ** 2).sum()) ** 1.5
    accel = float((d ** 3).sum()) / denom if denom > 0 else 0.0
    alpha = (1 - confidence) / 2
    out = []
    for z in (_NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)):
        q = _NORMAL.cdf(z0 + (z0 + z) / (1 - accel * (z0 + z)))
        out.append(float(np.quantile(stats, min(max(q, 0.0), 1.0))))
    return out[0], out[1]


def bootstrap(means: np.ndarray, generator: np.random.Generator, resamples: int = RESAMPLES) -> np.ndarray:
    """The estimate (mean of person means) over ``resamples`` resamples of the people."""
    picks = generator.integers(0, len(means), size=(resamples, len(means)))
    return means[picks].mean(axis=1)


def expanded(confidence: float, n: int) -> float:
    """Hesterberg's expansion: the confidence whose normal tails are those of Student's t on n − 1 degrees
    of freedom scaled by sqrt(n / (n − 1)) (the bootstrap's variance of a mean divides by n, not n − 1)."""
    tail = float(stdtrit(n - 1, (1 - confidence) / 2)) * math.sqrt(n / (n - 1))
    return 1 - 2 * _NORMAL.cdf(tail)


METHODS = ("bca-expanded", "bca", "percentile")


def interval(means: np.ndarray, generator: np.random.Generator, *, binary: bool, method: str = METHODS[0],
             resamples: int = RESAMPLES, confidence: float = CONFIDENCE) -> tuple[float, float] | None:
    """The interval of the mean of person means over resampled people: expanded BCa (the default),
    BCa or plain percentile (the last two kept for the coverage comparison); None below ``MIN_PEOPLE``.
    ``binary``: values are 0/1 results, so people all at 0 or all at 1 get the exact interval over people."""
    n = len(means)
    if n < MIN_PEOPLE:
        return None
    if np.all(means == means[0]):
        if binary and means[0] in (0.0, 1.0):
            return clopper_pearson(int(means[0]) * n, n, confidence)
        return float(means[0]), float(means[0])
    stats = bootstrap(means, generator, resamples)
    if method == "percentile":
        alpha = (1 - confidence) / 2
        low, high = np.quantile(stats, [alpha, 1 - alpha])
        return float(low), float(high)
    return _bca(means, stats, expanded(confidence, n) if method == "bca-expanded" else confidence)


def icc(people: Sequence[Sequence[float]]) -> float | None:
    """Intraclass correlation of the values within people (one-way ANOVA, unequal group sizes);
    None without two people or without variation within them."""
    groups = [np.asarray(v, dtype=float) for v in people if len(v)]
    sizes = np.array([len(g) for g in groups], dtype=float)
    n, total = len(groups), sizes.sum()
    if n < 2 or total <= n:
        return None
    grand = float(np.concatenate(groups).mean())
    between = float(sum(s * (g.mean() - grand) ** 2 for s, g in zip(sizes, groups))) / (n - 1)
    within = float(sum(((g - g.mean()) ** 2).sum() for g in groups)) / (total - n)
    k0 = (total - float((sizes ** 2).sum()) / total) / (n - 1)
    denom = between + (k0 - 1) * within
    if denom <= 0:
        return None
    return max(0.0, (between - within) / denom)


@dataclass(frozen=True)
class Summary:
    people: int
    games: int
    estimate: float | None
    low: float | None
    high: float | None
    sd: float | None            # between people: the SD of their means
    icc: float | None


def summarise(people: Sequence[Sequence[float]], generator: np.random.Generator, *, binary: bool,
              method: str = METHODS[0], resamples: int = RESAMPLES) -> Summary:
    """People, games, the estimate with its person-clustered interval, and the spread between people."""
    means = person_means(people)
    games = sum(len(v) for v in people)
    if not len(means):
        return Summary(0, 0, None, None, None, None, None)
    ci = interval(means, generator, binary=binary, method=method, resamples=resamples)
    sd = float(np.std(means, ddof=1)) if len(means) > 1 else None
    return Summary(len(means), games, float(means.mean()), *(ci or (None, None)), sd, icc(people))


def learning_curve(people: Sequence[Sequence[float]], generator: np.random.Generator, *,
                   binary: bool) -> list[tuple[int, Summary]]:
    """The estimate at each game position (a person's first game, second, ...), over the people who
    played that many: each point has one value per person, its interval is over those people."""
    longest = max((len(v) for v in people), default=0)
    return [(i, summarise([[v[i]] for v in people if len(v) > i], generator, binary=binary))
            for i in range(longest)]


def paired(differences: Sequence[Sequence[float]], generator: np.random.Generator) -> Summary:
    """A person against a model on the same deals: ``differences`` holds, per person, their value minus
    the model's on each deal they shared; the mean over people of their mean difference, bootstrapped
    over people (the model's games are taken as given)."""
    return summarise(differences, generator, binary=False)
