"""Participants joining a served study at the same moment (``tcgtui serve``): how long each waits
for their first screen (the consent screen), the memory of the whole server with all of them in,
and the wait after each key while they all agree, play the study's game of Tic-Tac-Toe by keys and
go back to its screen.  With the zygote (the app imported once, forked per participant) and, for
comparison, with a fresh process per participant (``--no-zygote``).
The participants are simulated browsers speaking textual-serve's websocket protocol over loopback.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

import aiohttp

from tcgtui import locales
from tcgtui.measure import Metric, PerfOptions
from tcgtui.perf._participant import (begin, join_at_once, percentile, play_to_the_end, served, tree_pss_mb,
                                      write_study)

NAME = "serve_join"
ORDER = 90
PEOPLE, QUICK_PEOPLE = 20, 4


async def _crowd(base: str, n: int, server: int, play: bool) -> tuple[list, float]:
    async with aiohttp.ClientSession() as session:
        people = await join_at_once(base, n, session)
        memory = tree_pss_mb(server)
        if play:
            await asyncio.gather(*(_play(p) for p in people))
        await asyncio.gather(*(p.close() for p in people))
    return people, memory


async def _play(p) -> None:
    await begin(p)
    await play_to_the_end(p)


def _measure(n: int, zygote: bool, play: bool) -> tuple[list, float]:
    with tempfile.TemporaryDirectory(prefix="tcgtui-perf-serve-") as folder:
        here = Path(folder)
        pids: list[int] = []
        with served(here, write_study(here), here / "study.sqlite3", "--max", str(n),
                    *(() if zygote else ("--no-zygote",)), pids=pids) as base:
            return asyncio.run(_crowd(base, n, pids[0], play))


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    n = QUICK_PEOPLE if options.quick else PEOPLE
    people, memory = _measure(n, zygote=True, play=True)
    screens = [p.first_screen for p in people]
    waits = [w * 1000 for p in people for w in p.key_waits]
    medians = [statistics.median(p.key_waits) * 1000 for p in people if p.key_waits]
    metrics = [
        Metric("first_screen_p50", statistics.median(screens), "s", text.t("perf_serve.first_screen", n=n)),
        Metric("first_screen_max", max(screens), "s", text.t("perf_serve.first_screen_max", n=n)),
        Metric("memory_all", memory, "MB", text.t("perf_serve.memory", n=n)),
        Metric("key_wait_p50", statistics.median(waits), "ms", text.t("perf_serve.key_wait", n=n, keys=len(waits))),
        Metric("key_wait_p95", percentile(waits, 0.95), "ms", text.t("perf_serve.key_wait_p95")),
        Metric("key_wait_max", max(waits), "ms", text.t("perf_serve.key_wait_max")),
        Metric("key_wait_worst_person_p50", max(medians), "ms", text.t("perf_serve.worst_person")),
    ]
    if not options.quick:
        plain, plain_memory = _measure(n, zygote=False, play=False)
        plain_screens = [p.first_screen for p in plain]
        metrics += [
            Metric("first_screen_p50_no_zygote", statistics.median(plain_screens), "s",
                   text.t("perf_serve.plain_first_screen", n=n)),
            Metric("first_screen_max_no_zygote", max(plain_screens), "s", text.t("perf_serve.first_screen_max", n=n)),
            Metric("memory_all_no_zygote", plain_memory, "MB", text.t("perf_serve.memory", n=n)),
        ]
    return metrics
