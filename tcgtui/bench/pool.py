"""The process pool Monte Carlo agents run their playouts in during a sweep.

One worker per core, started with forkserver (or spawn) so no worker is a
fork of a parent that already runs threads.  Workers ignore Ctrl-C (the bench
stops the sweep and shuts them down) and end by themselves when the bench is
killed, which nothing else would notice.  SIGTERM and SIGHUP often reach every
process of the bench at once (a job scheduler, a closed terminal): the bench
stops as on Ctrl-C (``tcgtui.bench.stop``), so workers leave it a few seconds
to shut them down, and multiprocessing's resource tracker and fork server are
started ignoring both: a dead fork server breaks every worker's pool, a dead
tracker warns and raises as the pool closes.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from types import FrameType

from tcgtui.bench.stop import STOPPING

GRACE = 5.0         # seconds a stopped worker leaves the bench to shut it down


def _outlive_no_bench(bench: int) -> None:
    """End this worker once the bench is gone: after a kill -9 nobody else would stop it."""
    while True:
        time.sleep(1)
        try:
            os.kill(bench, 0)
        except (ProcessLookupError, PermissionError):     # gone, or its pid now belongs to someone else
            os._exit(0)


def _end_soon(signum: int, frame: FrameType | None) -> None:
    """Stopped with the bench: it shuts this worker down once its games are stored; should it not (a
    pool that broke terminates its workers with SIGTERM), the worker ends by itself shortly."""
    timer = threading.Timer(GRACE, os._exit, args=(128 + signum,))
    timer.daemon = True
    timer.start()


def _worker_setup(bench: int) -> None:
    """Workers leave Ctrl-C to the bench, which stops the sweep and shuts them down."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop in STOPPING:
        signal.signal(stop, _end_soon)
    if os.name == "posix":          # os.kill(pid, 0) probes only on POSIX; on Windows it would terminate
        threading.Thread(target=_outlive_no_bench, args=(bench,), daemon=True, name="watch-bench").start()


def _start_helpers(method: str) -> None:
    """The resource tracker and the fork server, started ignoring SIGTERM and SIGHUP (a disposition exec
    keeps); both end when the bench does."""
    if not STOPPING or threading.current_thread() is not threading.main_thread():
        return
    # POSIX-only modules, used only when the pool starts its helpers
    from multiprocessing import forkserver, resource_tracker
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in STOPPING}
    try:
        resource_tracker.ensure_running()
        if method == "forkserver":
            forkserver.ensure_running()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def process_pool() -> ProcessPoolExecutor:
    """Monte Carlo playouts go here: one worker per core, started cleanly (no fork of a threaded parent)."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    _start_helpers(method)
    return ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_setup, initargs=(os.getpid(),))
