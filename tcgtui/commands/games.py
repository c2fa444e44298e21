"""``tcgtui games``: what the arena can play, with each game's players and parameters."""

from __future__ import annotations

import argparse

from tcgtui import locales, rtl
from tcgtui.arena import game_description, game_name
from tcgtui.engine import registry
from tcgtui.opponents.spec import grammars


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--lang", default="en", choices=locales.available(), help=text.t("cmd_cards.lang"))
    p.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from tcgtui.console_text import ProsePrinter

    text = locales.load(args.lang)
    out = ProsePrinter(Console(), text.rtl, rtl.resolve_mode(args.rtl))
    for i, spec in enumerate(registry.games()):
        info = spec.info
        if i:
            out.blank()
        out.paragraph(f"{info.id} · {game_name(spec, text)}", style="bold")
        out.paragraph(game_description(spec, text), indent=2)
        out.paragraph(f"{text.t('arena.games.seats')}: {info.seats} · {text.t('arena.games.outcome')}: "
                      f"{text.t(f'arena.games.outcome_{info.outcome}')}", indent=2)
        out.paragraph(f"{text.t('arena.games.players')}: {', '.join(grammars(spec))}", indent=2)
        params = ", ".join(f"{p.name}={p.default}" for p in info.params)
        out.paragraph(f"{text.t('arena.games.params')}: {params or '-'}", indent=2)
    return 0
