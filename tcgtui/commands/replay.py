"""``tcgtui replay GAME_ID``: step through a stored game in the replay viewer.

The game is found (by its id or a unique prefix) and rebuilt before the screen
opens, so an unknown id, an ambiguous prefix or a record that no longer fits
its game is the command's one line, not a screen.
"""

from __future__ import annotations

import argparse

from tcgtui.flags import LANG
from tcgtui import locales, rtl
from tcgtui.errors import UserError
from tcgtui.store import add_db_argument, open_store


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("game_id", metavar="GAME_ID", help=text.t("cmd_replay.game_id"))
    LANG.add(p, text.t("cmd_replay.lang"))
    p.add_argument("--rtl", default=None, metavar="MODE", help=text.t("cmd_play.rtl"))
    add_db_argument(p, text)


def run(args: argparse.Namespace) -> int:
    if args.lang not in locales.available():
        raise UserError(f"--lang: {args.lang!r} is not a language; expected one of {', '.join(locales.available())}")
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.quality import worst
    from tcgtui.replay.load import load
    with open_store(args.db, create=False, read_only=True) as store:
        replay = load(store, args.game_id)
        worst.mark(store, replay)            # its blunders, where tcgtui analyze stored values
    from tcgtui.tui.app import ArenaApp, Settings        # Textual loads only once a screen is wanted
    app = ArenaApp(Settings(lang=args.lang, rtl_mode=rtl.resolve_mode(args.rtl), replay=replay))
    app.run()
    return app.return_code or 0
