"""The person-clustered statistics of a study (tcgtui.report.people): its estimates on tiny
datasets worked by hand, and the coverage of its interval on simulated people with known
strengths, against the pooled binomial interval that treats every game as independent."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

from study_population import Population, coverage
from tcgtui.engine.stats import clopper_pearson
from tcgtui.report import people

# Three people: one won all 3 games, one lost both of 2, one won 1 of 2.
TINY = [[1.0, 1.0, 1.0], [0.0, 0.0], [1.0, 0.0]]


def test_the_estimate_weighs_every_person_the_same():
    s = people.summarise(TINY, people.rng(0, "tiny"), binary=True)
    assert (s.people, s.games) == (3, 7)
    assert s.estimate == pytest.approx(0.5)            # (1 + 0 + 0.5) / 3, not the pooled 4/7
    assert s.sd == pytest.approx(0.5)                  # SD of 1, 0, 0.5
    assert s.low is None and s.high is None            # three people: too few for an interval
    s = people.summarise(TINY * 2, people.rng(0, "tiny"), binary=True)
    assert (s.people, s.estimate) == (6, pytest.approx(0.5))
    assert 0 <= s.low < s.estimate < s.high <= 1


def test_the_icc_by_hand():
    # one-way ANOVA: grand mean 4/7; MSB = (3(3/7)^2 + 2(4/7)^2 + 2(1/14)^2) / 2; MSW = 0.5 / 4;
    # k0 = (7 - 17/7) / 2 = 16/7; ICC = (MSB - MSW) / (MSB + (k0 - 1) MSW)
    msb = (3 * (3 / 7) ** 2 + 2 * (4 / 7) ** 2 + 2 * (1 / 14) ** 2) / 2
    msw = 0.5 / 4
    k0 = 16 / 7
    assert people.icc(TINY) == pytest.approx((msb - msw) / (msb + (k0 - 1) * msw))
    assert people.icc([[1, 1], [1, 1]]) is None                  # no variation at all
    assert people.icc([[1, 0], [0, 1]]) == 0.0                   # all of it within people: clipped at 0


def test_the_same_seed_and_row_give_the_same_interval_and_another_row_another():
    means = people.person_means(TINY * 3 + [[0.0, 1.0, 1.0]])
    first = people.interval(means, people.rng(3, "row"), binary=True)
    assert first == people.interval(means, people.rng(3, "row"), binary=True)
    assert first != people.interval(means, people.rng(3, "other row"), binary=True)


def test_bca_agrees_with_scipys():
    """Our BCa (without the expansion) against scipy.stats.bootstrap's on the same person means."""
    means = np.array([0.0, 0.1, 0.2, 0.2, 0.4, 0.5, 0.9, 1.0, 1.0, 0.3, 0.0, 0.7])
    ours = people.interval(means, people.rng(0, "bca"), binary=True, method="bca", resamples=40_000)
    theirs = scipy_stats.bootstrap((means,), np.mean, method="BCa", n_resamples=40_000,
                                   random_state=np.random.default_rng(1)).confidence_interval
    assert ours == pytest.approx((theirs.low, theirs.high), abs=0.01)
    expanded = people.interval(means, people.rng(0, "bca"), binary=True, resamples=40_000)
    assert expanded[0] < ours[0] and expanded[1] > ours[1]       # the expansion only widens


def test_everyone_alike_at_zero_or_one_gets_the_exact_interval_over_people():
    assert people.interval(np.zeros(5), people.rng(0, "x"), binary=True) == clopper_pearson(0, 5)
    assert people.interval(np.ones(5), people.rng(0, "x"), binary=True) == clopper_pearson(5, 5)
    assert people.interval(np.full(5, 2.5), people.rng(0, "x"), binary=False) == (2.5, 2.5)   # a score
    assert people.interval(np.ones(people.MIN_PEOPLE - 1), people.rng(0, "x"), binary=True) is None


def test_learning_curve_counts_the_people_at_each_position():
    curve = people.learning_curve([[1, 0, 1], [1, 1], [0]] * 2, people.rng(0, "curve"), binary=True)
    assert [(i, s.people, s.games) for i, s in curve] == [(0, 6, 6), (1, 4, 4), (2, 2, 2)]
    assert [s.estimate for _, s in curve] == pytest.approx([2 / 3, 0.5, 1.0])
    assert curve[0][1].low is not None and curve[2][1].low is None     # two people: no interval


def test_paired_difference_is_the_mean_over_people_of_their_mean_difference():
    s = people.paired([[1.0, 0.0, 1.0], [-1.0]], people.rng(0, "paired"))
    assert s.estimate == pytest.approx((2 / 3 - 1) / 2)
    assert (s.people, s.games) == (2, 4)


# Coverage: 800 simulated studies each; with a fixed seed the figures are fixed, and the tolerance
# says what "about 95%" means: within 0.03 of it (3.9 standard errors of a share of 800 at 0.95).
STUDIES, TOLERANCE = 800, 0.03


@pytest.mark.parametrize("size", [10, 20])
def test_the_clustered_interval_covers_the_population_rate_and_the_pooled_one_does_not(size):
    """People differ (20% always win, 15% never, the rest Beta(2, 3); 9 games each, 20% drop out):
    the person-clustered interval covers the true rate about 95% of the time, the pooled binomial
    interval, treating the games as independent, clearly less."""
    found = coverage(seed=size, studies=STUDIES, population=Population(), people=size, games=9)
    assert abs(found["bca-expanded"] - 0.95) <= TOLERANCE, found
    assert found["pooled"] < 0.8, found


def test_the_plain_percentile_interval_under_covers_with_ten_people():
    """Why the report's interval is the expanded BCa: resampling ten people, the plain percentile
    interval is too narrow (the variance of a resampled mean divides by n, not n - 1)."""
    found = coverage(seed=10, studies=STUDIES, population=Population(), people=10, games=9,
                     methods=("percentile",))
    assert found["percentile"] < 0.95 - TOLERANCE / 2, found


def test_when_people_do_not_differ_both_intervals_cover():
    """A population of equals (everyone p = 0.4): games are independent draws, so the pooled interval
    is right too; the clustered one still covers about 95%."""
    equals = Population(always=0.0, never=0.0, a=4e6, b=6e6)
    found = coverage(seed=3, studies=STUDIES, population=equals, people=20, games=9)
    assert abs(found["bca-expanded"] - 0.95) <= TOLERANCE, found
    assert found["pooled"] >= 0.95 - TOLERANCE, found
