"""What ``tcgtui bench`` itself costs per decision, for every kind of player this install has.

Each measurement plays a real sweep (engine, agents, records, SQLite store in a
temporary file) through the same runner ``tcgtui bench`` uses:

- For every registered kind that thinks locally (random, and mc/mcts when
  present), the overhead is the sweep's wall time minus the time spent inside
  the agents' ``decide``, per decision, one game at a time.
- As ``tcgtui bench`` runs a cheap sweep (random against mc:1, 16 games at a
  time, cheap games played whole in a worker pool): the bench process's CPU
  time per game, which caps how many games per second one process can store;
  and how long mc:1's decisions take while mc:1000 games share the sweep
  (a cheap decision must not wait behind dear ones).
- With ``llm`` registered, a zero-latency fake endpoint runs in a separate
  process, so the bench process's CPU time per model decision is exactly what
  tcgtui adds (engine, prompt, HTTP client, parsing, records, database), split
  into the agent's part and the bench's.  Then 64 games run at once: against
  the zero-latency endpoint that gives the most decisions per second tcgtui
  can drive on its one event loop; against an endpoint answering in LATENCY_S,
  tcgtui's CPU share shows it waits on the endpoint, which sets the pace.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcgtui.engine.core import Event
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import Agent, Decision, SeatContext
from tcgtui.opponents.registry import BUILDERS, make_agent
from tcgtui.bench.plan import Cell, build_config, identity, open_run
from tcgtui.bench.runner import Sweep, run_sweep
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions
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
    mine_s: float = 0.0      # inside the measured agent's decide() calls


def _sweep(agent: str, opponent: str, games: int, concurrency: int, seed: int,
           options: dict[str, Any], inside: dict[str, float] | None = None,
           game_pool: Executor | None = None, more: tuple[Cell, ...] = ()) -> Measured:
    """Play a sweep into a fresh store; time it from the first game to the last commit.

    With ``inside``, the CPU time spent in each spec's ``decide`` is added up there; ``more``
    are cells played beside the measured one.
    """
    game = TcgGame(load_pack())
    cells = [Cell(agent, opponent, "en"), *more]
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "perf.sqlite3") as store:
        run = open_run(store, "perf", build_config(identity(game, seed), cells, {}, games, {}))
        sweep = Sweep(run, game, cells, games, seed, concurrency, game_pool=game_pool)
        wall, cpu = time.perf_counter(), time.process_time()
        def factory(spec: str) -> Agent:
            agent = make_agent(spec, **options)
            return agent if inside is None else _CpuMeter(agent, inside)

        asyncio.run(run_sweep(store, sweep, factory))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        mine, total, agent_s, mine_s = store.conn.execute(
            "SELECT sum(d.agent = ?), count(*), sum(d.seconds), sum(CASE WHEN d.agent = ? THEN d.seconds END)"
            " FROM decisions d", (agent, agent)).fetchone()
    return Measured(wall, cpu, int(mine or 0), int(total), float(agent_s or 0), float(mine_s or 0))


def _local(kind: str, spec: str, opts: PerfOptions, executor: Executor | None) -> list[Metric]:
    games = 20 if opts.quick else 400
    if kind != "random":
        games = 2 if opts.quick else games // 20
    _sweep(spec, "random", 1, 1, opts.seed, {"executor": executor})     # warm up: workers, compiled kernels
    m = _sweep(spec, "random", games, 1, opts.seed, {"executor": executor})
    overhead = (m.wall_s - m.agent_s) / m.all_decisions
    return [Metric(f"{kind}_overhead_per_decision", overhead * 1000, "ms",
                   f"{spec} vs random, {games} games one at a time: (wall - time in decide) / decisions"),
            Metric(f"{kind}_decisions_per_second", m.all_decisions / m.wall_s, "1/s",
                   f"{spec} vs random, both seats, stored")]


def _cheap_sweep(opts: PerfOptions, executor: Executor) -> list[Metric]:
    """A cheap sweep as ``tcgtui bench`` runs it, then mc:1 beside mc:1000 games."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.bench.pool import process_pool

    games = 100 if opts.quick else 2000
    game_pool = process_pool()
    try:
        _sweep("mc:1", "random", 32, 16, opts.seed, {"executor": executor}, game_pool=game_pool)   # warm up
        m = _sweep("mc:1", "random", games, 16, opts.seed, {"executor": executor}, game_pool=game_pool)
        beside = _sweep("mc:1", "random", 4 if opts.quick else 40, 16, opts.seed, {"executor": executor},
                        game_pool=game_pool, more=(Cell("mc:1000", "random", "en"),))
    finally:
        game_pool.shutdown(wait=True, cancel_futures=True)
    return [Metric("bench_cpu_per_game", m.cpu_s / games * 1000, "ms",
                   f"the bench process's CPU per game, mc:1 vs random, {games} games 16 at a time as tcgtui bench "
                   "plays them (cheap games whole in a worker pool)"),
            Metric("bench_games_per_second", games / m.wall_s, "1/s", "in that sweep, stored"),
            Metric("mc1_decision_beside_mc1000", beside.mine_s / max(1, beside.decisions) * 1000, "ms",
                   "mean time of an mc:1 decision in a sweep that plays mc:1000 games beside it, 16 at a time")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(port: int, latency: float) -> None:
    """The fake endpoint, answering every request after ``latency`` seconds (run in a child process).
    It stops when its standard input closes: the parent holds the other end, so the server ends with
    it however it ends (a SIGKILL too, which no handler of the parent's could see)."""
    # the fake endpoint runs in a child process; the parent never needs it
    from tcgtui.opponents.llm.testserver import ChatServer, Fault

    delay = Fault.delay(latency) if latency > 0 else None
    server = ChatServer(faults=lambda index, received: delay, port=port)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    threading.Thread(target=_stop_at_eof, args=(server,), daemon=True).start()
    print("ready", flush=True)
    try:
        server._httpd.serve_forever(poll_interval=0.05)
    except KeyboardInterrupt:
        pass
    finally:
        server._httpd.server_close()


def _stop_at_eof(server: Any) -> None:
    """Wait for the parent's end of standard input to close, then stop serving."""
    sys.stdin.buffer.read()
    server._httpd.shutdown()


class _Server:
    """The fake endpoint in its own process, so its CPU time is not counted as ours."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency

    def __enter__(self) -> _Server:
        import resource           # POSIX only, like the child-process accounting it reads

        self.port = _free_port()
        self.before = resource.getrusage(resource.RUSAGE_CHILDREN)
        code = f"from tcgtui.perf.bench_overhead import serve; serve({self.port}, {self.latency!r})"
        self.proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        self.proc.stdout.readline()            # "ready": it is listening
        return self

    @property
    def options(self) -> dict[str, Any]:
        return {"base_url": f"http://127.0.0.1:{self.port}/v1", "max_retries": 0}

    def cpu_s(self) -> float:
        """Stop the server and return the CPU time it used (SIGTERM, which it handles itself: a SIGINT
        is ignored when ``tcgtui perf`` was started in the background, and so would the server be)."""
        self.proc.terminate()
        self.proc.wait(timeout=30)
        # POSIX-only, as is the server this measures
        import resource

        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - self.before.ru_utime) + (after.ru_stime - self.before.ru_stime)

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


class _CpuMeter(Agent):
    """Wraps an agent to add up this process's CPU time spent inside its ``decide``."""

    def __init__(self, inner: Agent, totals: dict[str, float]) -> None:
        self.inner, self.totals, self.spec = inner, totals, inner.spec
        self.omniscient = inner.omniscient

    def start(self, ctx: SeatContext) -> None:
        self.inner.start(ctx)

    def begin_turn(self, turn: int) -> None:      # the runner calls it every turn: pass it on
        self.inner.begin_turn(turn)

    def see_state(self, state: Any) -> None:
        self.inner.see_state(state)

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        started = time.process_time()
        try:
            return await self.inner.decide(obs, events)
        finally:
            self.totals[self.spec] = self.totals.get(self.spec, 0.0) + time.process_time() - started

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

    async def aclose(self) -> None:
        await self.inner.aclose()


LLM = "llm:fake"
LATENCY_S = 0.25         # an endpoint that answers this fast is already faster than most real ones


def _llm(opts: PerfOptions) -> list[Metric]:
    games, wide = (4, 64) if opts.quick else (40, 512)     # wide: enough games to spread 64 agents' start-up
    with _Server() as server:
        _sweep(LLM, "random", 2, 1, opts.seed, server.options)        # warm up: imports, first connection
        base = server.cpu_s()
    with _Server() as server:
        inside: dict[str, float] = {}
        one = _sweep(LLM, "random", games, 1, opts.seed, server.options, inside)
        server.cpu_s()
    with _Server() as server:
        capacity = _sweep(LLM, "random", wide, 64, opts.seed, server.options)
        server_cpu = server.cpu_s() - base / 2          # less about what starting the server costs
    with _Server(LATENCY_S) as slow:
        paced = _sweep(LLM, "random", wide, 64, opts.seed, slow.options)
        slow.cpu_s()
    total = one.cpu_s / one.decisions
    agent = inside.get(LLM, 0.0) / one.decisions
    return [
        Metric("llm_overhead_per_decision", total * 1000, "ms",
               f"tcgtui CPU per model decision (engine, prompt, HTTP, parse, records, SQLite); zero-latency "
               f"endpoint in another process; {games} games one at a time"),
        Metric("llm_agent_part", agent * 1000, "ms", "of which inside the LLM agent's decide (prompt, HTTP, parse)"),
        Metric("llm_bench_part", (total - agent) * 1000, "ms",
               "of which in the bench around it (engine, the random opponent, records, SQLite)"),
        Metric("llm_capacity_64", capacity.decisions / capacity.wall_s, "1/s",
               f"model decisions per second, {wide} games 64 at a time, zero-latency endpoint: "
               "the most tcgtui drives on one core"),
        Metric("llm_bench_cpu_share_64", capacity.cpu_s / capacity.wall_s, "x",
               "tcgtui CPU seconds per second in that run (1 = its one event loop saturated)"),
        Metric("llm_server_cpu_share_64", server_cpu / capacity.wall_s, "x",
               "the fake server's CPU seconds per second in that run"),
        Metric("llm_paced_per_second_64", paced.decisions / paced.wall_s, "1/s",
               f"model decisions per second, {wide} games 64 at a time, endpoint answering in {LATENCY_S:g} s"),
        Metric("llm_paced_bench_cpu_share_64", paced.cpu_s / paced.wall_s, "x",
               "tcgtui CPU seconds per second against that endpoint: well below 1 means tcgtui waits on the "
               "endpoint, which sets the pace"),
        Metric("llm_paced_in_flight_64", paced.agent_s / paced.wall_s, "x",
               "model requests in flight on average (64 at most; the last games' tail lowers it)"),
    ]


def run(options: PerfOptions) -> list[Metric]:
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.bench.pool import process_pool

    metrics: list[Metric] = []
    executor = process_pool() if any(k in BUILDERS for k in ("mc", "mcts")) else None
    try:
        for kind, spec in LOCAL_KINDS.items():
            if kind in BUILDERS:
                metrics += _local(kind, spec, options, executor)
        if executor is not None:
            metrics += _cheap_sweep(options, executor)
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
    if "llm" in BUILDERS:
        metrics += _llm(options)
    return metrics
