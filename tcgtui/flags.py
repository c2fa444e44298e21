"""The options several commands share, each declared once: its name, what it takes, its default.

A command adds one to its parser with the help text of its own locale section (``cmd_rules.lang``
says "language of the rules text", ``cmd_bench.lang`` "languages, comma-separated"), so the words
stay each command's while the flag stays one.  Below the commands, so that a game's own commands
(``tcgtui.games.<game>.commands``) add them too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tcgtui import locales
from tcgtui.config import default_game


@dataclass(frozen=True)
class Option:
    """One shared option.  ``default`` and ``choices`` may be functions, read when a parser is
    built (the settings file's game; the languages installed)."""

    flag: str
    metavar: str | None = None
    default: Any = None
    choices: Callable[[], Sequence[str]] | None = None
    action: str | None = None

    def add(self, parser: argparse.ArgumentParser, help: str, **given: Any) -> None:
        """This option on ``parser`` with ``help``; ``given`` sets what one command takes otherwise
        (play's default: the language the person chose last)."""
        kwargs: dict[str, Any] = {"default": self.default() if callable(self.default) else self.default}
        if self.metavar is not None:
            kwargs["metavar"] = self.metavar
        if self.choices is not None:
            kwargs["choices"] = self.choices()
        if self.action is not None:
            kwargs["action"] = self.action
        parser.add_argument(self.flag, help=help, **{**kwargs, **given})


LANG = Option("--lang", metavar="LANG", default=locales.DEFAULT)  # one language
LANG_LISTED = Option("--lang", default=locales.DEFAULT, choices=locales.available)  # one, its choices in --help
LANGS = Option("--lang", metavar="LANGS", default=locales.DEFAULT)  # several, comma-separated
GAME = Option("--game", metavar="ID", default=default_game)
PARAM = Option("--param", metavar="NAME=VALUE", default=list, action="append")  # NAME=VALUE, repeatable
