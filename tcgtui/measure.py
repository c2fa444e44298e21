"""What a speed benchmark returns and is given (``tcgtui perf``): a benchmark lives in ``tcgtui/perf/``
or, when it measures one game's own machinery, in that game's ``perf`` package
(``tcgtui/games/<game>/perf/``), which sits below ``tcgtui.perf`` and so reads these from here."""

from __future__ import annotations

from dataclasses import dataclass, field


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
