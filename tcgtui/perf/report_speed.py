"""How long ``tcgtui report`` takes on a large store, as a user runs it (a fresh interpreter).

A synthetic store of card games (``_bigstore``: 42,000 games of 10 decisions,
about the size of the paper's sweeps) is built once, then the report is run
in new interpreters with its output piped: the first run warms the file
cache, the median of the next ones is the figure, wall clock and CPU.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tcgtui import locales
from tcgtui.measure import Metric, PerfOptions
from tcgtui.perf._bigstore import build

NAME = "report_speed"
ORDER = 60
ROOT = Path(__file__).resolve().parents[2]


def _timed(db: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tcgtui", "report", "--db", str(db)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    games, runs = (1_000, 1) if options.quick else (42_000, 3)
    with tempfile.TemporaryDirectory(prefix="tcgtui-report-") as tmp:
        db = Path(tmp) / "big.sqlite3"
        build(db, games, seed=options.seed)
        _timed(db)                                    # warm: the file cache, the compiled bytecode
        timings = [_timed(db) for _ in range(runs)]
    return [Metric("report_seconds", statistics.median(w for w, _ in timings), "s",
                   text.t("perf_report.wall", games=games, runs=runs)),
            Metric("report_cpu_seconds", statistics.median(c for _, c in timings), "s",
                   text.t("perf_report.cpu"))]
