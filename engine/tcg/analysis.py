"""The card game's own report sections, as pure functions of the report's games.

``sections(games)`` returns ``{name: [row dicts]}`` for the sections only the
card game has: the decay of win rate with opponent strength K, the language
gap, game summaries with card-type shares, the paper's error patterns (its
Table 3) and the temporal quarters.  The common sections (win rates, parse
paths, decision time...) are the report's own.

A game here is any object with ``agent``, ``opponent``, ``lang``, ``run``,
``index``, ``status``, ``turns``, ``result`` ('win', 'loss', 'draw' or None),
``groups()`` (the agent rows it counts in), and ``facts`` and ``position``: what
the measured player's decisions add up to (``tcgtui.engine.decision_facts``:
card types played, distinct cards, decision times and tokens in move order).

The decay form is ``w(K) = a·exp(−b·ln K) = a·K^(−b)``: exponential in log K.
The paper's K values span three decades (1 to 1000); ``a·exp(−b·K)`` would put
every point past K≈10 on the floor (on the paper's Table 1 means it reaches
R² 0.90 against 0.99 for this form), while this form decays by the same
factor per tenfold K, which is how the data fall.  ``a`` is the fitted win
rate at K=1 and ``b`` the decay per unit of ln K.  It is fitted by least
squares on the win rates themselves (scipy.optimize.curve_fit) and R² is
``1 − SS_res / SS_tot`` on those win rates.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tcgtui.engine.decision_facts import DecisionFacts, codes, masks
from tcgtui.engine.stats import mean, median, sample_variance

Row = dict[str, Any]
FINISHED = "finished"
DECAY_FORM = "w(K) = a·exp(−b·ln K)"
MIN_FIT_POINTS = 3
LATE_TURN = 10  # "late losses": lost games that lasted more than this many turns
LOW_DIVERSITY = 3  # fewer distinct cards than this is "low diversity"
CARD_TYPES = ("champion", "spell", "trick")
PATTERNS = ("late_loss", "no_trick", "no_spell", "no_champion", "low_diversity")
REFERENCE_LANG = "en"
SECTIONS = ("decay", "language_gap", "summary", "error_patterns", "quarters")
NOTES = {"decay": "decay", "summary": "decisions", "error_patterns": "patterns", "quarters": "quarters"}
_SPEC = re.compile(r"^(mc|mcts):(\d+)(:peek)?$")


# --- statistics -----------------------------------------------------------------------------


def decay(k: np.ndarray, a: float, b: float) -> np.ndarray:
    return a * np.exp(-b * np.log(k))


@dataclass(frozen=True)
class DecayFit:
    a: float
    b: float
    r2: float | None  # None when every win rate is equal (nothing to explain)
    points: int


def fit_decay(ks: Sequence[float], rates: Sequence[float]) -> DecayFit | None:
    """Fit ``DECAY_FORM`` to win rates at K ≥ 1; None with fewer than three distinct K."""
    # start-up time: scipy only when the decay is fitted
    from scipy.optimize import curve_fit

    k = np.asarray(ks, dtype=float)
    w = np.asarray(rates, dtype=float)
    if len(set(k.tolist())) < MIN_FIT_POINTS or np.any(k < 1):
        return None
    start = (max(float(w[np.argmin(k)]), 1e-3), 0.5)
    try:
        (a, b), _ = curve_fit(decay, k, w, p0=start, bounds=([0.0, -np.inf], [np.inf, np.inf]), maxfev=20000)
    except (RuntimeError, ValueError):
        return None
    residual = w - decay(k, a, b)
    total = float(np.sum((w - w.mean()) ** 2))
    r2 = None if np.ptp(w) == 0 else 1.0 - float(residual @ residual) / total
    return DecayFit(float(a), float(b), r2, len(k))


# --- opponents --------------------------------------------------------------------------------


def opponent_k(opponent: str) -> tuple[str | None, int | None]:
    """The strength family and K of an opponent spec: ('mc', 100), ('mc:peek', 5), ('mcts', 500)."""
    m = _SPEC.match(opponent.strip())
    if m is None or (m.group(1) == "mcts" and m.group(3)):
        return None, None
    family = m.group(1) + (":peek" if m.group(3) else "")
    return family, int(m.group(2))


def sort_key(agent: str, opponent: str, lang: str) -> tuple:
    family, k = opponent_k(opponent)
    return agent, family or opponent, k or 0, lang


def _rates(games: list[Any]) -> list[Row]:
    cells: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        for name in g.groups():
            cell = cells[(name, g.opponent, g.lang)]
            if g.result is not None:
                cell[1] += 1
                cell[0] += g.result == "win"
    return [
        {"agent": a, "opponent": o, "lang": lang, "win_rate": w / n if n else None}
        for (a, o, lang), (w, n) in cells.items()
    ]


# --- sections -----------------------------------------------------------------------------------


def decay_fits(rates: list[Row]) -> list[Row]:
    """One fit per agent × language × opponent family over its K values."""
    series: dict[tuple[str, str, str], list[tuple[int, float]]] = defaultdict(list)
    for r in rates:
        family, k = opponent_k(r["opponent"])
        if family and k is not None and r["win_rate"] is not None:  # a family comes with its K
            series[(r["agent"], r["lang"], family)].append((k, r["win_rate"]))
    rows = []
    for (agent, lang, family), points in sorted(series.items()):
        points.sort()
        fit = fit_decay([k for k, _ in points], [w for _, w in points])
        rows.append(
            {
                "agent": agent,
                "lang": lang,
                "opponent": family,
                "ks": [k for k, _ in points],
                "points": len(points),
                "a": fit.a if fit else None,
                "b": fit.b if fit else None,
                "r2": fit.r2 if fit else None,
            }
        )
    return rows


def language_gaps(rates: list[Row]) -> list[Row]:
    """Relative gap of each language against English: (w_en − w_lang) / w_en, per agent and opponent."""
    table = {(r["agent"], r["opponent"], r["lang"]): r for r in rates if r["win_rate"] is not None}
    rows = []
    for (agent, opponent, lang), r in sorted(table.items(), key=lambda kv: sort_key(*kv[0])):
        ref = table.get((agent, opponent, REFERENCE_LANG))
        if lang == REFERENCE_LANG or ref is None:
            continue
        gap = (ref["win_rate"] - r["win_rate"]) / ref["win_rate"] if ref["win_rate"] else None
        rows.append(
            {
                "agent": agent,
                "opponent": opponent,
                "lang": lang,
                "en_win_rate": ref["win_rate"],
                "win_rate": r["win_rate"],
                "relative_gap": gap,
            }
        )
    return rows


def summaries(games: list[Any], facts: DecisionFacts) -> list[Row]:
    """Per agent and language: game length, decision time, tokens and card-type shares."""
    groups = masks(
        games,
        lambda g: [(name, g.lang) for name in g.groups()] if g.status == FINISHED else [],
        ("agent", "lang", "status"),
    )
    turns = np.fromiter((g.turns for g in games), np.int64, len(games))
    per_kinds: dict[int, tuple[int, ...]] = {}  # the games share a few kinds' counts: sum each once
    for k in facts.kinds:
        if id(k) not in per_kinds:
            per_kinds[id(k)] = (sum(k.values()), *(k.get(t, 0) for t in CARD_TYPES))
    counts = np.array([per_kinds[id(k)] for k in facts.kinds], np.int64).reshape(len(games), 1 + len(CARD_TYPES))
    rows = []
    for (agent, lang), chosen in sorted(groups.items(), key=lambda kv: kv[0]):
        mask = facts.of_games(chosen)
        played, *types = counts[chosen].sum(axis=0).tolist()
        row: Row = {
            "agent": agent,
            "lang": lang,
            "finished": int(np.count_nonzero(chosen)),
            "mean_turns": mean(turns[chosen]),
            "median_decision_s": median(facts.seconds[mask]),
            "mean_tokens_per_turn": mean(facts.tokens[mask & facts.has_tokens]),
        }
        for t, n in zip(CARD_TYPES, types):
            row[t] = n / played if played else None
        rows.append(row)
    return rows


def _pattern_hits(games: Sequence[Any], facts: DecisionFacts) -> dict[str, np.ndarray]:
    """Per pattern, a mask over ``games`` of those that show it.  A game's cards are its
    moves other than forfeits (invalid attempts included); its types are those cards' types."""
    n = len(games)
    hits = {"late_loss": np.fromiter((g.turns > LATE_TURN for g in games), bool, n)}
    for t in ("trick", "spell", "champion"):
        hits[f"no_{t}"] = np.fromiter((t not in kinds for kinds in facts.card_kinds), bool, n)
    hits["low_diversity"] = facts.distinct_cards < LOW_DIVERSITY
    return hits


def error_patterns(games: list[Any], facts: DecisionFacts) -> list[Row]:
    """The paper's Table 3 per agent, among its lost games."""
    hits = _pattern_hits(games, facts)
    turns = [g.turns for g in games]
    rows = []
    lost_by = masks(games, lambda g: g.groups() if g.result == "loss" else [], ("agent", "result"))
    for agent, lost in sorted(lost_by.items(), key=lambda kv: kv[0]):
        losses = int(np.count_nonzero(lost))
        found = {p: np.flatnonzero(lost & hits[p]).tolist() for p in PATTERNS}
        total = sum(len(v) for v in found.values())
        for p in PATTERNS:
            hit = found[p]
            rows.append(
                {
                    "agent": agent,
                    "pattern": p,
                    "hits": len(hit),
                    "losses": losses,
                    "of_losses": len(hit) / losses,
                    "share": len(hit) / total if total else None,
                    "mean_turns": mean([turns[i] for i in hit]),
                }
            )
    return rows


def _deal_quarters(games: Sequence[Any], chosen: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The chosen games' finished ones, per cell (opponent × language, in order of first
    appearance), split into four equal parts in deal order: per cell, each game's part and
    whether it was won, in deal order."""
    status, statuses = codes(games, "status")
    pick = np.flatnonzero(chosen & (status == statuses.index(FINISHED) if FINISHED in statuses else False))
    opponent, _ = codes(games, "opponent")
    lang, langs = codes(games, "lang")
    cell = (opponent * len(langs) + lang)[pick]
    run, runs = codes(games, "run")
    order = {name: i for i, name in enumerate(sorted({r or "" for r in runs}))}
    rank = np.array([order[r or ""] for r in runs], np.int64)[run]
    index = np.fromiter((g.index for g in games), np.int64, len(games))
    result, results = codes(games, "result")
    won = result == results.index("win") if "win" in results else np.zeros(len(games), bool)
    _, first = np.unique(cell, return_index=True)
    out = []
    for c in cell[np.sort(first)].tolist():
        members = pick[cell == c]
        members = members[np.lexsort((index[members], rank[members]))]  # stable: ties keep list order
        out.append((4 * np.arange(len(members)) // len(members), won[members]))
    return out


def quarters(games: list[Any], facts: DecisionFacts) -> list[Row]:
    """Decision j of n in a game is in quarter 4j // n; win rates by quarter of each cell's deals."""
    quarter = 4 * facts.step // np.maximum(facts.count, 1)
    rows = []
    for agent, chosen in sorted(masks(games, lambda g: g.groups(), ("agent",)).items(), key=lambda kv: kv[0]):
        cells = _deal_quarters(games, chosen)
        if not cells:
            continue
        mask = facts.of_games(chosen)
        for q in range(4):
            in_q = mask & (quarter == q)
            seconds = facts.seconds[in_q]
            tokens = facts.tokens[in_q & facts.has_tokens]
            counts = [(int(np.count_nonzero(won[part == q])), int(np.count_nonzero(part == q))) for part, won in cells]
            n_games = sum(n for _, n in counts)
            wins = sum(w for w, _ in counts)
            rows.append(
                {
                    "agent": agent,
                    "quarter": q + 1,
                    "games": n_games,
                    "win_rate": wins / n_games if n_games else None,
                    "win_rate_var": sample_variance([w / n for w, n in counts if n]),
                    "decisions": len(seconds),
                    "mean_decision_s": mean(seconds),
                    "decision_s_var": sample_variance(seconds),
                    "mean_tokens": mean(tokens),
                    "tokens_var": sample_variance(tokens),
                }
            )
    return rows


def sections(games: list[Any]) -> dict[str, list[Row]]:
    """The card game's own report sections, in the order they are shown."""
    rates = _rates(games)
    facts = DecisionFacts.of(games)
    return {
        "decay": decay_fits(rates),
        "language_gap": language_gaps(rates),
        "summary": summaries(games, facts),
        "error_patterns": error_patterns(games, facts),
        "quarters": quarters(games, facts),
    }
