"""The sandbox's cost: one check (start an isolated interpreter, run a trivial puzzle, read the
verdict) one at a time, and checks per second with one check per core at once.  Also, for every
game that gives ``referee.random_move`` (the free-text games, whose checks a referee settles),
its own work per move (rules and records, no check, no model), to set beside a model's reply time."""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.measure import Metric, PerfOptions
from tcgtui.sandbox import Sandbox

NAME = "sandbox"
ORDER = 60
PUZZLE = "def mystery(x):\n    return isinstance(x, str) and x[::-1] == x and len(x) == 7\n"


def _sequential(sandbox: Sandbox, n: int) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        verdict = sandbox.check_sync(PUZZLE, "'racecar'")
        times.append(time.perf_counter() - started)
        if verdict.result != "true":
            raise RuntimeError(f"the sandbox answered {verdict.result}: {verdict.detail}")
    return statistics.median(times)


def _parallel(sandbox: Sandbox, n: int) -> float:
    started = time.perf_counter()
    verdicts = asyncio.run(sandbox.check_many([(PUZZLE, "'racecar'")] * n))
    elapsed = time.perf_counter() - started
    if any(v.result != "true" for v in verdicts):
        raise RuntimeError("a parallel check failed")
    return n / elapsed


def _engine_move_ms(spec: registry.GameSpec, games: int, seed: int) -> float:
    game, random_move = spec.game({}), spec.referee.random_move
    moves, started = 0, time.perf_counter()
    for i in range(games):
        match, rng = Match(game, seed + i), random.Random(seed + i)
        while not match.state.is_terminal():
            match.play(random_move(match.state, rng))
            moves += 1
    return (time.perf_counter() - started) * 1000 / moves


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    cores = os.cpu_count() or 1
    n, games = (3, 5) if options.quick else (30, 200)
    batch = cores * (2 if options.quick else 16)
    one = _sequential(Sandbox(workers=1), n)
    rate = _parallel(Sandbox(workers=cores), batch)
    return [Metric("check_seconds", one, "s", text.t("perf_sandbox.check", n=n)),
            Metric("checks_per_second", rate, "1/s", text.t("perf_sandbox.parallel", workers=cores, n=batch)),
            *(Metric(f"{spec.id}_move_ms", _engine_move_ms(spec, games, options.seed), "ms",
                     text.t("perf_sandbox.engine", games=games))
              for spec in registry.games() if spec.referee.random_move)]
