"""``tcgtui games``: what the arena can play, with each game's players and parameters.

A variant (a game selected by a flag of another, ``--game duel --bank FILE``) is listed
under its game, never as a game of its own: its id is internal.  ``human`` is offered only
for games with a screen (a person plays through ``tcgtui play``)."""

from __future__ import annotations

import argparse

from tcgtui.flags import LANG_LISTED
from tcgtui import locales, rtl
from tcgtui.arena import game_description, game_name, variant_flag, variants
from tcgtui.engine import registry
from tcgtui.opponents.spec import grammars


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    LANG_LISTED.add(p, text.t("cmd_cards.lang"))
    p.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))


def run(args: argparse.Namespace) -> int:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from rich.console import Console

    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.console_text import ProsePrinter

    text = locales.load(args.lang)
    out = ProsePrinter(Console(), text.rtl, rtl.resolve_mode(args.rtl))
    listed = [spec for spec in registry.games() if spec.info.variant_of is None]
    for i, spec in enumerate(listed):
        info = spec.info
        if i:
            out.blank()
        out.paragraph(f"{info.id} · {game_name(spec, text)}", style="bold")
        out.paragraph(game_description(spec, text), indent=2)
        out.paragraph(f"{text.t('arena.games.seats')}: {info.seats} · {text.t('arena.games.outcome')}: "
                      f"{text.t(f'arena.games.outcome_{info.outcome}')}", indent=2)
        out.paragraph(f"{text.t('arena.games.players')}: {', '.join(players(spec))}", indent=2)
        out.paragraph(f"{text.t('arena.games.params')}: {params(spec)}", indent=2)
        for other, param in variants(spec):
            out.paragraph(text.t("arena.games.variant", flag=variant_flag(param), name=game_name(other, text),
                                 description=game_description(other, text)), indent=2)
            out.paragraph(f"{text.t('arena.games.players')}: {', '.join(players(other))} · "
                          f"{text.t('arena.games.params')}: {params(other, skip=param)}", indent=4)
    return 0


def players(spec: registry.GameSpec) -> list[str]:
    """The players a user may name for this game; ``human`` only where a screen shows the game."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.tui.games import has_screen
    return [g for g in grammars(spec) if g != "human" or has_screen(spec.id)]


def params(spec: registry.GameSpec, skip: str = "") -> str:
    return ", ".join(f"{p.name}={p.shown(p.default)}" for p in spec.info.params if p.name != skip) or "-"
