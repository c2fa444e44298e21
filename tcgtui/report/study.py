"""``tcgtui report --study ID``: the human baseline of a study, counting people, not games.

Three tables (``tcgtui.report.people`` has the statistics and why):
- ``study_baseline``: per game, opponent and language, the people and games, the estimate (mean over
  people of each person's win share, share right or mean score), its person-clustered 95% interval,
  the spread between people (SD of their means, ICC) and, for 0/1 results, the pooled Clopper–Pearson
  interval over games beside it, labelled as what it is: the interval if games were independent;
- ``study_curve``: the estimate at a person's 1st, 2nd, ... game of each game (its rungs are
  counterbalanced, so every position mixes the opponents), over the people who played that many;
- ``study_paired`` (a paired study): per model of the replayed run, each person's value minus the
  model's on the same deal (game, opponent, seed and language), averaged per person, bootstrapped
  over people.
Each row's resamples come from the report's seed and the row's key, so a table reprints identically.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from tcgtui.engine.stats import clopper_pearson, mean
from tcgtui.report import people
from tcgtui.report.analyses import Report, Row
from tcgtui.report.study_data import RIGHT, WIN, Played, StudyData, measure

SECTIONS = ("study_baseline", "study_curve", "study_paired")


def _valued(games: Iterable[Played]) -> list[tuple[Played, float]]:
    out = []
    for g in games:
        v = g.value(measure(g.game))
        if v is not None:
            out.append((g, v))
    return out


def _by_person(valued: Iterable[tuple[Played, float]]) -> list[list[float]]:
    """Values per person, each in the order of their games."""
    per: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for g, v in valued:
        per[g.person].append((g.index, v))
    return [[v for _, v in sorted(vs)] for _, vs in sorted(per.items())]


def _interval(s: people.Summary) -> Row:
    return {"estimate": s.estimate, "ci_low": s.low, "ci_high": s.high}


def baseline(data: StudyData, seed: int) -> list[Row]:
    cells: dict[tuple[str, str, str], list[tuple[Played, float]]] = defaultdict(list)
    for g, v in _valued(data.people_games):
        cells[(g.game, g.opponent, g.lang)].append((g, v))
    rows = []
    for (game, opponent, lang), valued in sorted(cells.items()):
        kind = measure(game)
        binary = kind in (WIN, RIGHT)
        key = f"study_baseline|{game}|{opponent}|{lang}"
        s = people.summarise(_by_person(valued), people.rng(seed, key), binary=binary)
        pooled = clopper_pearson(round(sum(v for _, v in valued)), len(valued)) if binary else None
        rows.append({"game": game, "opponent": opponent, "lang": lang, "measure": kind, "people": s.people,
                     "games": s.games, **_interval(s), "sd_people": s.sd, "icc": s.icc,
                     "pooled_low": pooled[0] if pooled else None, "pooled_high": pooled[1] if pooled else None})
    return rows


def curve(data: StudyData, seed: int) -> list[Row]:
    by_game: dict[str, list[tuple[Played, float]]] = defaultdict(list)
    for g, v in _valued(data.people_games):
        by_game[g.game].append((g, v))
    rows = []
    for game, valued in sorted(by_game.items()):
        kind = measure(game)
        points = people.learning_curve(_by_person(valued), people.rng(seed, f"study_curve|{game}"),
                                       binary=kind in (WIN, RIGHT))
        rows += [{"game": game, "measure": kind, "position": i + 1, "people": s.people, **_interval(s)}
                 for i, s in points]
    return rows


def paired(data: StudyData, seed: int) -> list[Row]:
    """A person's value minus each model's on the same deals (the model's mean where it played a deal more
    than once), per game, opponent, language and model."""
    if not data.model_games:
        return []
    models: dict[tuple[str, str, str, int, str], list[float]] = defaultdict(list)
    for g, v in _valued(m for m in data.model_games if not m.agent.startswith("human:")):
        models[(g.agent, g.game, g.opponent, g.seed, g.lang)].append(v)
    agents = sorted({k[0] for k in models})
    cells: dict[tuple[str, str, str, str], dict[str, list[tuple[int, float, float]]]] = defaultdict(
        lambda: defaultdict(list))
    for g, v in _valued(data.people_games):
        for agent in agents:
            theirs = models.get((agent, g.game, g.opponent, g.seed, g.lang))
            if theirs:
                cells[(g.game, g.opponent, g.lang, agent)][g.person].append((g.index, v, mean(theirs)))
    rows = []
    for (game, opponent, lang, agent), per in sorted(cells.items()):
        ordered = [sorted(per[p]) for p in sorted(per)]
        s = people.paired([[v - m for _, v, m in games] for games in ordered],
                          people.rng(seed, f"study_paired|{game}|{opponent}|{lang}|{agent}"))
        rows.append({"game": game, "opponent": opponent, "lang": lang, "model": agent, "measure": measure(game),
                     "people": s.people, "pairs": s.games,
                     "person_mean": mean([mean([v for _, v, _ in gs]) for gs in ordered]),
                     "model_mean": mean([mean([m for _, _, m in gs]) for gs in ordered]),
                     "difference": s.estimate, "ci_low": s.low, "ci_high": s.high})
    return rows


def build(data: StudyData, seed: int = 0) -> Report:
    """The study's report; its meta records the study, its digest and how the intervals were made."""
    sections = {"study_baseline": baseline(data, seed), "study_curve": curve(data, seed),
                "study_paired": paired(data, seed)}
    notes = ["study", "study_curve"] + (["study_paired"] if data.paired_run else [])
    meta = {"study": data.id, "digest": data.digest, "interval": people.METHOD, "resamples": people.RESAMPLES,
            "ci_seed": seed, "paired_run": data.paired_run or "–"}
    return Report(sections, list(SECTIONS), notes, "", meta)
