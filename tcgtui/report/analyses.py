"""The report's tables, each a list of plain rows (dicts) any renderer can show.

Definitions, stated once here and in the report's notes:
- Win rate = wins / finished games; draws count in the denominator as non-wins;
  errored, abandoned and unfinished games are counted apart, never as losses.
- Decision statistics (time, tokens, card types, parse paths) cover the measured
  player's decisions in finished games.
- Error patterns (the paper's Table 3) are counted among the measured player's
  lost games; "share" divides by all patterns found, as the paper's table does.
- Quarters: a game's decisions by the measured player are split into four equal
  parts by position (decision j of n is in quarter ⌊4j/n⌋) for decision-time and
  token variances; for win rates, each cell's finished games are split into
  four equal parts in deal order, and WinRateVar is the variance of the
  quarter's win rate across the agent's cells.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable

from tcgtui.opponents.spec import SpecError, parse_spec
from tcgtui.report import SECTIONS
from tcgtui.report.data import Game
from tcgtui.report.stats import clopper_pearson, fit_decay, mean, median, sample_variance
from tcgtui.store import ABANDONED, ERRORED, FINISHED

Row = dict[str, Any]
LATE_TURN = 10                     # "late losses": lost games that lasted more than this many turns
LOW_DIVERSITY = 3                  # fewer distinct cards than this is "low diversity"
CARD_TYPES = ("champion", "spell", "trick")
PATTERNS = ("late_loss", "no_trick", "no_spell", "no_champion", "low_diversity")
PARSE_PATHS = ("tags", "last_name", "none")
REFERENCE_LANG = "en"


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


def _by_group(games: Iterable[Game]) -> dict[str, list[Game]]:
    out: dict[str, list[Game]] = defaultdict(list)
    for g in games:
        for name in g.groups():
            out[name].append(g)
    return out


@dataclass
class _Cell:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errored: int = 0
    abandoned: int = 0
    unfinished: int = 0

    def add(self, g: Game) -> None:
        self.games += 1
        result = g.result
        if result == "win":
            self.wins += 1
        elif result == "draw":
            self.draws += 1
        elif result == "loss":
            self.losses += 1
        elif g.status == ERRORED:
            self.errored += 1
        elif g.status == ABANDONED:
            self.abandoned += 1
        else:
            self.unfinished += 1

    @property
    def finished(self) -> int:
        return self.wins + self.draws + self.losses


def win_rates(games: list[Game]) -> list[Row]:
    cells: dict[tuple[str, str, str], _Cell] = defaultdict(_Cell)
    for g in games:
        for name in g.groups():
            cells[(name, g.opponent, g.lang)].add(g)
    rows = []
    for (agent, opponent, lang) in sorted(cells, key=lambda c: _sort_key(*c)):
        c = cells[(agent, opponent, lang)]
        ci = clopper_pearson(c.wins, c.finished)
        family, k = opponent_k(opponent)
        rows.append({"agent": agent, "opponent": opponent, "k": k, "lang": lang, "games": c.games,
                     "finished": c.finished, "wins": c.wins, "draws": c.draws, "losses": c.losses,
                     "errored": c.errored, "abandoned": c.abandoned, "unfinished": c.unfinished,
                     "win_rate": c.wins / c.finished if c.finished else None,
                     "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None})
    return rows


def decay_fits(rates: list[Row]) -> list[Row]:
    """One fit per agent × language × opponent family over its K values."""
    series: dict[tuple[str, str, str], list[tuple[int, float]]] = defaultdict(list)
    for r in rates:
        family, k = opponent_k(r["opponent"])
        if family and r["win_rate"] is not None:
            series[(r["agent"], r["lang"], family)].append((k, r["win_rate"]))
    rows = []
    for (agent, lang, family), points in sorted(series.items()):
        points.sort()
        fit = fit_decay([k for k, _ in points], [w for _, w in points])
        rows.append({"agent": agent, "lang": lang, "opponent": family, "ks": [k for k, _ in points],
                     "points": len(points), "a": fit.a if fit else None, "b": fit.b if fit else None,
                     "r2": fit.r2 if fit else None})
    return rows


def language_gaps(rates: list[Row]) -> list[Row]:
    """Relative gap of each language against English: (w_en − w_lang) / w_en, per agent and opponent."""
    table = {(r["agent"], r["opponent"], r["lang"]): r for r in rates if r["win_rate"] is not None}
    rows = []
    for (agent, opponent, lang), r in sorted(table.items(), key=lambda kv: _sort_key(*kv[0])):
        ref = table.get((agent, opponent, REFERENCE_LANG))
        if lang == REFERENCE_LANG or ref is None:
            continue
        gap = (ref["win_rate"] - r["win_rate"]) / ref["win_rate"] if ref["win_rate"] else None
        rows.append({"agent": agent, "opponent": opponent, "lang": lang, "en_win_rate": ref["win_rate"],
                     "win_rate": r["win_rate"], "relative_gap": gap})
    return rows


def summaries(games: list[Game]) -> list[Row]:
    """Per agent and language: game length, decision time, tokens and card-type shares."""
    groups: dict[tuple[str, str], list[Game]] = defaultdict(list)
    for g in games:
        if g.status == FINISHED:
            for name in g.groups():
                groups[(name, g.lang)].append(g)
    rows = []
    for (agent, lang), gs in sorted(groups.items()):
        moves = [m for g in gs for m in g.moves]
        types = Counter(m.card_type for m in moves if m.card_type)
        played = sum(types.values())
        tokens = [m.tokens for m in moves if m.tokens is not None]
        row: Row = {"agent": agent, "lang": lang, "finished": len(gs),
                    "mean_turns": mean([g.turns for g in gs]),
                    "median_decision_s": median([m.seconds for m in moves]),
                    "mean_tokens_per_turn": mean(tokens)}
        for t in CARD_TYPES:
            row[t] = types[t] / played if played else None
        rows.append(row)
    return rows


def _patterns(g: Game) -> list[str]:
    cards = [m for m in g.moves if m.card]
    types = {m.card_type for m in cards}
    found = ["late_loss"] if g.turns > LATE_TURN else []
    found += [f"no_{t}" for t in ("trick", "spell", "champion") if t not in types]
    if len({m.card for m in cards}) < LOW_DIVERSITY:
        found.append("low_diversity")
    return found


def error_patterns(games: list[Game]) -> list[Row]:
    """The paper's Table 3 per agent, among its lost games."""
    rows = []
    for agent, gs in sorted(_by_group(games).items()):
        lost = [g for g in gs if g.result == "loss"]
        if not lost:
            continue
        hits: dict[str, list[Game]] = {p: [] for p in PATTERNS}
        for g in lost:
            for p in _patterns(g):
                hits[p].append(g)
        total = sum(len(v) for v in hits.values())
        for p in PATTERNS:
            hit = hits[p]
            rows.append({"agent": agent, "pattern": p, "hits": len(hit), "losses": len(lost),
                         "of_losses": len(hit) / len(lost), "share": len(hit) / total if total else None,
                         "mean_turns": mean([g.turns for g in hit])})
    return rows


def _deal_quarters(gs: list[Game]) -> dict[tuple[str, str], list[list[Game]]]:
    """Each cell's finished games split into four equal parts in deal order."""
    cells: dict[tuple[str, str], list[Game]] = defaultdict(list)
    for g in gs:
        if g.status == FINISHED:
            cells[(g.opponent, g.lang)].append(g)
    out = {}
    for key, cg in cells.items():
        cg.sort(key=lambda g: (g.run or "", g.index))
        parts: list[list[Game]] = [[], [], [], []]
        for r, g in enumerate(cg):
            parts[4 * r // len(cg)].append(g)
        out[key] = parts
    return out


def quarters(games: list[Game]) -> list[Row]:
    rows = []
    for agent, gs in sorted(_by_group(games).items()):
        seconds: list[list[float]] = [[], [], [], []]
        tokens: list[list[float]] = [[], [], [], []]
        for g in gs:
            n = len(g.moves)
            for j, m in enumerate(g.moves):
                seconds[4 * j // n].append(m.seconds)
                if m.tokens is not None:
                    tokens[4 * j // n].append(m.tokens)
        parts = _deal_quarters(gs)
        if not parts:
            continue
        for q in range(4):
            cell_rates = [sum(g.result == "win" for g in p[q]) / len(p[q]) for p in parts.values() if p[q]]
            wins = sum(sum(g.result == "win" for g in p[q]) for p in parts.values())
            n_games = sum(len(p[q]) for p in parts.values())
            rows.append({"agent": agent, "quarter": q + 1, "games": n_games,
                         "win_rate": wins / n_games if n_games else None,
                         "win_rate_var": sample_variance(cell_rates),
                         "decisions": len(seconds[q]), "mean_decision_s": mean(seconds[q]),
                         "decision_s_var": sample_variance(seconds[q]),
                         "mean_tokens": mean(tokens[q]), "tokens_var": sample_variance(tokens[q])})
    return rows


def llm_rates(games: list[Game]) -> list[Row]:
    """Parse paths, invalid replies and fallbacks, for agents whose decisions report them."""
    rows = []
    for agent, gs in sorted(_by_group(games).items()):
        moves = [m for g in gs if g.status == FINISHED for m in g.moves]
        reported = [m for m in moves if m.parse_path is not None]
        if not reported:
            continue
        paths = Counter(m.parse_path for m in reported)
        n = len(reported)
        row: Row = {"agent": agent, "decisions": n}
        for p in PARSE_PATHS:
            row[f"parse_{p}"] = paths[p] / n
        row["invalid"] = sum(m.invalid for m in reported) / n
        row["fallback_random"] = sum(m.fallback == "random" for m in reported) / n
        row["fallback_forfeit"] = sum(m.fallback == "forfeit" for m in reported) / n
        rows.append(row)
    return rows


@dataclass
class Report:
    sections: dict[str, list[Row]] = field(default_factory=dict)


def build(games: list[Game]) -> Report:
    rates = win_rates(games)
    report = Report({"win_rates": rates, "decay": decay_fits(rates), "language_gap": language_gaps(rates),
                   "summary": summaries(games), "error_patterns": error_patterns(games),
                   "quarters": quarters(games), "llm": llm_rates(games)})
    assert tuple(report.sections) == SECTIONS
    return report
