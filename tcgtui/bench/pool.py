"""The process pool Monte Carlo agents run their playouts in during a sweep.

One worker per core, started with forkserver (or spawn) so no worker is a
fork of a parent that already runs threads.  Workers ignore Ctrl-C (the bench
stops the sweep and shuts them down) and end by themselves when the bench is
killed, which nothing else would notice.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor


def _outlive_no_bench(bench: int) -> None:
    """End this worker once the bench is gone: after a kill -9 nobody else would stop it."""
    while True:
        time.sleep(1)
        try:
            os.kill(bench, 0)
        except (ProcessLookupError, PermissionError):     # gone, or its pid now belongs to someone else
            os._exit(0)


def _worker_setup(bench: int) -> None:
    """Workers leave Ctrl-C to the bench, which stops the sweep and shuts them down."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.name == "posix":          # os.kill(pid, 0) probes only on POSIX; on Windows it would terminate
        threading.Thread(target=_outlive_no_bench, args=(bench,), daemon=True, name="watch-bench").start()


def process_pool() -> ProcessPoolExecutor:
    """Monte Carlo playouts go here: one worker per core, started cleanly (no fork of a threaded parent)."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_setup, initargs=(os.getpid(),))
