"""``tcgtui watch``: two players of any kind, live, with pause, step and speed keys.

Every game that ends (or errors) is stored like a bench game, in the run ``watch``.
"""

from __future__ import annotations

import argparse
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.llm_options import add_endpoint_arguments
from tcgtui.store import Store, add_db_argument, open_store
from tcgtui.deals import WatchDealer
from tcgtui.commands.options import add_display_arguments, check_spec, settings_from


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--p1", required=True, metavar="SPEC", help=text.t("cmd_watch.p1"))
    p.add_argument("--p2", required=True, metavar="SPEC", help=text.t("cmd_watch.p2"))
    add_display_arguments(p, text, "cmd_watch")
    add_db_argument(p, text)
    add_endpoint_arguments(p, text)


def prepare(args: argparse.Namespace, store: Store) -> Any:
    settings = settings_from(args, (check_spec("--p1", args.p1, args.game), check_spec("--p2", args.p2, args.game)))
    dealer = WatchDealer(store, registry.get(settings.game_id).game(settings.params), settings.seats, settings.seed)
    settings.dealer_for = lambda handle: dealer
    return settings


def run(args: argparse.Namespace) -> int:
    with open_store(args.db, create=True) as store:
        from tcgtui.tui.app import ArenaApp        # Textual loads only once a screen is wanted
        app = ArenaApp(prepare(args, store))
        app.run()
    return app.return_code or 0
