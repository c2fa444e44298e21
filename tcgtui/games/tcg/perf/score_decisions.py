"""Time to score 10,000 card-game decisions at mc:1000, as ``tcgtui analyze`` scores them.

Each decision is a mid-game position of the community pack valued by the card game's
evaluator (``quality.evaluators``: K re-dealt playouts of every legal move, the same code
``analyze`` runs), in ``--workers`` processes as ``analyze --workers`` runs them.  Each
process loads the compiled kernels and values one position before the clock starts (as a
long analysis pays that once); the sample's time is scaled to 10,000 decisions.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.tcg import TcgGame
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions
from tcgtui.games.tcg.perf._positions import midgame_positions
from tcgtui.quality import evaluators

NAME = "score_decisions"
ORDER = 22
SPEC = "mc:1000"
TARGET = 10_000

_worker: dict[str, Any] = {}


def _start(count: int, seed: int, ready: Any) -> None:
    """A worker's set-up: the positions, the evaluator, one decision valued (kernels loaded), then a
    wait until every worker is set up, so the clock starts with all of them ready."""
    pack = load_pack("community")
    _worker["positions"] = midgame_positions(pack, count, seed)
    _worker["evaluator"] = evaluators.resolve(registry.get("tcg"), TcgGame(pack), SPEC)
    _worker["evaluator"].values(_worker["positions"][0], seed)
    ready.wait()


def _ready(_: int) -> bool:
    return "evaluator" in _worker


def _score(i: int) -> tuple[int, float]:
    """Position ``i`` valued: how many legal moves it had, and the processor seconds it took."""
    started = time.thread_time()
    values = _worker["evaluator"].values(_worker["positions"][i], evaluators.decision_seed("perf", i))
    return len(values), time.thread_time() - started


def run(options: PerfOptions) -> list[Metric]:
    count = 8 if options.quick else 120
    workers = options.workers
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start,
                             initargs=(count, options.seed, context.Barrier(workers))) as pool:
        assert all(pool.map(_ready, range(workers)))        # every worker set up before the clock
        started = time.perf_counter()
        done = list(pool.map(_score, range(count)))
        seconds = time.perf_counter() - started
    text = locales.load()
    moves = sum(m for m, _ in done)
    cpu = sum(c for _, c in done)
    note = text.t("perf_opponents.score_decisions", spec=SPEC, sample=count, target=f"{TARGET:,}",
                  workers=workers, moves=round(moves / count, 1))
    return [Metric("score_10000_decisions_minutes", seconds / count * TARGET / 60, "min", note),
            Metric("score_decision_ms", seconds / count * 1000, "ms",
                   text.t("perf_opponents.score_decision", spec=SPEC, workers=workers)),
            Metric("score_10000_decisions_core_minutes", cpu / count * TARGET / 60, "min",
                   text.t("perf_opponents.score_decisions_cpu", target=f"{TARGET:,}"))]
