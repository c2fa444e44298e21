"""Start-up as a person meets it: how long until the first screen, and until the opponent's first move.

Each run is a fresh interpreter that opens the real app headless (``tcgtui play
--vs mc:100``, the person pressing Enter whenever it is their move), first with an
empty numba cache (what a new install pays once: the compile runs in the
background behind a notice), then with the cache it filled.  Times are from the
moment the interpreter is launched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tcgtui import locales
from tcgtui.measure import Metric, PerfOptions

NAME = "cold_start"
ORDER = 30
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import asyncio, time
from tcgtui.games.tcg.packs import load_pack
from tcgtui.tui.app import HUMAN, Settings, ArenaApp

async def main():
    app = ArenaApp(Settings((HUMAN, "mc:100"), params={"pack": load_pack("community")}, seed=0, pause=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        while app.board is None or not app.board.is_mounted:
            await asyncio.sleep(0.005)
        await pilot.pause()
        print("screen", time.time(), flush=True)
        session = app.board.session
        while not any(d.seat == 1 for d in session.decisions):
            if session.human_waiting() is not None:
                await pilot.press("enter")
            await asyncio.sleep(0.01)
        print("move", time.time(), flush=True)

asyncio.run(main())
"""


def _seconds(cache: str | None) -> tuple[float, float]:
    """(to the first screen, to the opponent's first move), from launch."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache} if cache else None
    launched = time.time()
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    times = dict(line.split() for line in done.stdout.splitlines() if line.startswith(("screen", "move")))
    return float(times["screen"]) - launched, float(times["move"]) - launched


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    if options.quick:          # the smoke run: one fresh interpreter on the usual compile cache, no recompiling
        screen, move = _seconds(None)
        return [Metric("first_screen_cached", screen, "s", text.t("perf_opponents.screen_warm")),
                Metric("first_opponent_move_cached", move, "s", text.t("perf_opponents.move_warm"))]
    with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
        cold = _seconds(cache)
        warm = _seconds(cache)
    return [Metric("first_screen_empty_cache", cold[0], "s", text.t("perf_opponents.screen_cold")),
            Metric("first_opponent_move_empty_cache", cold[1], "s", text.t("perf_opponents.move_cold")),
            Metric("first_screen_cached", warm[0], "s", text.t("perf_opponents.screen_warm")),
            Metric("first_opponent_move_cached", warm[1], "s", text.t("perf_opponents.move_warm"))]
