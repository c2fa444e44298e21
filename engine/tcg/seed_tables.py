"""TCG-Bench's tables the report builds on request (``tcgtui report --table NAME``).

- ``paper_scaling`` (its Table 1): per rollout level K, the mean and standard
  deviation of the models' win rates; ``paper_fits`` fits both decay forms to
  those means, the paper's exponential in K, ``a·exp(−b·K)``, and ours,
  ``a·exp(−b·ln K)`` (see ``analyses``), each with its R².
- ``wide`` (its Table 7): a model per row, a rollout level per column, the win
  rate and its interval in each cell, with language and organisation.
- ``families`` (its Table 5): card-type shares per model family.
- ``sizes`` (its Table 6): mean win rate per model-size range, opponent and
  language, each model once, with Pearson's r between size and win rate inside
  the range, and over every size (``all``: the paper's overall r = 0.31).
- ``paper_summary`` (its Table 2): the run-wide totals, turns counted per game
  and per player (the paper's 11.4), and the branching factor.
- ``branching``: the mean number of legal moves per decision (its §4.2's ≈ 3.5),
  found by replaying each finished game (``context.legal_moves``).
- ``language_scale`` (its Figure 2): the relative language gap against size.
- ``thinking`` (its Figure 5): win rate per K of models in thinking and in regular mode.
Families, organisations, sizes and modes are models' facts (the model registry's),
read through ``context.facts(agent)``; a model without them is "no facts".  The
models are the ``llm:`` players and those with facts; the rest (random, the
search opponents, people) are baselines, left out of the models' means.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from tcgtui.engine.decision_facts import DecisionFacts
from tcgtui.engine.registry import Figure, SeedTable
from tcgtui.engine.stats import mean, median, sample_variance
from tcgtui.engine.tcg.analysis import CARD_TYPES, _rates, fit_decay, language_gaps, opponent_k

Row = dict[str, Any]
NO_FACTS = "no facts"
PAPER_FORM = "w(K) = a·exp(−b·K)"
SIZE_RANGES = ((0.0, 10.0, "<10B"), (10.0, 50.0, "10-50B"), (50.0, 100.0, "50-100B"), (100.0, math.inf, ">100B"))
ALL_SIZES = "all"
ALL_RUNS = "all"
MODES = ("regular", "thinking")
MODEL_PREFIX = "llm:"


def is_model(agent: str, context: Any) -> bool:
    """A language model (an ``llm:`` player, or one with the registry's facts), not a baseline."""
    return context.facts(agent) is not None or context.base.get(agent, agent).startswith(MODEL_PREFIX)


def _exp_k(k: np.ndarray, a: float, b: float) -> np.ndarray:
    return a * np.exp(-b * k)


def fit_exp_k(ks: Sequence[float], rates: Sequence[float]) -> tuple[float, float, float | None] | None:
    """The paper's form, ``a·exp(−b·K)``, by least squares on the win rates; (a, b, R²)."""
    # start-up time: scipy only when the decay is fitted
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


def _levels(games: list[Any], context: Any) -> dict[tuple[str, str], dict[int, dict[str, float]]]:
    """(opponent family, language) -> K -> model -> win rate (the baselines are not models)."""
    out: dict[tuple[str, str], dict[int, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for r in _rates(games):
        family, k = opponent_k(r["opponent"])
        if family and k is not None and r["win_rate"] is not None and is_model(r["agent"], context):
            out[(family, r["lang"])][k][r["agent"]] = r["win_rate"]
    return out


def paper_scaling(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (family, lang), by_k in sorted(_levels(games, context).items()):
        for k in sorted(by_k):
            rates = list(by_k[k].values())
            var = sample_variance(rates)
            rows.append(
                {
                    "opponent": family,
                    "lang": lang,
                    "k": k,
                    "models": len(rates),
                    "mean_win_rate": mean(rates),
                    "sd_win_rate": None if var is None else math.sqrt(var),
                }
            )
    return rows


def paper_fits(games: list[Any], context: Any) -> list[Row]:
    """Both forms fitted to the mean win rate per K across models (paper_scaling's means)."""
    rows = []
    for (family, lang), by_k in sorted(_levels(games, context).items()):
        ks = sorted(by_k)
        found = [mean(list(by_k[k].values())) for k in ks]
        means = [m for m in found if m is not None]
        assert len(means) == len(ks)  # each K has its models' rates
        paper = fit_exp_k(ks, means)
        ours = fit_decay(ks, means)
        rows.append(
            {
                "opponent": family,
                "lang": lang,
                "form": PAPER_FORM,
                "points": len(ks),
                "a": paper[0] if paper else None,
                "b": paper[1] if paper else None,
                "r2": paper[2] if paper else None,
            }
        )
        rows.append(
            {
                "opponent": family,
                "lang": lang,
                "form": "w(K) = a·exp(−b·ln K)",
                "points": len(ks),
                "a": ours.a if ours else None,
                "b": ours.b if ours else None,
                "r2": ours.r2 if ours else None,
            }
        )
    return rows


def wide(games: list[Any], context: Any) -> list[Row]:
    """One row per model, language and opponent family; per K its win rate, interval and games."""
    cells: dict[tuple[str, str, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for g in games:
        family, k = opponent_k(g.opponent)
        if family is None or k is None or g.result is None:  # a family comes with its K
            continue
        for name in g.groups():
            c = cells[(name, g.lang, family)][k]
            c[0] += g.result == "win"
            c[1] += 1
    rows = []
    for (agent, lang, family), by_k in sorted(cells.items()):
        facts = context.facts(agent) or {}
        row: Row = {
            "organisation": facts.get("organisation") or NO_FACTS,
            "agent": agent,
            "lang": lang,
            "opponent": family,
        }
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
        rows.append(
            {
                "family": family,
                "models": len(models[family]),
                "cards": total,
                **{t: (int(n) / total if total else None) for t, n in zip(CARD_TYPES, c)},
            }
        )
    return rows


def _pearson(x: list[float], y: list[float]) -> float | None:
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def sizes(games: list[Any], context: Any) -> list[Row]:
    """Per size range, opponent and language: the models' mean win rate and Pearson's r between size
    and win rate (three models or more), each model once; then over every size (``all``); models
    without a size counted under "no facts"."""
    by: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    missing: dict[tuple[str, str], int] = defaultdict(int)
    for r in _rates(games):
        if r["win_rate"] is None or not is_model(r["agent"], context):
            continue
        size = (context.facts(r["agent"]) or {}).get("parameters_b")
        if size is None:
            missing[(r["opponent"], r["lang"])] += 1
            continue
        label = next(lab for lo, hi, lab in SIZE_RANGES if lo <= float(size) < hi)
        by[(label, r["opponent"], r["lang"])].append((float(size), r["win_rate"]))
        by[(ALL_SIZES, r["opponent"], r["lang"])].append((float(size), r["win_rate"]))
    order = {lab: i for i, (_, _, lab) in enumerate(SIZE_RANGES)}
    order[ALL_SIZES] = len(order)
    rows = [
        {
            "size_range": lab,
            "opponent": opp,
            "lang": lang,
            "models": len(v),
            "mean_win_rate": mean([w for _, w in v]),
            "pearson_r": _pearson([s for s, _ in v], [w for _, w in v]),
        }
        for (lab, opp, lang), v in sorted(by.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], kv[0][2]))
    ]
    rows += [
        {"size_range": NO_FACTS, "opponent": opp, "lang": lang, "models": n, "mean_win_rate": None, "pearson_r": None}
        for (opp, lang), n in sorted(missing.items())
    ]
    return rows


def paper_summary(games: list[Any], context: Any) -> list[Row]:
    """Table 2's totals over the report's games, per run and (with more than one) over all: games
    finished, models, languages, difficulty levels (the opponents models met), turns per game and
    per player (a game's turns count both players'), the median decision time and mean tokens of
    the measured players' decisions, and the branching factor where the games can be replayed."""
    own = [g for g in games if not g.mirror]
    runs = sorted({g.run or "-" for g in own})
    chosen = [(run, [g for g in own if (g.run or "-") == run]) for run in runs]
    if len(runs) > 1:
        chosen.append((ALL_RUNS, own))
    facts = DecisionFacts.of(games)
    position = {id(g): i for i, g in enumerate(games)}
    rows = []
    for run, gs in chosen:
        done = [g for g in gs if g.status == "finished"]
        mask = np.zeros(len(games), bool)
        mask[[position[id(g)] for g in done]] = True
        decisions = facts.of_games(mask)
        models = {g.agent for g in done if is_model(g.agent, context)}
        turns = [g.turns for g in done]
        replay = _branching(done, context)
        rows.append(
            {
                "run": run,
                "games": len(done),
                "models": len(models),
                "players": len({g.agent for g in done}),
                "languages": len({g.lang for g in done}),
                "levels": len({g.opponent for g in done if g.agent in models}),
                "mean_turns": mean(turns),
                "mean_turns_per_player": None if (m := mean(turns)) is None else m / 2,
                "median_decision_s": median(facts.seconds[decisions]),
                "mean_tokens_per_turn": mean(facts.tokens[decisions & facts.has_tokens]),
                "branching_factor": None if replay is None else mean([n for _, n in replay[0]]),
            }
        )
    return rows


def _branching(games: list[Any], context: Any) -> tuple[list[tuple[bool, int]], int] | None:
    """Per decision of the games that could be replayed (both seats), whether the measured player
    made it and how many legal moves it had, and how many games were replayed; None when the
    report has no store to replay them from."""
    reader = getattr(context, "legal_moves", None)
    if reader is None:
        return None
    counts = reader([g.id for g in games]) if games else {}
    found = [(seat == g.seat, n) for g in games for seat, n in counts.get(g.id, ())]
    return found, sum(1 for g in games if g.id in counts)


def branching(games: list[Any], context: Any) -> list[Row]:
    """Per player, opponent and language: the mean number of legal moves per decision over every
    decision of its finished games (both seats), and over its own decisions."""
    cells: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
    for g in games:
        if g.status == "finished" and not g.mirror:
            for name in g.groups():
                cells[(name, g.opponent, g.lang)].append(g)
    rows = []
    for (agent, opponent, lang), gs in sorted(cells.items()):
        replay = _branching(gs, context)
        if replay is None:
            return []
        found, replayed = replay
        rows.append(
            {
                "agent": agent,
                "opponent": opponent,
                "lang": lang,
                "games": len(gs),
                "replayed": replayed,
                "decisions": len(found),
                "branching_factor": mean([n for _, n in found]),
                "own_branching_factor": mean([n for mine, n in found if mine]),
            }
        )
    return rows


def language_scale(games: list[Any], context: Any) -> list[Row]:
    """Each model's relative gap of a language against English (``language_gap``), beside its size."""
    rows = []
    for r in language_gaps(_rates(games)):
        facts = context.facts(r["agent"]) or {}
        if r["relative_gap"] is None or facts.get("parameters_b") is None or not is_model(r["agent"], context):
            continue
        rows.append(
            {
                "family": facts.get("family") or NO_FACTS,
                "agent": r["agent"],
                "opponent": r["opponent"],
                "lang": r["lang"],
                "parameters_b": float(facts["parameters_b"]),
                "en_win_rate": r["en_win_rate"],
                "win_rate": r["win_rate"],
                "relative_gap": r["relative_gap"],
            }
        )
    return sorted(rows, key=lambda r: (r["family"], r["opponent"], r["lang"], r["parameters_b"]))


def thinking(games: list[Any], context: Any) -> list[Row]:
    """Per model with a mode (thinking or regular), language and K: its win rate and interval."""
    cells: dict[tuple[str, str, str, str, int], list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        family, k = opponent_k(g.opponent)
        if family is None or k is None or g.result is None:  # a family comes with its K
            continue
        for name in g.groups():
            mode = (context.facts(name) or {}).get("mode")
            if mode in MODES:
                c = cells[(mode, name, g.lang, family, k)]
                c[0] += g.result == "win"
                c[1] += 1
    rows = []
    for (mode, agent, lang, family, k), (wins, n) in sorted(cells.items()):
        low, high = context.interval(wins, n, f"{agent}|{lang}|{family}:{k}") or (None, None)
        rows.append(
            {
                "mode": mode,
                "agent": agent,
                "lang": lang,
                "opponent": family,
                "k": k,
                "games": n,
                "win_rate": wins / n,
                "ci_low": low,
                "ci_high": high,
            }
        )
    return rows


def tables() -> tuple[SeedTable, ...]:
    return (
        SeedTable(
            "paper_scaling",
            "TCG-Bench Table 1",
            paper_scaling,
            Figure("line", "k", "mean_win_rate", ("opponent", "lang"), log_x=True, percent_y=True),
        ),
        SeedTable("paper_fits", "TCG-Bench Table 1 (its exponential fit beside the power law)", paper_fits),
        SeedTable("wide", "TCG-Bench Table 7", wide),
        SeedTable("families", "TCG-Bench Table 5", families),
        SeedTable("sizes", "TCG-Bench Table 6", sizes),
        SeedTable("paper_summary", "TCG-Bench Table 2", paper_summary),
        SeedTable("branching", "TCG-Bench §4.2 (branching factor)", branching),
        SeedTable(
            "language_scale",
            "TCG-Bench Figure 2",
            language_scale,
            Figure("line", "parameters_b", "relative_gap", ("family", "opponent", "lang"), log_x=True, percent_y=True),
        ),
        SeedTable(
            "thinking",
            "TCG-Bench Figure 5",
            thinking,
            Figure(
                "line",
                "k",
                "win_rate",
                ("agent", "mode", "lang", "opponent"),
                low="ci_low",
                high="ci_high",
                log_x=True,
                percent_y=True,
            ),
        ),
    )
