"""Eleusis's own report sections, read from each round's record (issue 13, section 6).

Definitions follow the seed: the **counted** failed guesses and solved rounds stop at
the turn a positive score became impossible (its analysis's cutoff: 2 x wrong guesses so far
>= turns left), as its Figures 3 and 4 count them; the **no-stakes score** is ``31 - n`` (30 turns) for the first
turn n whose formal guess or silently judged tentative rule was right (0 if
none); **caution** counts, in solved rounds, the turns just before the winning
guess whose tentative rule was already right; **boldness** is ``2 x mean
failed guesses - mean caution``; **recklessness** is the share of wrong guesses
followed by another guess on the very next turn; **calibration** is the share
of judged tentative rules (formal or silent) that were right at each stated
confidence 5-10, against conf/10, with Wilson intervals (the seed's); the
share of rounds **solved** has an exact (Clopper-Pearson) interval; the **guess rate**
per confidence level sets beside it what a calibrated player should do (guess
above 2/3).  Rules are grouped by complexity (``cyclomatic + 0.2 x AST nodes``)
into quartiles of the library; the complexity ratio compares a confident
tentative rule's code with the secret rule's.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tcgtui.engine.eleusis.library import COUNT, compiled
from tcgtui.engine.eleusis.moves import parse_play, parse_walk
from tcgtui.engine.eleusis.players import THRESHOLD
from tcgtui.engine.eleusis.rulelang import RuleError, compile_rule
from tcgtui.engine.eleusis.state import MAX_TURNS, PENALTY
from tcgtui.engine.stats import clopper_pearson, mean, median

LEVELS = range(5, 11)
Z = 1.96


def wilson(hits: int, n: int) -> tuple[float | None, float | None]:
    if n == 0:
        return None, None
    p = hits / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def solved_share(solved: int, rounds: int) -> dict[str, float]:
    """The share of rounds solved and its exact interval: a solved round is a 1, any other a 0."""
    low, high = clopper_pearson(solved, rounds) or (0.0, 1.0)
    return {"success_rate": solved / rounds, "ci_low": low, "ci_high": high}


def quartile(rule: int) -> int:
    """1 (simplest quarter of the library) to 4 (most complex)."""
    ranked = sorted(range(COUNT), key=lambda n: (compiled(n).complexity, n))
    return 1 + ranked.index(rule) * 4 // COUNT


def round_facts(record: dict[str, Any]) -> dict[str, Any] | None:
    """What one finished round says about its player; None if it is not a usable Eleusis record."""
    setup, outcome = record.get("setup") or {}, record.get("outcome") or {}
    if record.get("game") != "eleusis" or not outcome.get("scores"):
        return None
    rule = None if setup.get("rule_code") else int(setup.get("rule", 0))  # None: a dealer's own rule
    truth = compile_rule(setup["rule_code"]) if rule is None else compiled(rule)
    turns: dict[int, dict[str, Any]] = defaultdict(dict)
    for e in record.get("events", []):
        if e.get("kind") in ("play", "guess", "silent") and "turn" in e:
            turns[int(e["turn"])][e["kind"]] = e
    plays = [parse_play(m) for m in record.get("moves", []) if not m.startswith("!") and parse_walk(m) is None]
    score = float(outcome["scores"][0])
    top = int(setup.get("max_turns", MAX_TURNS)) + 1  # a right guess on turn n scores top - n
    right = {n for n, t in turns.items() if t.get("guess", {}).get("correct") or t.get("silent", {}).get("correct")}
    guessed = sorted(n for n, t in turns.items() if "guess" in t)
    wrong = [n for n in guessed if not turns[n]["guess"]["correct"]]
    solved = outcome.get("reason") == "solved"
    cutoff, so_far = None, 0  # the seed's analysis counts only before the turn a positive score is lost
    for n in sorted(turns):
        so_far += n in wrong
        if PENALTY * so_far >= top - 1 - n:
            cutoff = n
            break
    caution = 0
    if solved and guessed:
        n = guessed[-1] - 1
        while n in right:
            caution += 1
            n -= 1
    judged = []  # (confidence, right) of every judged tentative rule
    for t in turns.values():
        conf = t.get("play", {}).get("confidence")
        for kind in ("guess", "silent"):
            if kind in t and conf is not None:
                judged.append((int(conf), bool(t[kind]["correct"])))
    ratios = []
    for p in plays:
        if p.code and (p.confidence or 0) >= 5:
            try:
                ratios.append(compile_rule(p.code).complexity / truth.complexity)
            except RuleError:
                continue
    return {
        "rule": rule,
        "seed": record.get("seed"),
        "score": score,
        "floored": max(0.0, score),
        "solved": solved,
        "no_stakes": top - min(right) if right else 0,
        "caution": caution,
        "wrong": len(wrong),
        "counted_wrong": sum(1 for n in wrong if cutoff is None or n < cutoff),
        "counted_solved": solved and (cutoff is None or guessed[-1] < cutoff),
        "reckless": sum(1 for n in wrong if n + 1 in guessed),
        "levels": [(p.confidence, p.guess) for p in plays if p.confidence is not None],
        "judged": judged,
        "ratios": ratios,
    }


REFERENCE = "scientist"


def _grouped(agent: str) -> tuple[str, str]:
    """A player's name and the group the report gave it (``scientist [protocol=seed]``): the
    reference is paired within its group only."""
    base, _, group = agent.partition(" [")
    return base, group


def reference_rows(per: dict[tuple[str, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each player beside the reference scientist on the same rounds (same rule, same deal): bench both
    (``--agent llm:X --agent scientist``) and every paired round shows what was achievable."""
    ref = {
        (group, r["rule"], r["seed"]): r["floored"]
        for (agent, _), rounds in per.items()
        for base, group in [_grouped(agent)]
        if base == REFERENCE
        for r in rounds
        if r["rule"] is not None
    }  # a dealer's own rules are not the same rule
    rows = []
    for (agent, lang), rounds in sorted(per.items()):
        base, group = _grouped(agent)
        pairs = [
            (r["floored"], ref[(group, r["rule"], r["seed"])]) for r in rounds if (group, r["rule"], r["seed"]) in ref
        ]
        if base == REFERENCE or not pairs:
            continue
        rows.append(
            {
                "agent": agent,
                "lang": lang,
                "paired_rounds": len(pairs),
                "mean_floored": mean([a for a, _ in pairs]),
                "reference_floored": mean([b for _, b in pairs]),
                "gap": mean([a - b for a, b in pairs]),
            }
        )
    return rows


def sections(games: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    """``science``, ``calibration``, ``by_rule`` and ``by_quartile``, one row per player (and level, rule...)."""
    per: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        record = g.record if isinstance(g.record, dict) else getattr(g.record, "to_json", lambda: None)()
        if getattr(g, "status", "finished") != "finished" or not record:
            continue
        facts = round_facts(record)
        if facts is not None:
            per[(g.agent, getattr(g, "lang", ""))].append(facts)
    out: dict[str, list[dict[str, Any]]] = {
        "science": [],
        "calibration": [],
        "by_rule": [],
        "by_quartile": [],
        "reference": reference_rows(per),
    }
    for (agent, lang), rounds in sorted(per.items()):
        wrong = mean([r["wrong"] for r in rounds]) or 0.0
        solved = [r for r in rounds if r["solved"]]
        caution = mean([r["caution"] for r in solved])
        total_wrong = sum(r["wrong"] for r in rounds)
        out["science"].append(
            {
                "agent": agent,
                "lang": lang,
                "rounds": len(rounds),
                "mean_floored": mean([r["floored"] for r in rounds]),
                **solved_share(len(solved), len(rounds)),
                "no_stakes": mean([r["no_stakes"] for r in rounds]),
                "failed_guesses": wrong,
                "caution": caution,
                "boldness": None if caution is None else 2 * wrong - caution,
                "reckless_rate": sum(r["reckless"] for r in rounds) / total_wrong if total_wrong else None,
                "complexity_ratio": median([x for r in rounds for x in r["ratios"]]),
            }
        )
        for level in LEVELS:
            judged = [ok for r in rounds for c, ok in r["judged"] if c == level]
            stated = [g for r in rounds for c, g in r["levels"] if c == level]
            lo, hi = wilson(sum(judged), len(judged))
            out["calibration"].append(
                {
                    "agent": agent,
                    "lang": lang,
                    "confidence": level,
                    "judged": len(judged),
                    "accuracy_rate": sum(judged) / len(judged) if judged else None,
                    "ci_low": lo,
                    "ci_high": hi,
                    "stated_rate": level / 10,
                    "guess_rate": sum(stated) / len(stated) if stated else None,
                    "calibrated_guess_rate": 1.0 if level / 10 > THRESHOLD else 0.0,
                }
            )
        for key, name in (("rule", "by_rule"), ("quartile", "by_quartile")):
            groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
            for r in rounds:
                if r["rule"] is not None:  # a dealer's own rule is in no library group
                    groups[r["rule"] if key == "rule" else quartile(r["rule"])].append(r)
            for k, rs in sorted(groups.items()):
                out[name].append(
                    {
                        "agent": agent,
                        "lang": lang,
                        key: k,
                        "rounds": len(rs),
                        "mean_floored": mean([r["floored"] for r in rs]),
                        **solved_share(sum(r["solved"] for r in rs), len(rs)),
                    }
                )
    return out
