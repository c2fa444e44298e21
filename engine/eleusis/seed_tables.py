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
- ``score_breakdown`` (its Figure 2): each player's mean score and the no-stakes
  score beside it (the gain: the points its metacognition cost it).
- ``boldness_tradeoff`` (its Figure 3): caution against failed guesses per round;
  ``score_boldness`` (its Figure 4): the mean score against the boldness index
  (2 x failed guesses - caution).  Failed guesses and solved rounds are counted as
  the seed's analysis counts them, up to the turn a positive score became impossible.
- ``rule_scores`` (its Figure 8): every round's score by rule, with the rule's
  share of rounds solved over every player (counted to the cutoff, as the seed does).
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
    return facts.tokens[start : start + int(facts.decisions[position])]


def tokens_by_turn(games: list[Any], context: Any) -> list[Row]:
    facts = DecisionFacts.of(games)
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        per_turn: dict[int, list[float]] = defaultdict(list)
        for i, _ in rounds:
            for turn, t in enumerate(_tokens(facts, i).tolist(), start=1):
                if t == t:  # not NaN
                    per_turn[turn].append(t)
        rows += [
            {"agent": agent, "lang": lang, "turn": turn, "decisions": len(v), "mean_tokens": mean(v)}
            for turn, v in sorted(per_turn.items())
        ]
    return rows


def score_tokens(games: list[Any], context: Any) -> list[Row]:
    facts = DecisionFacts.of(games)
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        tokens = [t for i, _ in rounds for t in _tokens(facts, i).tolist() if t == t]
        rows.append(
            {
                "agent": agent,
                "lang": lang,
                "rounds": len(rounds),
                "mean_tokens": mean(tokens),
                "mean_score": mean([r["score"] for _, r in rounds]),
                "mean_floored": mean([r["floored"] for _, r in rounds]),
            }
        )
    return rows


def relative_quartiles(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        overall = mean([r["floored"] for _, r in rounds])
        by_q: dict[int, list[float]] = defaultdict(list)
        for _, r in rounds:
            if r["rule"] is not None:  # a dealer's own rule is in no quartile
                by_q[quartile(r["rule"])].append(r["floored"])
        for q, scores in sorted(by_q.items()):
            m = mean(scores)
            assert m is not None  # a quartile is listed for its rounds
            rows.append(
                {
                    "agent": agent,
                    "lang": lang,
                    "quartile": q,
                    "rounds": len(scores),
                    "mean_floored": m,
                    "relative_score": m / overall if overall else None,
                }
            )
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


def score_breakdown(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        floored, free = mean([r["floored"] for _, r in rounds]), mean([r["no_stakes"] for _, r in rounds])
        assert floored is not None and free is not None  # a group is listed for its rounds
        rows.append(
            {
                "agent": agent,
                "lang": lang,
                "rounds": len(rounds),
                "mean_floored": floored,
                "no_stakes": free,
                "no_stakes_gain": free - floored,
            }
        )
    return rows


def boldness(games: list[Any], context: Any) -> list[Row]:
    rows = []
    for (agent, lang), rounds in sorted(_rounds(games).items()):
        failed = mean([r["counted_wrong"] for _, r in rounds])
        assert failed is not None  # a group is listed for its rounds
        caution = mean([r["caution"] for _, r in rounds if r["solved"]])
        rows.append(
            {
                "agent": agent,
                "lang": lang,
                "rounds": len(rounds),
                "counted_failed_guesses": failed,
                "caution": caution,
                "boldness": None if caution is None else 2 * failed - caution,
                "counted_success_rate": mean([float(r["counted_solved"]) for _, r in rounds]),
                "mean_floored": mean([r["floored"] for _, r in rounds]),
            }
        )
    return rows


def rule_scores(games: list[Any], context: Any) -> list[Row]:
    rounds = [
        (agent, lang, r) for (agent, lang), rs in sorted(_rounds(games).items()) for _, r in rs if r["rule"] is not None
    ]  # a dealer's own rule is in no library row
    solved: dict[int, list[float]] = defaultdict(list)
    for _, _, r in rounds:
        solved[r["rule"]].append(float(r["counted_solved"]))
    return [
        {
            "agent": agent,
            "lang": lang,
            "rule": r["rule"],
            "floored": r["floored"],
            "rule_success_rate": mean(solved[r["rule"]]),
        }
        for agent, lang, r in rounds
    ]


def tables() -> tuple[SeedTable, ...]:
    return (
        SeedTable(
            "tokens_by_turn",
            "Eleusis Figure 7",
            tokens_by_turn,
            Figure("line", "turn", "mean_tokens", ("agent", "lang")),
        ),
        SeedTable(
            "score_tokens",
            "Eleusis Figure 1",
            score_tokens,
            Figure("scatter", "mean_tokens", "mean_floored", ("agent", "lang")),
        ),
        SeedTable(
            "relative_quartiles",
            "Eleusis Figure 9",
            relative_quartiles,
            Figure("line", "quartile", "relative_score", ("agent", "lang")),
        ),
        SeedTable(
            "complexity_ratio",
            "Eleusis Figure 10",
            complexity_ratio,
            Figure("scatter", "agent", "median_ratio", ("lang",), low="q1", high="q3"),
        ),
        # the score, with a bar up to the no-stakes score
        SeedTable(
            "score_breakdown",
            "Eleusis Figure 2",
            score_breakdown,
            Figure("scatter", "agent", "mean_floored", ("lang",), low="mean_floored", high="no_stakes"),
        ),
        SeedTable(
            "boldness_tradeoff",
            "Eleusis Figure 3",
            boldness,
            Figure("scatter", "counted_failed_guesses", "caution", ("agent", "lang")),
        ),
        SeedTable(
            "score_boldness",
            "Eleusis Figure 4",
            boldness,
            Figure("scatter", "boldness", "mean_floored", ("agent", "lang")),
        ),
        SeedTable(
            "rule_scores", "Eleusis Figure 8", rule_scores, Figure("scatter", "rule", "floored", ("agent", "lang"))
        ),
    )
