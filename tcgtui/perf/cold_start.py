"""Start-up cost of the fast path: numba compiles the rules once per machine and caches them.

Measured in fresh interpreters: import plus one mc:100 decision, first with an
empty compile cache (what a new install pays once), then with the cache filled.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tcgtui import locales
from tcgtui.perf import Metric, PerfOptions

NAME = "cold_start"
ORDER = 30
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import asyncio, time
started = time.perf_counter()
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.packs import load_pack
from tcgtui.perf._positions import midgame_positions
pack = load_pack("community")
state = midgame_positions(pack, 1, 0)[0]
agent = make_agent("mc:100")
agent.start(SeatContext(state.current, 0, pack))
asyncio.run(agent.decide(state.observation(state.current), []))
print(time.perf_counter() - started)
"""


def _seconds(cache: str | None) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache} if cache else None
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    return float(done.stdout.strip().splitlines()[-1])


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    if options.quick:          # the smoke run: one fresh interpreter on the usual compile cache, no recompiling
        return [Metric("first_decision_cached", _seconds(None), "s", text.t("perf_opponents.warm"))]
    with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
        cold = _seconds(cache)
        warm = _seconds(cache)
    return [Metric("first_decision_empty_cache", cold, "s", text.t("perf_opponents.cold")),
            Metric("first_decision_cached", warm, "s", text.t("perf_opponents.warm"))]
