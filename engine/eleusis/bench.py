"""The benchmark's protocol as rounds: every rule of a set, each on the same few deals.

``tcgtui bench --game eleusis --rules all --seeds 3`` is the seed's 78 rounds
(26 rules x 3 seeds); round ``i`` plays rule ``rules[i // seeds]`` on deal
``i % seeds``, so every rule meets the same deals.  The bench finds these
flags and this plan through the game's ``bench.rounds``; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.eleusis.library import COUNT
from tcgtui.engine.eleusis.state import SOLVED  # noqa: F401  (a solved round: the bench summary shows their share)

DEFAULT_SEEDS = 3
MAX_SEEDS = 10_000  # deals per rule: 26 rules x 10,000 deals is already a sweep of weeks


class RoundsError(ValueError):
    """A bad --rules or --seeds: ``key`` is the sentence under ``eleusis.bench.errors``, ``params`` its values."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key}: {params}")
        self.key = f"eleusis.bench.errors.{key}"
        self.params = params


@dataclass(frozen=True)
class Flag:
    flag: str
    dest: str
    metavar: str
    help_key: str  # a locale key
    type: type = str


FLAGS = (
    Flag("--rules", "eleusis_rules", "all|N-M,K", "eleusis.bench.rules"),
    Flag("--seeds", "eleusis_seeds", "N", "eleusis.bench.seeds", int),
)


def parse_rules(text: str) -> list[int]:
    """``all``, ``7``, ``0-5,9``: rule numbers in order; RoundsError naming what is wrong."""
    if text.strip().lower() == "all":
        return list(range(COUNT))
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        if not lo.strip().isdigit() or (hi and not hi.strip().isdigit()):
            raise RoundsError("rules", value=text)
        a, b = int(lo), int(hi or lo)
        if not 0 <= a <= b < COUNT:
            raise RoundsError("range", value=text, high=COUNT - 1)
        out += [n for n in range(a, b + 1) if n not in out]
    return out


def rule_set_text(rules: list[int]) -> str:
    """A set of rule numbers as one canonical word, ``0-5,9`` (order and spelling aside: ``all`` and
    ``0-25`` are one set): what a game records as where its rule came from (``rule_from``)."""
    spans: list[list[int]] = []
    for n in sorted(set(rules)):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def plan(
    values: dict[str, Any], params: dict[str, Any]
) -> tuple[int, Callable[[int], tuple[dict[str, Any], int]], dict[str, Any]] | None:
    """(rounds, round(i) -> (game parameters, deal index), what the run records), or None without --rules."""
    text = values.get("eleusis_rules")
    if text is None:
        if values.get("eleusis_seeds") is not None:
            raise RoundsError("seeds_alone")
        return None
    rules = parse_rules(str(text))
    seeds = values.get("eleusis_seeds")
    seeds = DEFAULT_SEEDS if seeds is None else seeds  # --seeds 0 is refused, not the default
    if not 1 <= seeds <= MAX_SEEDS:
        raise RoundsError("seeds", value=seeds, high=MAX_SEEDS)

    given = rule_set_text(rules)

    def round_of(index: int) -> tuple[dict[str, Any], int]:
        # Under --protocol seed the deal is the seed's round ``index % seeds`` of the rule (seed_deals.py).
        # Every round records the sweep's rule set: a report keeps a sweep apart from a drawn-rule run.
        seed_round = {"seed_round": index % seeds} if params.get("protocol") == "seed" else {}
        return (
            {**params, "rule": rules[(index // seeds) % len(rules)], "rule_from": given, **seed_round},
            index % seeds,
        )

    return len(rules) * seeds, round_of, {"rules": rules, "seeds": seeds}
