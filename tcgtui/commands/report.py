"""``tcgtui report``: the paper's tables from the games in the store, with exact intervals."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.report import SECTIONS
from tcgtui.store import add_db_argument, open_store

FORMATS = ("table", "md", "csv", "json")


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--run", nargs="+", action="extend", metavar="NAME", help=text.t("cmd_report.run"))
    add_db_argument(p, text)
    p.add_argument("--format", choices=FORMATS, default="table", help=text.t("cmd_report.format"))
    p.add_argument("--table", choices=SECTIONS, metavar="NAME",
                   help=text.t("cmd_report.table", choices=", ".join(SECTIONS)))
    p.add_argument("--plot", metavar="FILE", help=text.t("cmd_report.plot_help"))
    p.add_argument("--no-humans", action="store_true", help=text.t("cmd_report.no_humans"))


def run(args: argparse.Namespace) -> int:
    from rich.console import Console           # heavy imports (scipy, rich) only when reporting

    from tcgtui.report import analyses, render
    from tcgtui.report.data import load_games, run_ids
    text = locales.load()
    plot_path = Path(args.plot).expanduser() if args.plot else None
    if plot_path is not None:
        from tcgtui.report.plot import check_target
        check_target(plot_path)
    with open_store(args.db, create=False) as store:
        games = load_games(store, run_ids(store, args.run), humans=not args.no_humans)
        runs = [r.name for r in store.runs() if not args.run or r.name in args.run]
        path = str(store.path)
    if not games:
        print(clean(text.t("cmd_report.empty", path=path)), file=sys.stderr)
        return 0
    packs = sorted({g.pack for g in games})
    if len(packs) > 1:
        print(clean(text.t("cmd_report.mixed_packs", count=len(packs), packs=", ".join(packs))), file=sys.stderr)
    report = analyses.build(games)
    sections = [args.table] if args.table else list(SECTIONS)
    if args.format == "table":
        console = Console()
        if not console.is_terminal:      # piped: keep rows whole instead of wrapping at 80 columns
            console = Console(width=200)
        render.as_table(report, sections, console)
    elif args.format == "md":
        sys.stdout.write(render.as_markdown(report, sections))
    elif args.format == "csv":
        sys.stdout.write(render.as_csv(report, args.table or "win_rates"))
    else:
        sys.stdout.write(render.as_json(report, sections, {"db": path, "runs": runs}) + "\n")
    if plot_path is not None:
        from tcgtui.report.plot import plot
        lines = plot(report, plot_path)
        if lines == 0:
            raise UserError(text.t("cmd_report.errors.nothing_to_plot", path=str(plot_path)))
        print(clean(text.t("cmd_report.plotted", path=str(plot_path), count=lines)), file=sys.stderr)
    return 0
