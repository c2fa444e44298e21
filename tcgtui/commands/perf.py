"""``tcgtui perf``: measure speed; text for people, ``--json`` for machines."""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

from rich.console import Console
from rich.table import Table

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.limits import MAX_CONCURRENCY, check_count, check_seed
from tcgtui.measure import Metric, PerfOptions
from tcgtui.perf import benchmarks
from tcgtui.upstream import load as load_upstream


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--only", action="append", metavar="NAME", help=text.t("cmd_perf.only"))
    p.add_argument("--workers", type=int, default=1, metavar="N", help=text.t("cmd_perf.workers"))
    p.add_argument("--quick", action="store_true", help=text.t("cmd_perf.quick"))
    p.add_argument("--seed", type=int, default=0, help=text.t("cmd_perf.seed"))
    p.add_argument("--json", action="store_true", help=text.t("cmd_perf.json"))
    p.add_argument("--upstream", metavar="DIR", help=text.t("cmd_perf.upstream"))


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    mods = benchmarks()
    names = [m.NAME for m in mods]
    if args.only:
        unknown = [n for n in args.only if n not in names]
        if unknown:
            raise UserError(f"--only: {unknown[0]!r} is not a benchmark; expected one of {', '.join(names)}")
        mods = [m for m in mods if m.NAME in args.only]
    check_count("--workers", args.workers, 1, MAX_CONCURRENCY)
    check_seed("--seed", args.seed)
    extra = {}
    if args.upstream is not None:
        extra["upstream"] = load_upstream("--upstream", args.upstream)
    options = PerfOptions(workers=args.workers, quick=args.quick, seed=args.seed, extra=extra)
    results: dict[str, list[Metric]] = {}
    console = Console(stderr=True)
    for mod in mods:
        if not args.json:
            console.print(text.t("cmd_perf.running", name=mod.NAME))
        results[mod.NAME] = mod.run(options)
    machine = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "machine": platform.machine(),
               "workers": args.workers, "quick": args.quick}
    if "upstream" in extra:
        machine["upstream"] = extra["upstream"].describe()
    if args.json:
        print(json.dumps({"machine": machine, "results": {
            k: [m.__dict__ for m in v] for k, v in results.items()}}, indent=2))
        return 0
    table = Table(title=text.t("cmd_perf.title", cpus=machine["cpus"], python=machine["python"]))
    for col in ("benchmark", "metric", "value", "unit", "note"):
        table.add_column(text.t(f"cmd_perf.col.{col}"), justify="right" if col == "value" else "left")
    for name, metrics in results.items():
        for m in metrics:
            table.add_row(name, m.name, f"{m.value:,.2f}" if m.value < 100 else f"{m.value:,.0f}", m.unit, m.note)
    Console().print(table)
    return 0
