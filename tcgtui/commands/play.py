"""``tcgtui play``: a person against any player, in the terminal."""

from __future__ import annotations

import argparse

import locales
from opponents.llm.cli_options import add_endpoint_arguments
from tcgtui import config
from tcgtui.errors import UserError
from tcgtui.tui.app import HUMAN, TcgApp
from tcgtui.tui.options import add_display_arguments, check_spec, settings_from


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--vs", default="mc:100", metavar="SPEC", help=text.t("cmd_play.vs"))
    p.add_argument("--name", default="", metavar="HANDLE", help=text.t("cmd_play.name"))
    p.add_argument("--seat", type=int, default=1, metavar="1|2", help=text.t("cmd_play.seat"))
    add_display_arguments(p, text, "cmd_play")
    add_endpoint_arguments(p, text)


def run(args: argparse.Namespace) -> int:
    opponent = check_spec("--vs", args.vs)
    if args.seat not in (1, 2):
        raise UserError(f"--seat: {args.seat} is not a seat; expected 1 (moves first) or 2")
    handle = config.check_handle(args.name) if args.name else (config.saved_handle() or "")
    seats = (HUMAN, opponent) if args.seat == 1 else (opponent, HUMAN)
    TcgApp(settings_from(args, seats, handle=handle)).run()
    return 0
