"""A study as its report and status read it from the store: the study's run, its games, its participants,
and for a paired study the games of the run whose deals people replayed.

The convention (docs/study.md): the study is the run ``study:<id>`` of kind ``study`` whose config holds
``{"study": id, "digest": ..., "spec": {...}}``; its counted games have the agent ``human:<pseudonym>``;
practice games are another run and never read here.  A game's value for its player is what the report's
win rates count (a win 1, a draw or a loss 0; cancelled, errored, abandoned and unfinished games none),
or in a score game its score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import CANCELLED
from tcgtui.errors import UserError
from tcgtui.store import FINISHED, Run, Store
from tcgtui.store import queries
from tcgtui.study.names import KIND, RUN_PREFIX

WIN, RIGHT, SCORE = "win", "right", "score"      # what a game's value measures


@dataclass(frozen=True, slots=True)
class Played:
    """One stored game of a study's run (or of the run a paired study replays); its fields in the order
    ``queries.run_games`` reads them."""

    id: str
    agent: str
    opponent: str
    lang: str
    index: int
    seed: int
    game: str
    status: str
    winner: int | None
    seat: int
    score: float | None
    reason: str | None

    @property
    def person(self) -> str:
        """The pseudonym of a person's game (``human:p-3f9a2c1d`` -> ``p-3f9a2c1d``)."""
        return self.agent.removeprefix(queries.HUMAN_PREFIX)

    def value(self, measure: str) -> float | None:
        """The game's value for its player, None when it has none (not finished, or cancelled)."""
        if self.status != FINISHED or self.reason == CANCELLED:
            return None
        if measure == WIN:
            return 1.0 if self.winner is not None and self.winner == self.seat else 0.0
        return self.score


@dataclass(frozen=True)
class Participant:
    id: str
    lang: str
    number: int
    joined_at: str
    finished_at: str | None
    left_at: str | None


@dataclass
class StudyData:
    id: str
    digest: str
    spec: dict[str, Any]
    games: list[Played]                      # the study run's games, every status
    participants: list[Participant]
    paired_run: str | None = None            # the run whose deals people played (a paired study)
    model_games: list[Played] | None = None  # ... and its games

    @property
    def people_games(self) -> list[Played]:
        return [g for g in self.games if g.agent.startswith(queries.HUMAN_PREFIX)]


def measure(game_id: str) -> str:
    """What a game's value measures: win share, share right (a right/wrong quiz) or mean score."""
    try:
        info = registry.get(game_id).info
    except registry.UnknownGame:
        return WIN
    if info.right_wrong:
        return RIGHT
    return SCORE if info.outcome == registry.SCORE else WIN


def studies(store: Store) -> list[Run]:
    return [r for r in store.runs() if r.kind == KIND and r.name.startswith(RUN_PREFIX)]


def _games(store: Store, run_id: int) -> list[Played]:
    return [Played(*row) for row in queries.run_games(store.conn, run_id)]


def load(store: Store, study: str, flag: str = "--study") -> StudyData:
    """The study ``study`` (its id); one line naming the stored studies when there is none by that id."""
    run = store.run(RUN_PREFIX + study)
    if run is None or run.kind != KIND:
        known = ", ".join(r.name.removeprefix(RUN_PREFIX) for r in studies(store)) or "–"
        raise UserError(locales.load().t("cmd_report.errors.unknown_study", flag=flag, study=study,
                                         path=str(store.path), known=known))
    config = run.config
    spec = config.get("spec") if isinstance(config.get("spec"), dict) else {}
    people = [Participant(*row) for row in queries.participants(store.conn, study)]
    data = StudyData(study, str(config.get("digest", "")), spec, _games(store, run.id), people)
    deals = spec.get("deals") if isinstance(spec.get("deals"), dict) else {}
    if deals.get("kind") == "paired" and isinstance(deals.get("run"), str):
        data.paired_run = deals["run"]
        paired = store.run(deals["run"])
        data.model_games = _games(store, paired.id) if paired is not None else []
    return data
