"""The Eleusis seed's figures the report gives as tables on request (``--table``) and draws (``--plot DIR``).

- ``tokens_by_turn`` (its Figure 7): mean tokens per decision at each turn of a
  round.  Later turns come only from rounds still going, the harder ones.
- ``score_tokens`` (its Figure 1): each player's mean score against its mean
  tokens per decision.
- ``relative_quartiles`` (its Figure 9): the mean score in each complexity
  quartile of the rule library, divided by the player's mean over all its rounds
  (above 1: better than its own average).
- ``complexity_ratio`` (its Figure 10): the median ratio of a confident
  (confidence 5 or more) tentative rule's complexity to the secret rule's, with
  its interquartile range.
Scores are floored at 0 as the seed's averages are (``mean_floored``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from tcgtui.engine.decision_facts import DecisionFacts
from tcgtui.engine.eleusis.analysis import quartile, round_facts
from tcgtui.engine.registry import Figure, SeedTable
from tcgtui.engine.stats import mean

Row = dict[str, Any]


def _rounds(games: list[Any]) -> dict[tuple[str, str], list[tuple[int, dict[str, Any]]]]:
    """(player, language) -> (position in ``games``, round facts) of each finished round."""
    out: dict[tuple[str, str], list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for i, g in enumerate(games):
        if g.status != "finished" or not isinstance(g.record, dict):
            continue
        facts = round_facts(g.record)
        if facts is not None:
            out[(g.agent, g.lang)].append((i, facts))
    return out


def _tokens(facts: DecisionFacts, position: int) -> np.ndarray:
    """The tokens of one game's decisions, in move order (NaN where not reported)."""
    start = int(facts.decisions[:position].sum())
    return facts.tokens[start:start + int(facts.decisions[position])]


def tokens_by_turn(games: list[Any], context: Any) -> list[Row]:
    facts = DecisionFacts.of(games)
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        per_turn: dict[int, list[float]] = defaultdict(list)
        for i, _ in rounds:
            for turn, t in enumerate(_tokens(facts, i).tolist(), start=1):
                if t == t:                  # not NaN
                    per_turn[turn].append(t)
        rows += [{"agent": agent, "lang": lang, "turn": turn, "decisions": len(v), "mean_tokens": mean(v)}
                 for turn, v in sorted(per_turn.items())]
    return rows


def score_tokens(games: list[Any], context: Any) -> list[Row]:
    facts = DecisionFacts.of(games)
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        tokens = [t for i, _ in rounds for t in _tokens(facts, i).tolist() if t == t]
        rows.append({"agent": agent, "lang": lang, "rounds": len(rounds), "mean_tokens": mean(tokens),
                     "mean_score": mean([r["score"] for _, r in rounds]),
                     "mean_floored": mean([r["floored"] for _, r in rounds])})
    return rows


def relative_quartiles(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        overall = mean([r["floored"] for _, r in rounds])
        by_q: dict[int, list[float]] = defaultdict(list)
        for _, r in rounds:
            if r["rule"] is not None:               # a dealer's own rule is in no quartile
                by_q[quartile(r["rule"])].append(r["floored"])
        for q, scores in sorted(by_q.items()):
            m = mean(scores)
            rows.append({"agent": agent, "lang": lang, "quartile": q, "rounds": len(scores), "mean_floored": m,
                         "relative_score": m / overall if overall else None})
    return rows


def complexity_ratio(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        ratios = [x for _, r in rounds for x in r["ratios"]]
        if not ratios:
            continue
        q1, med, q3 = (float(v) for v in np.percentile(ratios, [25, 50, 75]))
        rows.append({"agent": agent, "lang": lang, "rules": len(ratios), "median_ratio": med, "q1": q1, "q3": q3})
    return rows


def tables() -> tuple[SeedTable, ...]:
    return (
        SeedTable("tokens_by_turn", "Eleusis Figure 7", tokens_by_turn,
                  Figure("line", "turn", "mean_tokens", ("agent", "lang"))),
        SeedTable("score_tokens", "Eleusis Figure 1", score_tokens,
                  Figure("scatter", "mean_tokens", "mean_floored", ("agent", "lang"))),
        SeedTable("relative_quartiles", "Eleusis Figure 9", relative_quartiles,
                  Figure("line", "quartile", "relative_score", ("agent", "lang"))),
        SeedTable("complexity_ratio", "Eleusis Figure 10", complexity_ratio,
                  Figure("scatter", "agent", "median_ratio", ("lang",), low="q1", high="q3")),
    )
