"""What tcgtui itself costs per LLM decision, against a fake endpoint that answers at once.

The fake server runs in its own process (``python -m tcgtui.opponents.llm.testserver``)
so its work does not share this interpreter; the wall-clock figures are
tcgtui's overhead plus one loopback HTTP round trip to a server with no model
behind it, and ``cpu`` is this process's CPU time alone (tcgtui's own cost,
httpx included, whatever the server and other load on the machine do).  Per decision of the llm: seat: the engine (observation, events,
applying the move), the whole ``decide`` (prompt, request, parse, records),
and, measured apart on the same inputs, prompt building and parsing alone and
a bare request of the same size.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from typing import Iterator

from tcgtui.engine.core import Match
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.llm.reasoning import split_reasoning
from tcgtui.opponents.registry import make_agent
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions

NAME = "llm_overhead"
ORDER = 40


@contextmanager
def fake_endpoint(seed: int) -> Iterator[str]:
    """Start the fake server in a child process; yield its base URL."""
    proc = subprocess.Popen([sys.executable, "-m", "tcgtui.opponents.llm.testserver", "--port", "0",
                             "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        found = re.search(r"http://\S+/v1", proc.stdout.readline())
        if found is None:
            raise RuntimeError("the fake endpoint did not start")
        yield found.group(0)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _ms(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1e3, p95 * 1e3


async def _measure(url: str, decisions: int, seed: int, lang: str) -> dict[str, list[float]]:
    pack = load_pack("community")
    game = TcgGame(pack)
    times: dict[str, list[float]] = {k: [] for k in ("total", "cpu", "engine", "decide", "prompt", "parse",
                                                     "http")}
    agent = make_agent("llm:fake", base_url=url)
    other = make_agent("random")
    clock = time.perf_counter
    game_seed = seed
    try:
        while len(times["total"]) < decisions:
            match = Match(game, game_seed)
            for seat, a in enumerate((agent, other)):
                a.start(SeatContext(seat, game_seed, lang, TcgGame(pack)))
            seen = [0, 0]
            while not match.state.is_terminal() and len(times["total"]) < decisions:
                seat = match.state.current_player
                c0 = time.process_time()
                t0 = clock()
                obs = match.state.observation(seat)
                news = match.events_for(seat, seen[seat])
                seen[seat] = len(match.events)
                t1 = clock()
                decision = await (agent if seat == 0 else other).decide(obs, news)
                t2 = clock()
                match.play(decision.move)
                t3 = clock()
                c1 = time.process_time()
                if seat != 0:
                    continue
                times["engine"].append((t1 - t0) + (t3 - t2))
                times["decide"].append(t2 - t1)
                times["total"].append(t3 - t0)
                times["cpu"].append(c1 - c0)
                # the pieces of decide, again on the same inputs
                t4 = clock()
                msg = agent.prompter.turn(obs, news)
                t5 = clock()
                reply = decision.info["attempts"][-1]["reply"]
                agent.prompter.parse(split_reasoning(reply)[0], obs)
                t6 = clock()
                await agent.client.complete([agent.system, msg])
                t7 = clock()
                times["prompt"].append(t5 - t4)
                times["parse"].append(t6 - t5)
                times["http"].append(t7 - t6)
            game_seed += 1
    finally:
        await agent.aclose()
    return times


def run(options: PerfOptions) -> list[Metric]:
    decisions = 60 if options.quick else 400
    metrics: list[Metric] = []
    notes = {
        "total": "engine + decide, per decision of the llm seat",
        "cpu": "CPU time of this process for the same (the server's work excluded)",
        "engine": "observation, events since last move, apply the move",
        "decide": "prompt, HTTP round trip to the fake server, parse, records",
        "prompt": "building the turn message alone",
        "parse": "reasoning split and move parsing alone",
        "http": "one bare request of the same size to the fake server",
    }
    with fake_endpoint(options.seed) as url:
        asyncio.run(_measure(url, 5, options.seed, "en"))          # warm up: imports, connections
        for lang in ("en", "ar"):
            times = asyncio.run(_measure(url, decisions, options.seed, lang))
            for key, note in notes.items():
                median, p95 = _ms(times[key])
                metrics.append(Metric(f"{key}_median_{lang}", median, "ms", note))
                metrics.append(Metric(f"{key}_p95_{lang}", p95, "ms", f"{note} ({len(times[key])} decisions)"))
    return metrics
