"""What ``tcgtui bench`` itself costs per decision, for every kind of player this install has.

Each measurement plays a real sweep (engine, agents, records, SQLite store in a
temporary file) through the same runner ``tcgtui bench`` uses:

- For every registered kind that thinks locally (random, and mc/mcts when
  present), the overhead is the sweep's wall time minus the time spent inside
  the agents' ``decide``, per decision, one game at a time.
- With ``llm`` registered, a zero-latency fake endpoint runs in a separate
  process, so the bench process's CPU time per model decision is exactly what
  tcgtui adds (engine, prompt, HTTP client, parsing, records, database).  Then
  64 games run at once, and the CPU share of each process shows which one is
  the bottleneck: the server when it is near a full core and tcgtui is not.
"""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tcg import TcgGame
from opponents.registry import BUILDERS, make_agent
from tcgtui.bench.plan import Cell, build_config, identity, open_run
from tcgtui.bench.runner import Sweep, run_sweep
from tcgtui.packs import load_pack
from tcgtui.perf import Metric, PerfOptions
from tcgtui.store import Store

NAME = "bench_overhead"
ORDER = 40
LOCAL_KINDS = {"random": "random", "mc": "mc:10", "mcts": "mcts:50"}
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Measured:
    wall_s: float
    cpu_s: float
    decisions: int           # of the measured agent
    all_decisions: int
    agent_s: float           # inside every decide() call, both seats


def _sweep(agent: str, opponent: str, games: int, concurrency: int, seed: int,
           options: dict[str, Any]) -> Measured:
    """Play a sweep into a fresh store; time it from the first game to the last commit."""
    game = TcgGame(load_pack())
    cells = [Cell(agent, opponent, "en")]
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "perf.sqlite3") as store:
        run = open_run(store, "perf", build_config(identity(game, seed), cells, {}, games, {}))
        sweep = Sweep(run, game, cells, games, seed, concurrency)
        wall, cpu = time.perf_counter(), time.process_time()
        asyncio.run(run_sweep(store, sweep, lambda spec: make_agent(spec, **options)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        mine, total, agent_s = store.conn.execute(
            "SELECT sum(d.agent = ?), count(*), sum(d.seconds) FROM decisions d", (agent,)).fetchone()
    return Measured(wall, cpu, int(mine or 0), int(total), float(agent_s or 0))


def _local(kind: str, spec: str, opts: PerfOptions, executor: Executor | None) -> list[Metric]:
    games = 40 if opts.quick else 400
    if kind != "random":
        games = max(4, games // 20)
    m = _sweep(spec, "random", games, 1, opts.seed, {"executor": executor})
    overhead = (m.wall_s - m.agent_s) / m.all_decisions
    return [Metric(f"{kind}_overhead_per_decision", overhead * 1000, "ms",
                   f"{spec} vs random, {games} games one at a time: (wall - time in decide) / decisions"),
            Metric(f"{kind}_decisions_per_second", m.all_decisions / m.wall_s, "1/s",
                   f"{spec} vs random, both seats, stored")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """The fake endpoint in its own process, so its CPU time is not counted as ours."""

    def __enter__(self) -> _Server:
        self.port = _free_port()
        self.before = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.proc = subprocess.Popen([sys.executable, "-m", "opponents.llm.testserver", "--port", str(self.port)],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.proc.stdout.readline()            # the ready line: it is listening
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def cpu_s(self) -> float:
        """Stop the server and return the CPU time it used."""
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - self.before.ru_utime) + (after.ru_stime - self.before.ru_stime)

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _llm(opts: PerfOptions) -> list[Metric]:
    games = 6 if opts.quick else 40
    with _Server() as server:
        one = _sweep("llm:fake", "random", games, 1, opts.seed, {"base_url": server.url, "max_retries": 0})
        server.cpu_s()
    wide_games = 64 if opts.quick else 256
    with _Server() as server:
        wide = _sweep("llm:fake", "random", wide_games, 64, opts.seed, {"base_url": server.url, "max_retries": 0})
        server_cpu = server.cpu_s()
    return [
        Metric("llm_overhead_per_decision", one.cpu_s / one.decisions * 1000, "ms",
               f"bench CPU per model decision, fake endpoint in another process, {games} games one at a time"),
        Metric("llm_wall_per_decision", one.wall_s / one.decisions * 1000, "ms",
               "wall time per model decision at concurrency 1, the local HTTP round trip included"),
        Metric("llm_decisions_per_second_64", wide.decisions / wide.wall_s, "1/s",
               f"model decisions per second, {wide_games} games, 64 at once"),
        Metric("llm_bench_cpu_share_64", wide.cpu_s / wide.wall_s, "x",
               "tcgtui's CPU seconds per second at 64 games (1 = one core busy)"),
        Metric("llm_server_cpu_share_64", server_cpu / wide.wall_s, "x",
               "the fake server's CPU seconds per second at 64 games: near 1 means it is the bottleneck"),
    ]


def run(options: PerfOptions) -> list[Metric]:
    from tcgtui.commands.bench import process_pool

    metrics: list[Metric] = []
    executor = process_pool() if any(k in BUILDERS for k in ("mc", "mcts")) else None
    try:
        for kind, spec in LOCAL_KINDS.items():
            if kind in BUILDERS:
                metrics += _local(kind, spec, options, executor)
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    if "llm" in BUILDERS:
        metrics += _llm(options)
    return metrics
