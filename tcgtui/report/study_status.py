"""``tcgtui study status``: how far a study has got, as report tables (``tcgtui.report.render`` shows them).

- ``status_people``: per language and in all, the participants who joined (gave consent), finished (every
  counted game played) and dropped out (joined, not finished: a person still playing counts here until
  they finish);
- ``status_dropouts``: each of those with their progress: counted games finished of those planned;
- ``status_rungs``: per rung (game and opponent, in the study file's order) and language, its counted games
  finished, in progress, abandoned and errored;
- ``status_studies``: with no study named, one line per study in the store.
A participant is shown by their pseudonym only; their token never leaves the store.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tcgtui.report.analyses import Report, Row
from tcgtui.report.study_data import RUN_PREFIX, StudyData, studies, load
from tcgtui.store import ABANDONED, ERRORED, FINISHED, IN_PROGRESS, Store

ALL = "all"          # the row of every language


def rungs(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """The study's rungs, (game, opponent), in file order (a spec this code cannot read: none)."""
    out = []
    for entry in spec.get("games") or []:
        if isinstance(entry, dict) and isinstance(entry.get("ladder"), list):
            out += [(str(entry.get("game")), str(opponent)) for opponent in entry["ladder"]]
    return out


def planned(spec: dict[str, Any]) -> int | None:
    """Counted games per person: rungs × games per rung (None when the spec does not say)."""
    per = spec.get("games_per_rung")
    return len(rungs(spec)) * per if isinstance(per, int) and rungs(spec) else None


def people(data: StudyData) -> list[Row]:
    langs = sorted({p.lang for p in data.participants})
    rows = []
    for lang in [*langs, ALL] if len(langs) > 1 else langs or [ALL]:
        chosen = [p for p in data.participants if lang in (ALL, p.lang)]
        done = sum(p.finished_at is not None for p in chosen)
        rows.append({"lang": lang, "joined": len(chosen), "finished": done, "dropped_out": len(chosen) - done})
    return rows


def dropouts(data: StudyData) -> list[Row]:
    by_person: dict[str, Counter] = {}
    for g in data.people_games:
        by_person.setdefault(g.person, Counter())[g.status] += 1
    total = planned(data.spec)
    return [{"participant": p.id, "lang": p.lang, "number": p.number, "joined_at": p.joined_at,
             "finished_games": by_person.get(p.id, Counter())[FINISHED], "planned": total,
             "in_progress": by_person.get(p.id, Counter())[IN_PROGRESS], "left_at": p.left_at}
            for p in data.participants if p.finished_at is None]


def rung_games(data: StudyData) -> list[Row]:
    counts: dict[tuple[str, str, str], Counter] = {}
    for g in data.people_games:
        counts.setdefault((g.game, g.opponent, g.lang), Counter())[g.status] += 1
    order = rungs(data.spec)
    known = order + sorted({(game, opponent) for game, opponent, _ in counts} - set(order))
    langs = sorted({p.lang for p in data.participants} | {lang for *_, lang in counts})
    return [{"game": game, "opponent": opponent, "lang": lang, "finished": c[FINISHED], "in_progress": c[IN_PROGRESS],
             "abandoned": c[ABANDONED], "errored": c[ERRORED]}
            for game, opponent in known for lang in langs
            for c in [counts.get((game, opponent, lang), Counter())]]


def build(data: StudyData) -> Report:
    sections = {"status_people": people(data), "status_dropouts": dropouts(data), "status_rungs": rung_games(data)}
    meta = {"study": data.id, "digest": data.digest, "planned": planned(data.spec) or "–"}
    return Report(sections, list(sections), ["status"], "", meta)


def every_study(store: Store) -> Report:
    """One row per study in the store: its participants and counted games."""
    rows = []
    for run in studies(store):
        data = load(store, run.name.removeprefix(RUN_PREFIX))
        done = sum(p.finished_at is not None for p in data.participants)
        rows.append({"study": data.id, "joined": len(data.participants), "finished": done,
                     "dropped_out": len(data.participants) - done,
                     "games": sum(g.status == FINISHED for g in data.people_games)})
    return Report({"status_studies": rows}, ["status_studies"], [], "", {})
