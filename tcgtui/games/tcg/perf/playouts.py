"""Random playouts per second: the reference rules against the fast path.

A playout here is a whole game of uniformly random moves from a fresh deal of
the community pack, the public engine's own yardstick.  With ``--upstream DIR``
(the user's checkout of the public engine, AdaMLLab/tcg-bench) that engine's own
rollouts are timed too, in a subprocess from the checkout in the same run, and
the fast path's ratio over them is reported.  One-core rates count the measuring
thread's processor time, not the clock's: on a machine shared with other work
the clock counts their turns too, and the ratio swung from 66x to 109x between
three runs under a load of 6 on 2 cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast import kernel as R
from tcgtui.opponents.search import split
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions
from tcgtui.games.tcg.perf._positions import random_game
from tcgtui.upstream import Upstream

REPOSITORY = "AdaMLLab/tcg-bench"
UPSTREAM_FILES = ("src/game.py", "src/community_engine.py")
DRIVER = Path(__file__).with_name("_upstream_playouts.py")

NAME = "playouts"
ORDER = 10


def _fast(code: np.ndarray, n: int, seed: int, first: int, count: int) -> tuple[int, np.ndarray]:
    counts = np.zeros(4, dtype=np.int64)
    turns = R.random_games(code, seed, first, count, np.zeros(L.work_size(n), dtype=np.int64), counts)
    return turns, counts


def _deck_rate(options: PerfOptions, games: int) -> Metric:
    """The fast path on deck lists (frontier: two 20-card decks, 2 copies of each card), the
    quiz's simulations: one slot per copy, so the same loop as the whole-pack game."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.engine.tcg.decks import from_ids
    pack = load_pack("frontier")
    ids = [c.id for c in pack.cards]
    decks = (from_ids(pack, ids[:10] * 2), from_ids(pack, ids[22:32] * 2))
    program = L.compile_pack(pack, (decks[0].counts, decks[1].counts))
    _fast(program.code, program.n, options.seed, 0, 10)
    started = time.thread_time()
    turns, _ = _fast(program.code, program.n, options.seed, 0, games)
    rate = games / (time.thread_time() - started)
    return Metric("fast_deck_playouts_per_second", rate, "1/s",
                  locales.load().t("perf_opponents.deck_playouts", games=games, turns=round(turns / games, 1)))


def check_upstream(upstream: Upstream) -> None:
    """One line before anything is timed if the folder is not a checkout of the public engine."""
    for name in UPSTREAM_FILES:
        upstream.text(name, REPOSITORY)


def upstream_rate(upstream: Upstream, games: int, seed: int) -> tuple[float, float]:
    """The public engine's random playouts per second and turns per game, measured in a subprocess
    inside the checkout (its code runs there, never copied here)."""
    src = upstream.path("src")
    try:
        done = subprocess.run([sys.executable, "-I", str(DRIVER), str(src), str(games), str(seed)], cwd=src,
                              capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise UserError(f"{upstream.flag}: {upstream.root}: the public engine's playouts did not run ({exc})") from None
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1])
        return result["games"] / result["seconds"], result["turns"]
    except (IndexError, ValueError, KeyError, TypeError, ZeroDivisionError):
        last = clean((done.stderr.strip().splitlines() or ["no output"])[-1][:200])   # the checkout's text
        raise UserError(f"{upstream.flag}: {upstream.root}: the public engine's playouts failed ({last}); "
                        f"expected a checkout of {REPOSITORY}") from None


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    upstream = options.extra.get("upstream")
    if upstream is not None:
        check_upstream(upstream)
    pack = load_pack("community")
    program = L.compile_pack(pack)
    ref_games = 300 if options.quick else 3000
    started = time.thread_time()
    ref_turns = sum(random_game(pack, options.seed + g).turn for g in range(ref_games))
    ref_rate = ref_games / (time.thread_time() - started)

    _fast(program.code, program.n, options.seed, 0, 10)          # load the compiled kernels
    games = 30_000 if options.quick else 300_000
    started = time.thread_time()
    fast_turns, _ = _fast(program.code, program.n, options.seed, 0, games)
    fast_rate = games / (time.thread_time() - started)
    metrics = [
        Metric("reference_playouts_per_second", ref_rate, "1/s",
               text.t("perf_opponents.reference_playouts", games=ref_games, turns=round(ref_turns / ref_games, 1))),
        Metric("fast_playouts_per_second", fast_rate, "1/s",
               text.t("perf_opponents.fast_playouts", games=games, turns=round(fast_turns / games, 1))),
        Metric("fast_speedup", fast_rate / ref_rate, "x", text.t("perf_opponents.speedup")),
    ]
    if upstream is not None:
        up_games = 300 if options.quick else 3000
        up_rate, up_turns = upstream_rate(upstream, up_games, options.seed)
        metrics += [
            Metric("upstream_playouts_per_second", up_rate, "1/s",
                   text.t("perf_opponents.upstream_playouts", games=up_games, turns=round(up_turns, 1),
                          checkout=upstream.describe().get("commit", "")[:12] or upstream.root)),
            Metric("fast_speedup_upstream", fast_rate / up_rate, "x", text.t("perf_opponents.speedup_upstream")),
        ]
    metrics.append(_deck_rate(options, games))
    if options.workers > 1:
        parts = split(games, options.workers)
        with ThreadPoolExecutor(options.workers) as pool:
            started = time.perf_counter()
            list(pool.map(lambda r: _fast(program.code, program.n, options.seed, *r), parts))
            rate = games / (time.perf_counter() - started)
        metrics.append(Metric("fast_playouts_per_second_all_workers", rate, "1/s",
                              text.t("perf_opponents.fast_playouts_workers", workers=options.workers)))
    return metrics
