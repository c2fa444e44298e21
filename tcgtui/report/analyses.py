"""The report's tables, each a list of plain rows (dicts) any renderer can show.

Common sections, for every game:
- ``win_rates`` (win/draw/loss games) or ``scores`` (score games): win rate =
  wins / finished games, draws in the denominator as non-wins, exact
  Clopper–Pearson intervals; for score games the mean score with a t interval
  (exact, as win rates, where every score is 1 or 0: a deck quiz's accuracy)
  and the mean of max(0, score).  Errored, abandoned and unfinished games are
  counted apart, never as losses.
- ``decisions``: the measured player's decision time and tokens (marked when
  any count was estimated) and invalid attempts, in finished games.
- ``llm``: parse paths, invalid replies and fallbacks, for agents that report them.
- ``errors``: errored games grouped by their error text.
- ``matrix``, ``ratings``, ``ratings_by_role``: for round-robin runs (see
  ``round_robin_games``), the results matrix and Bradley–Terry ratings
  (``tcgtui.report.ratings``).
A game's own sections come from its registry spec: ``spec.analyses(games)``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tcgtui.engine import registry
from tcgtui.engine.core import CANCELLED, DISQUALIFIED
from tcgtui.engine.decision_facts import DecisionFacts, masks
from tcgtui.engine.prompting import NO_PARSE
from tcgtui.opponents.spec import SpecError, parse_spec
from tcgtui.report import ratings as bt
from tcgtui.report import people
from tcgtui.report.data import POOLED_HUMAN, StoredGame
from tcgtui.report.seats import met_pairwise
from tcgtui.report.stats import clopper_pearson, mean, median, score_interval
from tcgtui.engine.stats import confidence_sequence
from tcgtui.store import ABANDONED, ERRORED, FINISHED
from tcgtui.store.db import UNTIL

Row = dict[str, Any]
ROUND_ROBIN = ("matrix", "ratings", "ratings_by_role")
ANYTIME = "anytime"        # a row's interval: a sequential run's (bench --until), valid however it stopped
COMMON_NOTES = {"win_rates": "denominator", "scores": "scores", "decisions": "decisions", "llm": "decisions",
                "errors": "errors", "matrix": "matrix", "ratings": "ratings", "ratings_by_role": "ratings"}


def opponent_k(opponent: str) -> tuple[str | None, int | None]:
    """The strength family and K of an opponent spec: ('mc', 100), ('mc:peek', 5), ('mcts', 500)."""
    try:
        spec = parse_spec(opponent)
    except SpecError:
        return None, None
    if spec.kind == "mc":
        return ("mc:peek" if spec.peek else "mc"), spec.n
    if spec.kind == "mcts":
        return "mcts", spec.n
    return None, None


def _sort_key(agent: str, opponent: str, lang: str) -> tuple:
    family, k = opponent_k(opponent)
    return agent, family or opponent, k or 0, lang


@dataclass
class _Cell:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    cancelled: int = 0
    disqualified: int = 0
    errored: int = 0
    abandoned: int = 0
    unfinished: int = 0
    scores: list[float] = field(default_factory=list)
    pooled: bool = False                 # the pooled row of people: each person's results are kept
    sequential: bool = False             # its games come from a sequential run (bench --until): anytime intervals
    people: dict[str, list[float]] = field(default_factory=dict)    # a person's results (1 win, else 0; scores)

    def add(self, g: StoredGame, seat: int | None = None) -> None:
        """Count ``g`` for its measured player, or for the player in ``seat``."""
        self.games += 1
        self.sequential = self.sequential or UNTIL in g.params     # never pooled with others (grouping)
        result = g.result
        if seat is not None and seat != g.seat and result is not None:
            result = "draw" if g.winner is None else "win" if g.winner == seat else "loss"
        if result is not None and g.score is not None:
            self.scores.append(g.score)
        if self.pooled and result is not None and g.reason != CANCELLED:
            value = g.score if g.score is not None else float(result == "win")
            self.people.setdefault(g.agent, []).append(value)
        if result is not None and g.reason == CANCELLED:
            self.cancelled += 1
        elif result == "win":
            self.wins += 1
        elif result == "draw":
            self.draws += 1
        elif result == "loss":
            self.losses += 1
            self.disqualified += g.reason == DISQUALIFIED
        elif g.status == ERRORED:
            self.errored += 1
        elif g.status == ABANDONED:
            self.abandoned += 1
        else:
            self.unfinished += 1

    @property
    def finished(self) -> int:
        return self.wins + self.draws + self.losses


def _cells(games: list[StoredGame]) -> list[tuple[tuple[str, str, str], _Cell]]:
    cells: dict[tuple[str, str, str], _Cell] = {}
    for g in games:
        for name in g.groups():
            key = (name, g.opponent, g.lang)
            cell = cells.get(key)
            if cell is None:
                cell = cells[key] = _Cell(pooled=pooled_people(name))
            cell.add(g)
    return [(key, cells[key]) for key in sorted(cells, key=lambda c: _sort_key(*c))]


def pooled_people(agent: str) -> bool:
    """The pooled row of all people (``human``, or ``human [group]``): its unit is a person, not a game."""
    return agent == POOLED_HUMAN or agent.startswith(POOLED_HUMAN + " [")


def by_people(c: _Cell, key: tuple[str, ...], binary: bool) -> tuple[float | None, tuple[float, float] | None]:
    """The pooled row's estimate (the mean of each person's own mean) and its person-clustered interval
    (``tcgtui.report.people``; none below its fewest people), seeded by the row's key."""
    summary = people.summarise(list(c.people.values()), people.rng(0, "|".join(key)), binary=binary)
    interval = (summary.low, summary.high) if summary.low is not None and summary.high is not None else None
    return summary.estimate, interval


def win_rates(games: list[StoredGame]) -> list[Row]:
    """A person's games are not independent draws: the pooled row of all people counts people (its
    estimate the mean of their own win rates, its interval a cluster bootstrap over them)."""
    rows = []
    for (agent, opponent, lang), c in _cells(games):
        ci = (confidence_sequence if c.sequential else clopper_pearson)(c.wins, c.finished)
        rate = c.wins / c.finished if c.finished else None
        if pooled_people(agent):
            rate, ci = by_people(c, (agent, opponent, lang), binary=True)
        family, k = opponent_k(opponent)
        rows.append({"agent": agent, "opponent": opponent, "k": k, "lang": lang, "games": c.games,
                     "finished": c.finished, "wins": c.wins, "draws": c.draws, "losses": c.losses,
                     "cancelled": c.cancelled, "disqualified": c.disqualified, "errored": c.errored,
                     "abandoned": c.abandoned, "unfinished": c.unfinished,
                     "win_rate": rate, "people": len(c.people) if pooled_people(agent) else None,
                     "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None})
        if c.sequential and not pooled_people(agent):
            rows[-1]["interval"] = ANYTIME      # only then: a fixed-size run's rows read as they always did
    return rows


def scores(games: list[StoredGame], right_wrong: bool = False) -> list[Row]:
    """Score games: the mean score with a 95% interval (exact for right/wrong scores, else t; ``interval``
    names which), and the mean of max(0, score)."""
    rows = []
    for (agent, opponent, lang), c in _cells(games):
        ci = score_interval(c.scores, right_wrong)
        estimate, method = mean(c.scores), "exact" if right_wrong else "t"
        if c.sequential and right_wrong:
            ci, method = confidence_sequence(int(sum(c.scores)), len(c.scores)), ANYTIME
        if pooled_people(agent):
            estimate, ci = by_people(c, (agent, opponent, lang), binary=right_wrong)
            method = "people"
        rows.append({"agent": agent, "opponent": opponent, "lang": lang, "games": c.games,
                     "finished": len(c.scores), "errored": c.errored, "abandoned": c.abandoned,
                     "unfinished": c.games - len(c.scores) - c.errored - c.abandoned,
                     "mean_score": estimate, "people": len(c.people) if pooled_people(agent) else None,
                     "ci_low": ci[0] if ci else None,
                     "ci_high": ci[1] if ci else None, "interval": method,
                     "mean_positive": mean([max(0.0, s) for s in c.scores])})
    return rows


def decisions(games: list[StoredGame]) -> list[Row]:
    """Per agent and language: the measured player's decision time, tokens and invalid attempts."""
    facts = DecisionFacts.of(games)
    groups = masks(games, lambda g: [(name, g.lang) for name in g.groups()] if g.status == FINISHED else [],
                   ("agent", "lang", "status"))
    rows = []
    for (agent, lang), chosen in sorted(groups.items(), key=lambda kv: kv[0]):
        mask = facts.of_games(chosen)
        seconds = facts.seconds[mask]
        tokens = facts.tokens[mask & facts.has_tokens]
        n = len(seconds)
        invalid = int(facts.invalid_attempts[chosen].sum())
        rows.append({"agent": agent, "lang": lang, "finished": int(np.count_nonzero(chosen)), "decisions": n,
                     "median_decision_s": median(seconds), "mean_decision_s": mean(seconds),
                     "mean_tokens": mean(tokens), "tokens_estimated": bool(facts.tokens_estimated[chosen].any()),
                     "invalid_moves": invalid, "invalid_share": invalid / n if n else None})
    return rows


def parse_paths(facts: DecisionFacts, chosen: Any) -> list[str]:
    """The parse paths the chosen games' prompters reported (the card game: tags, last_name; Eleusis:
    action; grid games: json), most used first, "none" last: each becomes a column."""
    seen = {p: int(counts[chosen].sum()) for p, counts in facts.parse.items()}
    return sorted((p for p, n in seen.items() if n), key=lambda p: (p == NO_PARSE, -seen[p], p))


def llm_rates(games: list[StoredGame]) -> list[Row]:
    """Parse paths, invalid replies and fallbacks, for agents whose decisions report them."""
    facts = DecisionFacts.of(games)
    rows = []
    names = parse_paths(facts, np.fromiter((g.status == FINISHED for g in games), bool, len(games)))
    chosen_by = masks(games, lambda g: g.groups() if g.status == FINISHED else [], ("agent", "status"))
    for agent, chosen in sorted(chosen_by.items(), key=lambda kv: kv[0]):
        n = int(facts.reported[chosen].sum())
        if not n:
            continue
        row: Row = {"agent": agent, "decisions": n}
        for p in names:
            row[f"parse_{p}"] = int(facts.parse[p][chosen].sum()) / n
        row["invalid"] = int(facts.invalid[chosen].sum()) / n
        row["fallback_random"] = int(facts.fallback["random"][chosen].sum()) / n
        row["fallback_forfeit"] = int(facts.fallback["forfeit"][chosen].sum()) / n
        rows.append(row)
    return rows


def errors(games: list[StoredGame]) -> list[Row]:
    """Errored games apart, grouped by their error text (most frequent first), each game once."""
    by_text: dict[str, list[StoredGame]] = defaultdict(list)
    for g in games:
        if g.status == ERRORED and not g.mirror:
            by_text[g.error or ""].append(g)
    return [{"error": text, "games": len(gs), "agents": ", ".join(sorted({g.agent for g in gs}))}
            for text, gs in sorted(by_text.items(), key=lambda kv: (-len(kv[1]), kv[0]))]


# --- round robins -------------------------------------------------------------------------------

def round_robin_games(games: list[StoredGame]) -> list[StoredGame]:
    """Two-seat games, any status, of runs that are round robins: at least three players, every
    pair of them met (in either seat) at least once in the run.  Each game once (no mirrors)."""
    runs: dict[str, list[StoredGame]] = defaultdict(list)
    for g in games:
        if g.run is not None and len(g.seats) == 2:
            runs[g.run].append(g)
    out = []
    for gs in runs.values():
        if met_pairwise({g.seats for g in gs}):   # a sweep has a handful of seatings, however many games
            out += [g for g in gs if g.seats[0] != g.seats[1] and not g.mirror]
    return out


def _decided(g: StoredGame) -> bool:
    """A finished game with a result: a cancelled one (the move cap reached) has none, so it is
    neither a draw nor half a point in the matrix and the ratings."""
    return g.status == FINISHED and g.reason != CANCELLED


def _pair_results(games: list[StoredGame]) -> list[tuple[str, str, float, StoredGame]]:
    out = []
    for g in games:
        if _decided(g):
            s = 0.5 if g.winner is None else (1.0 if g.winner == 0 else 0.0)
            out.append((g.seats[0], g.seats[1], s, g))
    return out


def matrix(games: list[StoredGame]) -> list[Row]:
    """Row player against column player: its score share over decided games (draws count half), and
    every kind of game in its own column (cancelled, disqualified, errored, abandoned)."""
    cells: dict[tuple[str, str], _Cell] = defaultdict(_Cell)
    for g in games:
        for seat in (0, 1):
            cells[(g.seats[seat], g.seats[1 - seat])].add(g, seat)
    rows = []
    for (a, b), c in sorted(cells.items()):
        rows.append({"agent": a, "opponent": b, "games": c.finished, "wins": c.wins, "draws": c.draws,
                     "losses": c.losses, "cancelled": c.cancelled, "disqualified": c.disqualified,
                     "errored": c.errored, "abandoned": c.abandoned,
                     "score_share": (c.wins + c.draws / 2) / c.finished if c.finished else None})
    return rows


def _rating_rows(results: list[tuple[str, str, float]], anchor: str | None = None, **extra: Any) -> list[Row]:
    return [{**{k: v(r) if callable(v) else v for k, v in extra.items()}, "agent": r.player, "games": r.games,
             "rating": r.rating, "ci_low": r.ci_low, "ci_high": r.ci_high}
            for r in bt.ratings(results, anchor=anchor)]


def rated_sections(spec: registry.GameSpec, games: list[StoredGame], anchor: str | None = None) -> dict[str, list[Row]]:
    """Ratings a game asks for beyond the match's (``report.rated``: section -> (a, b, a's score,
    cluster) per comparison, e.g. per round of a duel); intervals bootstrap over clusters."""
    rated = spec.report.rated
    out = {}
    for name, results in (rated(games) if rated else {}).items():
        rows = bt.ratings([(a, b, s) for a, b, s, _ in results], clusters=[c for *_, c in results], anchor=anchor)
        out[name] = [{"agent": r.player, "games": r.games, "rating": r.rating, "ci_low": r.ci_low,
                      "ci_high": r.ci_high} for r in rows]
    return out


def ratings(games: list[StoredGame], anchor: str | None = None) -> list[Row]:
    return _rating_rows([(a, b, s) for a, b, s, _ in _pair_results(games)], anchor)


def ratings_by_role(games: list[StoredGame]) -> list[Row]:
    """One rating per player and role (first or second mover), fitted jointly."""
    results = [(f"{a}\t1", f"{b}\t2", s) for a, b, s, _ in _pair_results(games)]
    rows = []
    for r in bt.ratings(results):
        player, role = r.player.rsplit("\t", 1)
        rows.append({"agent": player, "role": "first" if role == "1" else "second", "games": r.games,
                     "rating": r.rating, "ci_low": r.ci_low, "ci_high": r.ci_high})
    return sorted(rows, key=lambda row: (row["role"], -row["rating"], row["agent"]))


def per_language(table: Any, games: list[StoredGame], *args: Any) -> list[Row]:
    """A round-robin table, once per language when the games were played in more than one (a
    language changes a result: its rows are never pooled), with the language as a column."""
    langs = sorted({g.lang for g in games})
    if len(langs) <= 1:
        return table(games, *args)
    rows = []
    for lang in langs:
        for row in table([g for g in games if g.lang == lang], *args):
            rows.append({"agent": row["agent"], "lang": lang, **row})
    return rows


# --- the whole report -------------------------------------------------------------------------

@dataclass
class Report:
    sections: dict[str, list[Row]] = field(default_factory=dict)
    layout: list[str] = field(default_factory=list)          # the sections shown by default, in order
    notes: list[str] = field(default_factory=list)           # note keys, in order
    game: str = ""                                           # the game's id (set by build)
    meta: dict[str, Any] = field(default_factory=dict)       # game-specific keys for JSON and the notes
    extra: dict[str, registry.SeedTable] = field(default_factory=dict)   # the seeds' tables, built when asked
    games: list[StoredGame] = field(default_factory=list)
    context: Any = None

    def section(self, name: str) -> list[Row]:
        """A section's rows; a seed table is built the first time it is asked for."""
        if name not in self.sections and name in self.extra:
            self.sections[name] = self.extra[name].build(self.games, self.context)
            brought = EXTRA_NOTES.get(name, ())
            for note in (brought,) if isinstance(brought, str) else brought:
                if note not in self.notes:
                    self.notes.append(note)
        return self.sections.get(name) or []


# Notes a seed table brings along when shown.
EXTRA_NOTES = {"paper_scaling": "paper_scaling", "paper_fits": "paper_scaling", "wide": "wide",
               "families": "facts", "sizes": "facts", "time_vs_win": "time_vs_win", "paper_summary": "paper_summary",
               "branching": "branching", "language_scale": "facts", "thinking": "facts", "quality": "quality",
               "quality_by_kind": "quality", "quality_by_phase": ("quality", "quality_by_phase"),
               "diversity": ("diversity", "quality_by_phase"), "adaptability": ("quality", "adaptability"),
               "scale": "scale", "regret_ranking": ("quality", "regret_ranking")}


def build(games: list[StoredGame], spec: registry.GameSpec | None = None, *, by: tuple[str, ...] | None = None,
          context: Any = None, anchor: str | None = None) -> Report:
    """The report of ``games``; with ``by``, players whose games differ in one of those keys are
    kept apart (``tcgtui.report.grouping``) and the report says what it grouped by; ``anchor``: a
    player every rating table fixes at 1000 (``ratings.FIRST``: the first by name), else the mean."""
    # cycle: report.extra and report.grouping import this module
    from tcgtui.report import extra, grouping
    spec = spec or registry.get(games[0].game)             # no spec: the games' own (never empty then)
    context = context or extra.Context()
    varied: list[str] = []
    if by is not None:
        varied, context.base = grouping.apply(games, by, spec.info.prompt_styles[0] if spec.info.prompt_styles else "",
                                              spec.info.params)
    score_game = spec.info.outcome == registry.SCORE
    outcome = "scores" if score_game else "win_rates"
    sections: dict[str, list[Row]] = {outcome: scores(games, spec.info.right_wrong) if score_game
                                      else win_rates(games)}
    own = {**(spec.analyses(games) if spec.analyses is not None else {}), **rated_sections(spec, games, anchor)}
    sections.update(own)
    sections.update({"decisions": decisions(games), "llm": llm_rates(games), "errors": errors(games)})
    rr = round_robin_games(games) if spec.info.seats == 2 else []
    sections.update({"matrix": per_language(matrix, rr), "ratings": per_language(ratings, rr, anchor),
                     "ratings_by_role": per_language(ratings_by_role, rr)})
    layout = list(spec.report.layout or [outcome, *own, "decisions", "llm", "errors"])
    layout += [name for name in ROUND_ROBIN if sections[name] and name not in layout]
    exact = {"scores": "scores_exact"} if spec.info.right_wrong else {}
    note_keys = {**COMMON_NOTES, **exact, **spec.report.notes}
    notes = list(dict.fromkeys(note_keys[name] for name in layout if name in note_keys))
    notes += ["every_seat"] if any(g.mirror for g in games) else []
    notes += ["people"] if any(pooled_people(r["agent"]) for r in sections[outcome]) else []
    notes += [ANYTIME] if any(r.get("interval") == ANYTIME for r in sections[outcome]) else []
    meta = dict(spec.report.meta()) if spec.report.meta else {}
    if by is not None:
        meta.update(grouped_by=", ".join(grouping.all_keys(by, spec.info.params)), varied=", ".join(varied) or "–")
        notes.append("grouped")
    if context.ci == "exact-randomized":
        meta["ci_seed"] = context.seed
        extra.add_interval(sections[outcome] if outcome == "win_rates" else [], context,
                           lambda r: f"{r['agent']}|{r['opponent']}|{r['lang']}")
        notes.append("randomized")
    return Report(sections, layout, notes, spec.id, meta, extra.tables(spec), games, context)
