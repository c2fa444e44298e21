"""Speed benchmarks for ``tcgtui perf``: every module in this package is one.

A benchmark module defines ``NAME``, ``ORDER`` (an int for the listing order)
and ``run(options: PerfOptions) -> list[Metric]``.  Adding a module is all it
takes to appear in ``tcgtui perf``; timed tests are never used for speed.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from types import ModuleType


@dataclass(frozen=True)
class Metric:
    name: str          # a stable key, e.g. "playouts_per_second"
    value: float
    unit: str          # e.g. "1/s", "ms", "x"
    note: str = ""     # what exactly was measured


@dataclass(frozen=True)
class PerfOptions:
    workers: int = 1
    quick: bool = False            # smaller samples, for smoke runs
    seed: int = 0
    extra: dict = field(default_factory=dict)


def benchmarks() -> list[ModuleType]:
    mods = [importlib.import_module(f"{__name__}.{m.name}")
            for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted((m for m in mods if hasattr(m, "run")), key=lambda m: (getattr(m, "ORDER", 100), m.NAME))
