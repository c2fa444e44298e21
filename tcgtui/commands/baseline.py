"""``tcgtui baseline export|import``: share people's games and merge many people's."""

from __future__ import annotations

import argparse
from pathlib import Path

from tcgtui import locales
from tcgtui.baseline import export, import_games, read_files
from tcgtui.console_text import clean
from tcgtui.store import add_db_argument, open_store
from tcgtui.userfiles import check_target


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    exp = sub.add_parser("export", help=text.t("cmd_baseline.export_help"))
    exp.add_argument("file", metavar="FILE.jsonl")
    exp.add_argument("--include-card-text", action="store_true", help=text.t("cmd_baseline.include_text"))
    exp.add_argument("--study", metavar="ID", help=text.t("cmd_baseline.study"))
    add_db_argument(exp, text)
    imp = sub.add_parser("import", help=text.t("cmd_baseline.import_help"))
    imp.add_argument("files", metavar="FILE", nargs="+")
    add_db_argument(imp, text)


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    if args.action == "export":
        target = check_target("", args.file)
        with open_store(args.db, create=False) as store:
            count = export(store, target, include_text=args.include_card_text, study=args.study)
        print(clean(text.t("cmd_baseline.exported", count=count, file=str(target))))
        return 0
    paths = [Path(f).expanduser() for f in args.files]
    parsed = read_files(paths)
    with open_store(args.db, create=True) as store:
        added, skipped = import_games(store, parsed)
    print(text.t("cmd_baseline.imported", added=added, skipped=skipped, files=len(paths)))
    return 0
