"""Simulated studies of people with known strengths, for the coverage of the person-clustered interval.

A population is a mixture: a share of people who always win (p = 1), a share who never
do (p = 0), the rest with p drawn from Beta(a, b); its true rate is the mean p.  A study
samples ``people`` of them; each plays ``games`` games, except that each person drops out
with probability ``dropout`` after a uniform number of games (1 to games - 1), unrelated to
their strength.  Used by tests/test_study_stats.py and scripts/study_coverage.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tcgtui.engine.stats import clopper_pearson
from tcgtui.report import people as stats


@dataclass(frozen=True)
class Population:
    always: float = 0.2          # share of people who always win
    never: float = 0.15          # share who never win
    a: float = 2.0               # the rest: p ~ Beta(a, b)
    b: float = 3.0

    @property
    def rate(self) -> float:
        return self.always + (1 - self.always - self.never) * self.a / (self.a + self.b)

    def draw(self, rng: np.random.Generator, n: int) -> np.ndarray:
        kind = rng.choice(3, size=n, p=[self.always, self.never, 1 - self.always - self.never])
        return np.where(kind == 0, 1.0, np.where(kind == 1, 0.0, rng.beta(self.a, self.b, size=n)))


def study(rng: np.random.Generator, population: Population, people: int, games: int,
          dropout: float) -> list[np.ndarray]:
    """One study's results: per person, their games' 0/1 results."""
    p = population.draw(rng, people)
    played = np.where(rng.random(people) < dropout, rng.integers(1, games, size=people), games)
    return [(rng.random(g) < pi).astype(float) for pi, g in zip(p, played)]


def coverage(seed: int, studies: int, population: Population, people: int, games: int, dropout: float = 0.2,
             methods: tuple[str, ...] = stats.METHODS[:1], resamples: int = stats.RESAMPLES) -> dict[str, float]:
    """The share of ``studies`` simulated studies whose interval covers the population's rate: for each
    clustered method, and for the pooled Clopper–Pearson interval over games ("pooled")."""
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys((*methods, "pooled"), 0)
    truth = population.rate
    for _ in range(studies):
        results = study(rng, population, people, games, dropout)
        means = stats.person_means(results)
        for method in methods:
            low, high = stats.interval(means, rng, binary=True, method=method, resamples=resamples)
            hits[method] += low <= truth <= high
        wins, total = int(sum(r.sum() for r in results)), sum(len(r) for r in results)
        low, high = clopper_pearson(wins, total)
        hits["pooled"] += low <= truth <= high
    return {k: v / studies for k, v in hits.items()}
