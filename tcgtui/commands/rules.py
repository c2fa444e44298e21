"""``tcgtui rules [--game ID]``: a game's rules text, exactly as players and models are given it.

Any registered game with a ``rules_text`` (the card game by default), built from the same
``--game``/``--param`` flags as play and bench, so the numbers are those of the game played.
Sentences whose keys share a section (the card game's ``goal.*``, ``turn.*``) come under its
title; Arabic goes through the one shaping path (``ProsePrinter``).
"""

from __future__ import annotations

import argparse

from rich.console import Console

from tcgtui.flags import LANG
from tcgtui import locales, rtl
from tcgtui.arena import add_game_arguments, game_from_args, game_name
from tcgtui.console_text import ProsePrinter
from tcgtui.engine.core import Game
from tcgtui.errors import UserError


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    add_game_arguments(p, text)
    LANG.add(p, text.t("cmd_rules.lang"))
    p.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))


def check_lang(lang: str, game: Game) -> locales.Catalog:
    """The catalog for ``--lang``, which the locales and the files the game was built from (a pack) must have."""
    if lang not in locales.available():
        raise UserError(f"--lang: {lang!r} is not a language; expected one of {', '.join(locales.available())}")
    for p, file in game.spec.files(game):
        if lang not in file.languages:
            raise UserError(f"--lang: {p.kind} {file.id!r} ({file.source}) has no text in {lang!r}; "
                            f"it has {', '.join(file.languages)}")
    return locales.load(lang)


def run(args: argparse.Namespace) -> int:
    spec, game = game_from_args(args)
    cat = check_lang(args.lang, game)
    if spec.rules_text is None:
        raise UserError(cat.t("cmd_rules.none", game=spec.id))
    out = ProsePrinter(Console(), cat.rtl, rtl.resolve_mode(args.rtl))
    out.paragraph(cat.t("cmd_rules.title", game=game_name(spec, cat)), style="bold")
    section = None
    for key, sentence in spec.rules_text(game, cat):
        head = key.rpartition(".")[0]
        if head != section:
            section = head
            title = f"cmd_rules.section.{head}"
            if cat.has(title):
                out.blank()
                out.paragraph(cat.t(title), style="bold")
        out.paragraph(sentence, indent=2)
    return 0
