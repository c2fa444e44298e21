"""Speed benchmarks for ``tcgtui perf``: every module in this package is one, and so is every module of
a game's own ``perf`` package (``tcgtui/games/<game>/perf/``: the card game's playouts and search).

A benchmark module defines ``NAME``, ``ORDER`` (an int for the listing order)
and ``run(options: PerfOptions) -> list[Metric]`` (``tcgtui.measure``).  Adding a module is all it
takes to appear in ``tcgtui perf``; timed tests are never used for speed.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from tcgtui import games


def _modules() -> list[str]:
    """The benchmark modules' names: this package's, then each game's ``perf`` package's."""
    names = [f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return names + [path for name, path in games.own_modules("perf") if not name.startswith("_")]


def benchmarks() -> list[ModuleType]:
    mods = [importlib.import_module(name) for name in _modules()]
    return sorted((m for m in mods if hasattr(m, "run")), key=lambda m: (getattr(m, "ORDER", 100), m.NAME))
