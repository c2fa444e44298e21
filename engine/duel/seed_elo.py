"""The Token Games' three Elo ratings, computed as its ``elo.py`` computes them, and their correlations.

The seed rates from every round of every duel: the **match** rating has one comparison per duel (the
player with more points wins it: a solver's failure is a point to the proposer, a failed sample one to the
solver, a solved puzzle half a point to each; equal points a draw), the **proposer** rating one per round
(unsolved: the proposer wins; failed sample: the solver wins; solved: a draw) and the **solver** rating one
per round (solved or failed sample: the solver wins; else the proposer).  A draw counts half a win each.

The fit is the seed's: maximum likelihood of ``P(a beats b) = 1/(1 + 10^((R_b − R_a)/400))``, the first
player by name fixed at 1000, by gradient descent from 1000 with the gradient taken by forward
differences (step 10⁻⁴), a step size of 10 shrunk by 0.9 every 500 iterations, until the largest partial
derivative is below 10⁻⁶ or 5000 iterations have run.  Unlike tcgtui's Bradley–Terry ratings there is
no prior, so a player who never loses drifts as far as the iterations take it, and no interval.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np

from tcgtui.engine.duel.state import FAILURE, PUZZLE_WRONG, SUCCESS

BASE = 1000.0
STEP, RATE, DECAY, DECAY_EVERY, ITERATIONS, TOLERANCE, FLOOR = 1e-4, 10.0, 0.9, 500, 5000, 1e-6, 1e-10
KINDS = ("match", "proposer", "solver")

Comparison = tuple[str, str, bool]  # (winner, loser, a draw), as the seed lists them


def comparisons(duels: Iterable[tuple[tuple[str, str], list[tuple[str, str, str]]]]) -> dict[str, list[Comparison]]:
    """The three ratings' comparisons from duels given as ((first, second), [(proposer, solver, outcome)])."""
    out: dict[str, list[Comparison]] = {kind: [] for kind in KINDS}
    for (first, second), rounds in duels:
        points: dict[str, float] = defaultdict(float)
        for proposer, solver, outcome in rounds:
            stumped, wrong = outcome.startswith(FAILURE), outcome.startswith(PUZZLE_WRONG)
            if stumped:
                points[proposer] += 1
                out["proposer"].append((proposer, solver, False))
                out["solver"].append((proposer, solver, False))
            elif wrong:
                points[solver] += 1
                out["proposer"].append((solver, proposer, False))
                out["solver"].append((solver, proposer, False))
            elif outcome == SUCCESS:
                points[proposer] += 0.5
                points[solver] += 0.5
                out["proposer"].append((proposer, solver, True))
                out["solver"].append((solver, proposer, False))
        a, b = points[first], points[second]
        out["match"].append(
            (first, second, False) if a > b else (second, first, False) if b > a else (first, second, True)
        )
    return out


def fit(results: list[Comparison]) -> dict[str, float]:
    """Each player's rating as the seed's gradient descent leaves it (the first by name at 1000)."""
    players = sorted({p for winner, loser, _ in results for p in (winner, loser)})
    if len(players) < 2:
        return {p: BASE for p in players}
    index = {p: i for i, p in enumerate(players)}
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])  # a's wins, b's wins, draws
    for winner, loser, draw in results:
        a, b = sorted((index[winner], index[loser]))
        counts[(a, b)][2 if draw else 0 if index[winner] == a else 1] += 1
    first = np.array([k[0] for k in counts])
    second = np.array([k[1] for k in counts])
    c = np.array(list(counts.values()), dtype=float)
    n = len(players)
    x = np.full(n, BASE)
    rate = RATE
    shifted = np.arange(1, n)
    for iteration in range(ITERATIONS):
        trial = np.tile(x, (n, 1))  # row 0: x; row i: x with player i moved by STEP
        trial[shifted, shifted] += STEP
        p = 1.0 / (1.0 + np.power(10.0, (trial[:, second] - trial[:, first]) / 400.0))
        log_p, log_q = np.log(np.maximum(p, FLOOR)), np.log(np.maximum(1.0 - p, FLOOR))
        nll = -(c[:, 0] * log_p + c[:, 1] * log_q + c[:, 2] * 0.5 * (log_p + log_q)).sum(axis=1)
        grad = (nll[1:] - nll[0]) / STEP
        if np.max(np.abs(grad)) < TOLERANCE:
            break
        x[1:] -= rate * grad
        if iteration > 0 and iteration % DECAY_EVERY == 0:
            rate *= DECAY
    return {p: float(x[i]) for i, p in enumerate(players)}


def correlation(xs: list[float], ys: list[float]) -> dict[str, Any]:
    """Spearman's ρ and Pearson's r with their two-sided p-values, as the seed's ``analysis.py`` reports
    them (None below three pairs, where it reports nothing)."""
    if len(xs) < 3:
        return {"players": len(xs), "spearman": None, "spearman_p": None, "pearson": None, "pearson_p": None}
    # only a report that asks for a correlation loads scipy.stats
    from scipy import stats

    rho, rho_p = stats.spearmanr(xs, ys)
    r, r_p = stats.pearsonr(xs, ys)
    return {
        "players": len(xs),
        "spearman": float(rho),
        "spearman_p": float(rho_p),
        "pearson": float(r),
        "pearson_p": float(r_p),
    }
