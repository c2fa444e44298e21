"""``tcgtui watch``: two players of any kind (one, in a one-seat game), live, with pause, step and speed keys.

Every game that ends (or errors) is stored like a bench game, in the run ``watch``.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from tcgtui import locales
from tcgtui.arena import game_spec
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.llm_options import add_endpoint_arguments
from tcgtui.store import Store, add_db_argument, open_store
from tcgtui.deals import WatchDealer
from tcgtui.commands.options import add_display_arguments, check_spec, own_players, settings_from


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--p1", required=True, metavar="SPEC", help=text.t("cmd_watch.p1", own=own_players()))
    p.add_argument("--p2", default=None, metavar="SPEC", help=text.t("cmd_watch.p2", own=own_players()))
    add_display_arguments(p, text, "cmd_watch")
    add_db_argument(p, text)
    add_endpoint_arguments(p, text)


def prepare(args: argparse.Namespace, store: Store) -> Any:
    settings = settings_from(args, seats(args))
    dealer = WatchDealer(store, registry.get(settings.game_id).game(settings.params), settings.seats, settings.seed)
    return replace(settings, dealer_for=lambda now: dealer)


def seats(args: argparse.Namespace) -> tuple[str, ...]:
    """--p1 and --p2, checked; a one-seat game (Eleusis, the deck quiz) seats --p1 alone."""
    text = locales.load()
    if game_spec(args.game).info.seats == 1:
        if args.p2 is not None:
            raise UserError(text.t("cmd_watch.one_seat", game=args.game))
        return (check_spec("--p1", args.p1, args.game),)
    if args.p2 is None:
        raise UserError(text.t("cmd_watch.no_p2", game=args.game))
    return check_spec("--p1", args.p1, args.game), check_spec("--p2", args.p2, args.game)


def run(args: argparse.Namespace) -> int:
    with open_store(args.db, create=True) as store:
        from tcgtui.tui.app import ArenaApp        # Textual loads only once a screen is wanted
        app = ArenaApp(prepare(args, store))
        app.run()
    return app.return_code or 0
