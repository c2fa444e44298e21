"""How many games does each method need to order adjacent players of known order at 95%?

Issue 40's ladder experiment (docs/quality.md, "Rankings from fewer games"): players of known
strength (random, mc:1, 2, 5, 10, 100, 1000) each played a fixed opponent; this script reads their
stored games and, for each adjacent pair, re-draws experiments of n games per player (with
replacement, from the stored games: the empirical distribution stands in for the player) and
counts how often each method orders the pair the right way at 95%:

  win rate     a fixed number of games, the difference of the two win rates judged by Newcombe's
               hybrid score interval (each rate's Wilson interval combined), ordered when it
               excludes 0;
  sequential   the same games looked at after every game, each player's share under the anytime-valid
               interval `bench --until` uses (``engine.stats.confidence_sequence``) at 97.5%, so both
               hold at once with 95%; ordered when the two intervals part;
  paired test  the same stream judged game by game by an anytime-valid test of the difference: a bettor
               stakes a share of its wealth on the stronger player winning the next pair of games (the
               average over ten fixed shares from 2.5% to 80%, a test martingale); ordered when the wealth
               reaches 2 / 0.05 = 40 (Ville's inequality: at most 2.5% of the time under no difference,
               so 95% with either direction tested);
  regret       a fixed number of games, mean regret (total regret over decisions judged, as
               ``report --table quality``) with the ratio estimator's standard error over games (the
               delta method: the report's bootstrap over games approximates the same), the difference
               ordered when its 95% normal interval excludes 0.

"Games needed" is the fewest games per player (on the grid, or the sequential stopping time) by
which 80% of the re-drawn experiments have ordered the pair: the power a study would be designed
for.  Usage:

  python scripts/ladder_games_needed.py --db ladder.sqlite3 --run ladder --regret-db regret.sqlite3 \\
      --regret-run ladder-regret --evaluator mc:1000 --figure docs/figures/ladder-games-needed.png
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import sys
from pathlib import Path

import numpy as np
from scipy.special import gammaln

ORDER = ("random", "mc:1", "mc:2", "mc:5", "mc:10", "mc:100", "mc:1000")
GRID = (10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 600, 800, 1000, 1500)
Z = 1.959963984540054
POWER = 0.8


def outcomes(db: Path, run: str) -> dict[str, np.ndarray]:
    """Each measured player's finished games as 1 (won) or 0 (drew or lost), in deal order."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT g.agent, g.winner IS NOT NULL AND g.winner = g.agent_seat FROM games g JOIN runs r"
            " ON r.id = g.run_id WHERE r.name = ? AND g.status = 'finished' ORDER BY g.game_index", (run,)).fetchall()
    out: dict[str, list[int]] = {}
    for agent, won in rows:
        out.setdefault(agent, []).append(int(won))
    return {k: np.array(v, dtype=np.int8) for k, v in out.items()}


def regrets(db: Path, run: str, evaluator: str) -> dict[str, np.ndarray]:
    """Each measured player's games as rows (total regret, decisions judged), its own seat's decisions only
    (in mc:10 against mc:10 both seats are mc:10; the measured one is the game's agent seat)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT g.agent, sum(v.regret), count(*) FROM games g JOIN runs r ON r.id = g.run_id"
            " JOIN decisions d ON d.game_id = g.id AND d.seat = g.agent_seat"
            " JOIN decision_values v ON v.game_id = d.game_id AND v.idx = d.idx AND v.evaluator = ?"
            " WHERE r.name = ? AND g.status = 'finished' GROUP BY g.id ORDER BY g.game_index",
            (evaluator, run)).fetchall()
    out: dict[str, list[tuple[float, int]]] = {}
    for agent, total, count in rows:
        out.setdefault(agent, []).append((total, count))
    return {k: np.array(v, dtype=float) for k, v in out.items()}


def wilson(k: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def newcombe_low(k_hi: np.ndarray, k_lo: np.ndarray, n: int) -> np.ndarray:
    """The lower bound of Newcombe's hybrid score interval for p_hi - p_lo (his method 10)."""
    p1, p2 = k_hi / n, k_lo / n
    l1, u1 = wilson(k_hi, n)
    l2, u2 = wilson(k_lo, n)
    return p1 - p2 - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)


def cs_table(n_max: int, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The anytime-valid interval of ``engine.stats.confidence_sequence`` for every k <= n <= n_max, by
    vectorised bisection of the same mixture likelihood ratio (the library solves one at a time)."""
    n = np.concatenate([np.full(m + 1, m) for m in range(1, n_max + 1)]).astype(float)
    k = np.concatenate([np.arange(m + 1) for m in range(1, n_max + 1)]).astype(float)
    bound = math.log(1 / (1 - confidence))
    mixture = gammaln(0.5 + k) + gammaln(0.5 + n - k) - gammaln(1.0 + n) - math.log(math.pi)

    def excess(p: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):     # the np.where branch not taken
            return (mixture - np.where(k > 0, k * np.log(p), 0.0) - np.where(n - k > 0, (n - k) * np.log1p(-p), 0.0)
                    - bound)

    centre = k / n
    lo, hi = np.full_like(n, 1e-300), centre.copy()           # excess falls from + to - on (0, centre]
    for _ in range(60):
        mid = (lo + hi) / 2
        inside = excess(mid) < 0
        hi, lo = np.where(inside, mid, hi), np.where(inside, lo, mid)
    low = np.where(k == 0, 0.0, hi)
    lo, hi = centre.copy(), np.full_like(n, 1 - 1e-16)        # excess rises from - to + on [centre, 1)
    for _ in range(60):
        mid = (lo + hi) / 2
        inside = excess(mid) < 0
        lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
    high = np.where(k == n, 1.0, lo)
    start = np.concatenate([[0], np.cumsum(np.arange(2, n_max + 2))])     # row of n begins at start[n - 1]
    return low, high, start  # type: ignore[return-value]


def fixed_power(pool_lo: np.ndarray, pool_hi: np.ndarray, rng: np.random.Generator, draws: int) -> list[float]:
    """Win rate: the share of draws of n games each where the stronger player is ordered above."""
    out = []
    for n in GRID:
        k_lo = rng.choice(pool_lo, (draws, n)).sum(axis=1)
        k_hi = rng.choice(pool_hi, (draws, n)).sum(axis=1)
        out.append(float((newcombe_low(k_hi, k_lo, n) > 0).mean()))
    return out


def regret_power(pool_weak: np.ndarray, pool_strong: np.ndarray, rng: np.random.Generator,
                 draws: int) -> list[float]:
    """Mean regret: the share of draws where the weaker player's is significantly the larger."""
    out = []
    for n in GRID:
        means, variances = [], []
        for pool in (pool_weak, pool_strong):
            sample = pool[rng.integers(0, len(pool), (draws, n))]           # (draws, n, 2)
            r, d = sample[..., 0], sample[..., 1]
            m = r.sum(axis=1) / d.sum(axis=1)
            z = (r - m[:, None] * d) / d.mean(axis=1)[:, None]
            means.append(m)
            variances.append((z ** 2).sum(axis=1) / (n * (n - 1)))
        low = means[0] - means[1] - Z * np.sqrt(variances[0] + variances[1])
        out.append(float((low > 0).mean()))
    return out


def stopping_times(pool_lo: np.ndarray, pool_hi: np.ndarray, table, rng: np.random.Generator, draws: int,
                   n_max: int) -> np.ndarray:
    """Sequential win rate: the game at which each drawn pair of streams parts (n_max + 1: never)."""
    low, high, start = table
    k_lo = np.cumsum(rng.choice(pool_lo, (draws, n_max)), axis=1)
    k_hi = np.cumsum(rng.choice(pool_hi, (draws, n_max)), axis=1)
    n = np.arange(1, n_max + 1)
    parted = low[start[n - 1] + k_hi] > high[start[n - 1] + k_lo]           # (draws, n_max)
    return np.where(parted.any(axis=1), parted.argmax(axis=1) + 1, n_max + 1)


BETS = np.array([0.025, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])


def betting_times(pool_lo: np.ndarray, pool_hi: np.ndarray, rng: np.random.Generator, draws: int,
                  n_max: int) -> np.ndarray:
    """The paired test: the game at which the bettor's wealth reaches 40 (n_max + 1: never)."""
    diff = (rng.choice(pool_hi, (draws, n_max)).astype(float) - rng.choice(pool_lo, (draws, n_max)))
    log_wealth = np.cumsum(np.log1p(BETS[:, None, None] * diff[None]), axis=2)     # (bets, draws, n)
    top = log_wealth.max(axis=0)
    mixed = top + np.log(np.exp(log_wealth - top).mean(axis=0))
    parted = mixed >= math.log(2 / 0.05)
    return np.where(parted.any(axis=1), parted.argmax(axis=1) + 1, n_max + 1)


def needed(powers: list[float]) -> int | None:
    return next((n for n, p in zip(GRID, powers) if p >= POWER), None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--regret-db", type=Path, default=None)
    ap.add_argument("--regret-run", default=None)
    ap.add_argument("--evaluator", default="mc:1000")
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--figure", type=Path, default=None)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    wins = outcomes(args.db, args.run)
    regs = regrets(args.regret_db or args.db, args.regret_run or args.run, args.evaluator)
    players = [p for p in ORDER if p in wins]
    n_max = GRID[-1]
    table = cs_table(n_max, 0.975)
    print("| player | games | win rate | regret games | mean regret |")
    print("|---|---|---|---|---|")
    for p in players:
        reg = regs.get(p)
        mean = f"{reg[:, 0].sum() / reg[:, 1].sum():.4f}" if reg is not None else "-"
        print(f"| {p} | {len(wins[p])} | {wins[p].mean():.3f} | {0 if reg is None else len(reg)} | {mean} |")
    print()
    print("| pair | Δ win rate (all games) | ordered by all games | win rate | sequential | paired test | regret |")
    print("|---|---|---|---|---|---|---|")
    curves = []
    for weak, strong in zip(players, players[1:]):
        lo, hi = wins[weak], wins[strong]
        n_all = min(len(lo), len(hi))
        ordered = bool(newcombe_low(np.array([hi[:n_all].sum()]), np.array([lo[:n_all].sum()]), n_all)[0] > 0)
        fixed = fixed_power(lo, hi, rng, args.draws)
        stops = stopping_times(lo, hi, table, rng, args.draws, n_max)
        seq = float(np.quantile(stops, POWER))
        bets = betting_times(lo, hi, rng, args.draws, n_max)
        paired = float(np.quantile(bets, POWER))
        reg = (regret_power(regs[weak], regs[strong], rng, args.draws)
               if weak in regs and strong in regs else [float("nan")] * len(GRID))
        show = [needed(fixed), None if seq > n_max else int(math.ceil(seq)),
                None if paired > n_max else int(math.ceil(paired)), needed(reg)]
        cells = [str(v) if v is not None else f"> {n_max}" for v in show]
        print(f"| {weak} / {strong} | {hi.mean() - lo.mean():+.3f} | {'yes' if ordered else 'no'} | "
              + " | ".join(cells) + " |")
        curves.append((f"{weak} < {strong}", fixed, stops, bets, reg))
    if args.figure:
        draw(curves, n_max, args.figure)
    return 0


def draw(curves, n_max: int, path: Path) -> None:
    # the script's figure only: matplotlib loads when one is asked for
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cols = 3
    rows = math.ceil(len(curves) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), sharex=True, sharey=True, squeeze=False)
    grid = np.array(GRID)
    for ax, (title, fixed, stops, bets, reg) in zip(axes.flat, curves):
        ax.plot(grid, fixed, "o-", label="win rate (fixed n)")
        ax.plot(grid, [(stops <= n).mean() for n in grid], "s-", label="win rate (two sequences)")
        ax.plot(grid, [(bets <= n).mean() for n in grid], "d-", label="win rate (paired sequential test)")
        ax.plot(grid, reg, "^-", label="mean regret (fixed n)")
        ax.axhline(POWER, color="grey", lw=0.8, ls="--")
        ax.axvline(60, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_title(title)
        ax.set_ylim(-0.02, 1.02)
    for ax in axes.flat[len(curves):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("games per player")
    for ax in axes[:, 0]:
        ax.set_ylabel("share ordered at 95%")
    axes.flat[0].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
