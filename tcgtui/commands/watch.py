"""``tcgtui watch``: two players of any kind, live, with pause, step and speed keys."""

from __future__ import annotations

import argparse

import locales
from opponents.llm.cli_options import add_endpoint_arguments
from tcgtui.tui.app import TcgApp
from tcgtui.tui.options import add_display_arguments, check_spec, settings_from


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--p1", required=True, metavar="SPEC", help=text.t("cmd_watch.p1"))
    p.add_argument("--p2", required=True, metavar="SPEC", help=text.t("cmd_watch.p2"))
    add_display_arguments(p, text, "cmd_watch")
    add_endpoint_arguments(p, text)


def run(args: argparse.Namespace) -> int:
    seats = (check_spec("--p1", args.p1), check_spec("--p2", args.p2))
    TcgApp(settings_from(args, seats)).run()
    return 0
