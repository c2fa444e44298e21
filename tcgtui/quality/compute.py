"""``tcgtui analyze --run``: judge every stored decision of a run that has no value yet from the
evaluator, game by game, each game's values written in one transaction as it is done, so an
interrupted analysis resumes where it stopped and a second one computes nothing.

The judging runs in ``workers`` processes (spawned: the parent holds an open store) or as tasks on a
Ray cluster (``--ray ADDRESS``: the bench's ``RayExecutor``, handed in by the command).  Work items
are plain data, the game's row and its decisions read by the parent, so a worker never opens the
store; the parent alone writes it.  On Ray, several games go in one task (``batches``) so that a
task's overhead does not dominate.
"""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.quality import evaluators, stored
from tcgtui.quality.judge import Judged, judge
from tcgtui.replay.load import find, rebuild, stored_params
from tcgtui.store import FINISHED, DecisionRow, GameRow, Store

TASKS_PER_SLOT = 4      # on Ray: tasks per CPU of the cluster, enough to even out games of unequal length


@dataclass(frozen=True)
class Job:
    """One game's decisions to judge: by the evaluator ``spec`` names (None: the game's own), stored under ``key``."""

    game_id: str
    spec: str | None
    key: str
    idxs: tuple[int, ...]


@dataclass
class Plan:
    jobs: list[Job] = field(default_factory=list)
    games: int = 0                  # finished games with an evaluator
    judged: int = 0                 # of their decisions among legal moves, those valued already
    unjudged: int = 0               # finished games whose game has no evaluator (or not on their board)
    keys: set[str] = field(default_factory=set)     # the evaluators judging them


def with_evaluator() -> str:
    return ", ".join(s.id for s in registry.games() if evaluators.judged(s)) or "-"


def _evaluator(row: GameRow, spec: str | None, built: dict[str, Any]) -> Any:
    """The evaluator for ``row``'s game (rebuilt once per setup); None when its game has none; a spec
    the game does not take raises ValueError."""
    game_spec = registry.get(row.game)
    if not evaluators.judged(game_spec):
        return None
    key = json.dumps([row.game, row.pack_hash, stored_params(row)], sort_keys=True, default=str)
    if key not in built:
        built[key] = evaluators.resolve(game_spec, rebuild(row), spec)
    return built[key]


def plan(store: Store, run: str, game: str | None = None, spec: str | None = None,
         player: str | None = None) -> Plan:
    """What is missing for the finished games of ``run`` (or its one game ``game``, an id or prefix); with
    ``player``, for that player's decisions only (a run's yardstick opponent need not be judged)."""
    text = locales.load()
    found = store.run(run)
    if found is None:
        known = ", ".join(clean(r.name) for r in store.runs()) or "-"
        raise UserError(text.t("quality.unknown_run", run=clean(run), db=str(store.path), known=known))
    if game is not None:
        try:
            row = find(store, game)
        except UserError as exc:            # find names replay's argument; here it is a flag
            raise UserError("--game-id: " + str(exc).removeprefix("GAME_ID: ")) from None
        if row.run_id != found.id:
            raise UserError(text.t("quality.not_in_run", id=row.id[:12], run=clean(run)))
        rows = [row]
    else:
        rows = store.games("run_id = ? AND status = ?", (found.id, FINISHED))
    if player is not None:
        rows = [row for row in rows if player in row.seats]
        if not rows:
            players = sorted({name for row in store.games("run_id = ?", (found.id,)) for name in row.seats})
            raise UserError(text.t("quality.unknown_player", player=clean(player), run=clean(run),
                                   players=", ".join(clean(p) for p in players) or "-"))
    out = Plan()
    built: dict[str, Any] = {}
    for row in rows:
        try:
            evaluator = _evaluator(row, spec, built)
        except ValueError as exc:
            if spec is not None:
                raise UserError(text.t("quality.bad_evaluator", spec=clean(spec), game=row.game, why=clean(str(exc)))) from None
            if game is not None:
                raise UserError(text.t("quality.no_evaluator_here", id=row.id[:12], why=clean(str(exc)))) from None
            out.unjudged += 1
            continue
        if evaluator is None:
            if game is not None:
                raise UserError(text.t("quality.no_evaluator", id=row.id[:12], game=row.game, games=with_evaluator()))
            out.unjudged += 1
            continue
        if row.status != FINISHED:
            raise UserError(text.t("quality.unfinished", id=row.id[:12], status=row.status))
        out.games += 1
        out.keys.add(evaluator.key)
        idxs = stored.missing(store.conn, row.id, evaluator.key, player)
        out.judged += store.conn.execute("SELECT count(*) FROM decision_values WHERE game_id = ? AND evaluator = ?",
                                         (row.id, evaluator.key)).fetchone()[0]
        if idxs:
            out.jobs.append(Job(row.id, spec, evaluator.key, tuple(sorted(idxs))))
    if not out.games:
        raise UserError(text.t("quality.none", run=clean(run), games=with_evaluator()))
    return out


# What a worker needs to judge one game: its stored row and decisions, and the job.
Work = tuple[GameRow, list[DecisionRow], Job]


def judge_game(row: GameRow, decisions: list[DecisionRow], job: Job) -> list[Judged]:
    """A worker's part: one game's missing decisions judged from its shipped row and decisions."""
    evaluator = evaluators.resolve(registry.get(row.game), rebuild(row), job.spec)
    return judge(row, decisions, evaluator, set(job.idxs))


def judge_batch(batch: list[Work]) -> list[list[Judged]]:
    """A task's part (in a worker process or on Ray): several games, each judged as alone."""
    return [judge_game(*work) for work in batch]


def _work(store: Store, job: Job) -> Work:
    return store.games("id = ?", (job.game_id,))[0], store.decisions(job.game_id), job


def batches(jobs: list[Job], tasks: int) -> Iterator[list[Job]]:
    """``jobs`` cut in order into at most ``tasks`` runs of about equal numbers of decisions."""
    total = sum(len(j.idxs) for j in jobs)
    per_task = max(1, -(-total // max(1, tasks)))
    batch: list[Job] = []
    held = 0
    for job in jobs:
        batch.append(job)
        held += len(job.idxs)
        if held >= per_task:
            yield batch
            batch, held = [], 0
    if batch:
        yield batch


def compute(store: Store, jobs: list[Job], workers: int = 1,
            progress: Callable[[int], None] | None = None, cluster: Callable[[], Any] | None = None) -> int:
    """Judge ``jobs`` and store each game's values as it is done: how many values were stored.
    ``progress(games done)`` after each game; ``cluster``: makes the Ray executor to use instead of
    ``workers`` (``tcgtui.bench.cluster.RayExecutor``, given by the command: the bench imports the
    report, which imports this package)."""
    added = done = 0

    def stored_one(job: Job, judged: list[Judged]) -> None:
        nonlocal added, done
        added += stored.write(store, job.game_id, job.key, judged)
        done += 1
        if progress is not None:
            progress(done)

    if cluster is not None and jobs:
        pool = cluster()
        try:
            _drain(pool, [(pool.submit(judge_batch, [_work(store, j) for j in batch]), batch)
                          for batch in batches(jobs, TASKS_PER_SLOT * pool.slots())], stored_one)
        finally:
            pool.shutdown()
        return added
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            stored_one(job, judge_game(*_work(store, job)))
        return added
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        _drain(pool, [(pool.submit(judge_batch, [_work(store, job)]), [job]) for job in jobs], stored_one)
    return added


def _drain(pool: Executor, submitted: list[tuple[Any, list[Job]]], stored_one: Callable[[Job, list[Judged]], None]) \
        -> None:
    """Store each batch's games as its task ends, in whatever order tasks end."""
    pending = dict(submitted)
    while pending:
        finished, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in finished:
            for job, judged in zip(pending.pop(future), future.result()):
                stored_one(job, judged)
