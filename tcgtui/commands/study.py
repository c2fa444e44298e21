"""``tcgtui study ACTION``: run a study of people playing the arena's opponents (docs/study.md).

Each action's arguments and work live in a module of its own; ``status`` is ``tcgtui.commands.study_status``.
"""

from __future__ import annotations

import argparse

from tcgtui import locales
from tcgtui.commands import study_status


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    status = sub.add_parser("status", help=text.t("cmd_study.status_help"), description=text.t("cmd_study.status_help"))
    study_status.add_arguments(status, text)


def run(args: argparse.Namespace) -> int:
    return study_status.run(args)
