"""TCG-Bench's tables the report builds on request (``tcgtui report --table NAME``).

- ``paper_scaling`` (its Table 1): per rollout level K, the mean and standard
  deviation of the models' win rates; ``paper_fits`` fits both decay forms to
  those means, the paper's exponential in K, ``a·exp(−b·K)``, and ours,
  ``a·exp(−b·ln K)`` (see ``analyses``), each with its R².
- ``wide`` (its Table 7): a model per row, a rollout level per column, the win
  rate and its interval in each cell, with language and organisation.
- ``families`` (its Table 5): card-type shares per model family.
- ``sizes`` (its Table 6): mean win rate per model-size range, with Pearson's r
  between size and win rate inside the range.
Families, organisations and sizes are models' facts (the model registry's),
read through ``context.facts(agent)``; a model without them is "no facts".
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from tcgtui.engine.decision_facts import DecisionFacts
from tcgtui.engine.registry import Figure, SeedTable
from tcgtui.engine.stats import mean, sample_variance
from tcgtui.engine.tcg.analysis import CARD_TYPES, _rates, fit_decay, opponent_k

Row = dict[str, Any]
NO_FACTS = "no facts"
PAPER_FORM = "w(K) = a·exp(−b·K)"
SIZE_RANGES = ((0.0, 10.0, "<10B"), (10.0, 50.0, "10-50B"), (50.0, 100.0, "50-100B"), (100.0, math.inf, ">100B"))


def _exp_k(k: np.ndarray, a: float, b: float) -> np.ndarray:
    return a * np.exp(-b * k)


def fit_exp_k(ks: list[float], rates: list[float]) -> tuple[float, float, float | None] | None:
    """The paper's form, ``a·exp(−b·K)``, by least squares on the win rates; (a, b, R²)."""
    from scipy.optimize import curve_fit
    k, w = np.asarray(ks, float), np.asarray(rates, float)
    if len(set(ks)) < 3:
        return None
    try:
        (a, b), _ = curve_fit(_exp_k, k, w, p0=(max(float(w[np.argmin(k)]), 1e-3), 0.1), maxfev=20000)
    except (RuntimeError, ValueError):
        return None
    res = w - _exp_k(k, a, b)
    total = float(np.sum((w - w.mean()) ** 2))
    return float(a), float(b), (None if total == 0 else 1.0 - float(res @ res) / total)


def _levels(games: list[Any]) -> dict[tuple[str, str], dict[int, dict[str, float]]]:
    """(opponent family, language) -> K -> agent -> win rate."""
    out: dict[tuple[str, str], dict[int, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for r in _rates(games):
        family, k = opponent_k(r["opponent"])
        if family and r["win_rate"] is not None:
            out[(family, r["lang"])][k][r["agent"]] = r["win_rate"]
    return out


def paper_scaling(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (family, lang), by_k in sorted(_levels(games).items()):
        for k in sorted(by_k):
            rates = list(by_k[k].values())
            var = sample_variance(rates)
            rows.append({"opponent": family, "lang": lang, "k": k, "models": len(rates), "mean_win_rate": mean(rates),
                         "sd_win_rate": None if var is None else math.sqrt(var)})
    return rows


def paper_fits(games: list[Any], context: Any) -> list[Row]:
    """Both forms fitted to the mean win rate per K across models (paper_scaling's means)."""
    rows = []
    for (family, lang), by_k in sorted(_levels(games).items()):
        ks = sorted(by_k)
        means = [mean(list(by_k[k].values())) for k in ks]
        paper = fit_exp_k(ks, means)
        ours = fit_decay(ks, means)
        rows.append({"opponent": family, "lang": lang, "form": PAPER_FORM, "points": len(ks),
                     "a": paper[0] if paper else None, "b": paper[1] if paper else None,
                     "r2": paper[2] if paper else None})
        rows.append({"opponent": family, "lang": lang, "form": "w(K) = a·exp(−b·ln K)", "points": len(ks),
                     "a": ours.a if ours else None, "b": ours.b if ours else None, "r2": ours.r2 if ours else None})
    return rows


def wide(games: list[Any], context: Any) -> list[Row]:
    """One row per model, language and opponent family; per K its win rate, interval and games."""
    cells: dict[tuple[str, str, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for g in games:
        family, k = opponent_k(g.opponent)
        if family is None or g.result is None:
            continue
        for name in g.groups():
            c = cells[(name, g.lang, family)][k]
            c[0] += g.result == "win"
            c[1] += 1
    rows = []
    for (agent, lang, family), by_k in sorted(cells.items()):
        facts = context.facts(agent) or {}
        row: Row = {"organisation": facts.get("organisation") or NO_FACTS, "agent": agent, "lang": lang,
                    "opponent": family}
        for k in sorted(by_k):
            wins, n = by_k[k]
            low, high = context.interval(wins, n, f"{agent}|{lang}|{family}:{k}") or (None, None)
            row.update({f"k{k}_games": n, f"k{k}_win_rate": wins / n, f"k{k}_ci_low": low, f"k{k}_ci_high": high})
        rows.append(row)
    return rows


def families(games: list[Any], context: Any) -> list[Row]:
    """Card-type shares of the measured players' decisions in finished games, per model family."""
    facts = DecisionFacts.of(games)
    counts: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(len(CARD_TYPES), np.int64))
    models: dict[str, set[str]] = defaultdict(set)
    for i, g in enumerate(games):
        if g.status != "finished":
            continue
        kinds = facts.kinds[i]
        for name in g.groups():
            family = (context.facts(name) or {}).get("family") or NO_FACTS
            counts[family] += [kinds.get(t, 0) for t in CARD_TYPES]
            models[family].add(name)
    rows = []
    for family, c in sorted(counts.items(), key=lambda kv: (kv[0] == NO_FACTS, kv[0])):
        total = int(c.sum())
        rows.append({"family": family, "models": len(models[family]), "cards": total,
                     **{t: (int(n) / total if total else None) for t, n in zip(CARD_TYPES, c)}})
    return rows


def _pearson(x: list[float], y: list[float]) -> float | None:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def sizes(games: list[Any], context: Any) -> list[Row]:
    """Per size range and opponent: the models' mean win rate and Pearson's r between size and win
    rate (three models or more); models without a size counted under "no facts"."""
    by: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    missing: dict[str, int] = defaultdict(int)
    for r in _rates(games):
        if r["win_rate"] is None:
            continue
        size = (context.facts(r["agent"]) or {}).get("parameters_b")
        if size is None:
            missing[r["opponent"]] += 1
            continue
        label = next(lab for lo, hi, lab in SIZE_RANGES if lo <= float(size) < hi)
        by[(label, r["opponent"])].append((float(size), r["win_rate"]))
    order = {lab: i for i, (_, _, lab) in enumerate(SIZE_RANGES)}
    rows = [{"size_range": lab, "opponent": opp, "models": len(v), "mean_win_rate": mean([w for _, w in v]),
             "pearson_r": _pearson([s for s, _ in v], [w for _, w in v])}
            for (lab, opp), v in sorted(by.items(), key=lambda kv: (order[kv[0][0]], kv[0][1]))]
    rows += [{"size_range": NO_FACTS, "opponent": opp, "models": n, "mean_win_rate": None, "pearson_r": None}
             for opp, n in sorted(missing.items())]
    return rows


def tables() -> tuple[SeedTable, ...]:
    return (
        SeedTable("paper_scaling", "TCG-Bench Table 1", paper_scaling,
                  Figure("line", "k", "mean_win_rate", ("opponent", "lang"), log_x=True, percent_y=True)),
        SeedTable("paper_fits", "TCG-Bench Table 1 (its exponential fit beside the power law)", paper_fits),
        SeedTable("wide", "TCG-Bench Table 7", wide),
        SeedTable("families", "TCG-Bench Table 5", families),
        SeedTable("sizes", "TCG-Bench Table 6", sizes),
    )

