"""The seeds' tables and figures a report adds on request, and what they need beyond the games.

Every game offers ``time_vs_win`` (TCG-Bench's Figure 6: decision time against
win rate, for win/draw/loss games) besides its own (``GameSpec.seed_tables``).
They are built only when named (``--table``, ``--plot DIR``), so a plain report
costs what it did.  ``Context`` hands them the models' facts (family,
organisation, size: what ``Agent.describe()`` stored in each run's config), the
interval method (``--ci``), with its seed, and a reader of the legal moves each stored
decision had (``tcgtui.report.legal_moves``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from tcgtui.engine import registry
from tcgtui.engine.core import CANCELLED
from tcgtui.engine.decision_facts import DecisionFacts, masks
from tcgtui.engine.registry import Figure, SeedTable
from tcgtui.engine.stats import clopper_pearson, median
from tcgtui.quality import adaptability, diversity, evaluators, phases, ranking, table as quality
from tcgtui.report import scale
from tcgtui.report.intervals import DEFAULT_SEED, randomized, uniform
from tcgtui.report.data import StoredGame
from tcgtui.store import FINISHED

Row = dict[str, Any]


@dataclass
class Context:
    """What seed tables read beyond the games: each player's facts, how to draw an interval, and
    other benchmarks' scores per model (``--scores``)."""

    facts_by_player: dict[str, dict[str, Any]] = field(default_factory=dict)
    base: dict[str, str] = field(default_factory=dict)      # a grouped name -> the player it names
    ci: str = "exact"
    seed: int = DEFAULT_SEED
    # per game id, each decision's seat and legal moves, by replaying the stored games (None: no store)
    legal_moves: Callable[[Sequence[str]], dict[str, list[tuple[int, int]]]] | None = None
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    # the values ``tcgtui analyze --run`` stored for games by id (``tcgtui.quality.table.Reader``; None: no store)
    decision_values: Any = None
    # the rating scales players are placed on (``--scale FILE``; None: those shipped for the game)
    scales: list[Any] | None = None

    def named(self, agent: str) -> str:
        """The player a grouped name stands for (``llm:m [style=image]`` -> ``llm:m``)."""
        return self.base.get(agent, agent)

    def facts(self, agent: str) -> dict[str, Any] | None:
        return self.facts_by_player.get(self.base.get(agent, agent))

    def interval(self, k: int, n: int, key: str) -> tuple[float, float] | None:
        """Clopper–Pearson, or with ``--ci exact-randomized`` the randomized exact interval drawn for ``key``."""
        if self.ci == "exact-randomized":
            return randomized(k, n, uniform(self.seed, key))
        return clopper_pearson(k, n)


def model_facts(runs: Iterable[Any]) -> dict[str, dict[str, Any]]:
    """Per player, the facts its runs stored (``config["players"][spec][lang]["facts"]``), found
    under the spec the run was given, the spec the player describes itself by and its registry
    entry; a later run's facts win where two disagree."""
    out: dict[str, dict[str, Any]] = {}
    for run in runs:
        for spec, by_lang in ((run.config or {}).get("players") or {}).items():
            for described in (by_lang or {}).values():
                facts = described.get("facts") if isinstance(described, dict) else None
                if isinstance(facts, dict):
                    for name in (spec, described.get("spec"), described.get("entry")):
                        if isinstance(name, str) and name:
                            out[name] = dict(facts)
    return out


def time_vs_win(games: list[StoredGame], context: Context) -> list[Row]:
    """Per player, opponent and language: the median decision time (finished games) and the win rate."""
    facts = DecisionFacts.of(games)
    chosen = masks(games, lambda g: [(n, g.opponent, g.lang) for n in g.groups()] if g.status == FINISHED else [],
                   ("agent", "opponent", "lang", "status"))
    results: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        if g.result is not None and g.reason != CANCELLED:
            for n in g.groups():
                cell = results[(n, g.opponent, g.lang)]
                cell[0] += g.result == "win"
                cell[1] += 1
    rows = []
    for key, mask in sorted(chosen.items()):
        seconds = facts.seconds[facts.of_games(mask)]
        wins, n = results.get(key, (0, 0))
        if not n or not len(seconds):
            continue
        rows.append({"agent": key[0], "opponent": key[1], "lang": key[2], "decisions": int(len(seconds)),
                     "median_decision_s": median(seconds), "games": n, "win_rate": wins / n})
    return rows


COMMON = (SeedTable("time_vs_win", "TCG-Bench Figure 6", time_vs_win,
                    Figure("scatter", "median_decision_s", "win_rate", ("agent",), percent_y=True)),)
# Every game whose decisions an evaluator can judge (``tcgtui.quality.evaluators``): issue 40's decision quality.
QUALITY = SeedTable("quality", "Decision quality", quality.quality)
QUALITY_BY_KIND = SeedTable("quality_by_kind", "Decision quality", quality.quality_by_kind)   # games with kinds of move
QUALITY_BY_PHASE = SeedTable("quality_by_phase", "Decision quality", phases.quality_by_phase,
                             Figure("line", "phase", "mean_regret", ("agent", "opponent", "lang", "evaluator", "by"), "ci_low",
                                    "ci_high"))
# Issue 40's part 2: games whose choices fall in categories (card types, cell regions, columns).
DIVERSITY = SeedTable("diversity", "Strategic diversity", diversity.diversity)
ADAPTABILITY = SeedTable("adaptability", "Adaptability", adaptability.adaptability,    # every judged game
                         Figure("line", "opponent_k", "mean_regret", ("agent", "lang", "evaluator"), "ci_low",
                                "ci_high", log_x=True))
REGRET_RANKING = SeedTable("regret_ranking", "Ranking by regret", ranking.regret_ranking,  # issue 40's part 3b
                           Figure("scatter", "agent", "mean_regret", ("opponent", "lang", "evaluator"), "ci_low",
                                  "ci_high"))


def on_scale(games: list[StoredGame], context: Context) -> list[Row]:
    """Issue 38's one rating scale: each player placed from its games against a scale's rungs."""
    if not games:
        return []
    scales = context.scales if context.scales is not None else scale.shipped(games[0].game)
    return scale.table(games, scales, context.seed)


SCALE = SeedTable("scale", "Rating scale", on_scale,        # games of two seats with a win, draw or loss
                  Figure("scatter", "agent", "rating", ("lang",), "ci_low", "ci_high"))


def tables(spec: registry.GameSpec) -> dict[str, SeedTable]:
    """The seed tables the game offers, by name."""
    common = COMMON if spec.info.outcome == registry.WDL else ()
    common += (SCALE,) if common and spec.info.seats == 2 else ()
    decided = (QUALITY, REGRET_RANKING) if evaluators.judged(spec) else ()
    # phases and opponents' strength need games of several moves and an opponent (not the one-answer quiz)
    decided += (QUALITY_BY_PHASE, ADAPTABILITY) if decided and spec.info.seats == 2 else ()
    decided += (QUALITY_BY_KIND,) if decided and spec.store.move_kind is not None else ()
    decided += (DIVERSITY,) if diversity.offered(spec) else ()
    own = spec.seed_tables() if spec.seed_tables is not None else ()
    return {t.name: t for t in (*common, *decided, *own)}


def add_interval(rows: list[Row], context: Context, key_of: Any) -> None:
    """``--ci exact-randomized``: each win-rate row gets the randomized exact interval beside its
    Clopper–Pearson one (``rand_low``, ``rand_high``)."""
    for r in rows:
        if r.get("people") is not None:         # the pooled row of people: its unit is a person, not a game
            r["rand_low"], r["rand_high"] = None, None
            continue
        n, wins = r.get("finished") or 0, r.get("wins") or 0
        ci = randomized(wins, n, uniform(context.seed, key_of(r))) if n else None
        r["rand_low"], r["rand_high"] = (ci if ci else (None, None))

