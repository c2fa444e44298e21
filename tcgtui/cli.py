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

import tcgtui.games as games

from tcgtui import locales
from tcgtui.engine.core import SetupError
from tcgtui import __version__
from tcgtui.console_text import clean
from tcgtui.engine.registry import PluginError
from tcgtui.errors import OptionError, UserError

# The arena's own commands, in the order ``tcgtui --help`` lists them; a game's own commands
# (``tcgtui/games/<game>/commands/<name>.py``) follow, found by walking, in name order.
ARENA = ("play", "replay", "watch", "bench", "report", "study", "serve", "baseline", "games", "analyze", "ladder",
         "rules", "perf", "models")


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line naming the flag, like our own errors."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {clean(message)}\n")


def commands() -> dict[str, str]:
    """Every command's name -> its module, found without importing any: the arena's, then each
    game's (a game adds a command by adding a module to its ``commands`` folder, editing no list)."""
    out = {name: f"tcgtui.commands.{name}" for name in ARENA
           if importlib.util.find_spec(f"tcgtui.commands.{name}") is not None}
    return {**out, **dict(sorted(dict(games.own_modules("commands")).items()))}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` one subcommand: running a command imports no
    other command's module (their imports cost a report a fifth of a second)."""
    text = locales.load()
    parser = _Parser(prog="tcgtui", description=text.t("cli.description"))
    parser.add_argument("--version", action="version", version=f"tcgtui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    known = commands()
    for name in [only] if only in known else known:
        module = importlib.import_module(known[name])
        p = sub.add_parser(name, help=text.t(f"cmd_{name}.help"),
                           description=text.t(f"cmd_{name}.help"))
        module.add_arguments(p, text)
        p.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        try:
            # start-up time: the home screen loads Textual; only a bare `tcgtui` shows it
            from tcgtui.commands import home
            return home.run()
        except (UserError, locales.LocaleError) as exc:
            print(f"tcgtui: error: {exc}", file=sys.stderr)
            return 2
    # start-up time: a bare `tcgtui` builds no parser (every command module: 0.35 s before home's first frame)
    parser = build_parser(argv[0])
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    try:
        return int(args._module.run(args) or 0)
    except (UserError, OptionError, SetupError, PluginError, locales.LocaleError) as exc:
        print(f"tcgtui {args.command}: error: {clean(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:          # the file system refused what no check foresaw (a name too long...)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tcgtui {args.command}: error: {clean(where + (exc.strerror or str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"tcgtui {args.command}: {locales.load().t('cli.interrupted')}", file=sys.stderr)
        return 130
