"""``tcgtui study status [ID]``: participants, completion and dropouts of a study, and its games per rung.

The ``study`` command group (``tcgtui.commands.study``) calls ``add_arguments`` and ``run`` here for its
``status`` subcommand; the tables are ``tcgtui.report.study_status``'s, shown as the report shows its own.
"""

from __future__ import annotations

import argparse
import sys

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.store import add_db_argument, open_store

FORMATS = ("table", "md", "json")


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("study", nargs="?", metavar="ID", help=text.t("cmd_study.status_id"))
    add_db_argument(p, text)
    p.add_argument("--format", choices=FORMATS, default="table", help=text.t("cmd_study.status_format"))


def run(args: argparse.Namespace) -> int:
    from rich.console import Console           # heavy imports only when showing

    from tcgtui.report import render, study_data, study_status
    with open_store(args.db, create=False, read_only=True) as store:
        if args.study is None:
            report = study_status.every_study(store)
        else:
            report = study_status.build(study_data.load(store, args.study, flag="ID"))
        path = str(store.path)
    if args.study is None and not report.sections["status_studies"]:
        print(clean(locales.load().t("cmd_study.no_studies", path=path)), file=sys.stderr)
        return 0
    sections = [name for name in report.layout if report.sections[name]]
    if args.format == "table":
        console = Console()
        render.as_table(report, sections, console if console.is_terminal else Console(width=200))
    elif args.format == "md":
        sys.stdout.write(render.as_markdown(report, sections))
    else:
        sys.stdout.write(render.as_json(report, sections, {"db": path}) + "\n")
    return 0
