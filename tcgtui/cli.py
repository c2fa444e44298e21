"""The ``tcgtui`` command: one subcommand module per job under ``tcgtui.commands``.

Every subcommand module has ``add_arguments(parser, text)`` and
``run(args) -> int``; its text lives in ``locales/<lang>/cmd_<name>.toml``.  Errors a user can fix (bad flags, broken packs, an
unreachable endpoint) end as one line on stderr and exit code 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys

from tcgtui import locales
from tcgtui.engine.tcg import PackError
from tcgtui import __version__
from tcgtui.console_text import clean
from tcgtui.engine.registry import PluginError
from tcgtui.errors import UserError
from tcgtui.opponents.base import OptionError

COMMANDS = ("play", "replay", "watch", "bench", "report", "baseline", "games", "analyze", "cards", "rules", "perf",
            "eleusis", "duel", "deck", "models")


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line naming the flag, like our own errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {clean(message)}\n")


def _available(name: str) -> bool:
    return importlib.util.find_spec(f"tcgtui.commands.{name}") is not None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` one subcommand: running a command imports no
    other command's module (their imports cost a report a fifth of a second)."""
    text = locales.load()
    parser = _Parser(prog="tcgtui", description=text.t("cli.description"))
    parser.add_argument("--version", action="version", version=f"tcgtui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [only] if only in COMMANDS else COMMANDS:
        if not _available(name):
            continue
        module = importlib.import_module(f"tcgtui.commands.{name}")
        p = sub.add_parser(name, help=text.t(f"cmd_{name}.help"),
                           description=text.t(f"cmd_{name}.help"))
        module.add_arguments(p, text)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)
    if not argv:
        try:
            from tcgtui.commands import home
            return home.run()
        except (UserError, locales.LocaleError) as exc:
            print(f"tcgtui: error: {exc}", file=sys.stderr)
            return 2
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    try:
        return int(args._module.run(args) or 0)
    except (UserError, OptionError, PackError, PluginError, locales.LocaleError) as exc:
        print(f"tcgtui {args.command}: error: {clean(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:          # the file system refused what no check foresaw (a name too long...)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tcgtui {args.command}: error: {clean(where + (exc.strerror or str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tcgtui {args.command}: {locales.load().t('cli.interrupted')}", file=sys.stderr)
        return 130
