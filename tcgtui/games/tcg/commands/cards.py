"""``tcgtui cards``: a pack's cards with their text, as players and models read them."""

from __future__ import annotations

import argparse

from rich.console import Console

from tcgtui.flags import LANG
from tcgtui import locales
from tcgtui.engine.tcg.describe import card_text
from tcgtui import rtl
from tcgtui.console_text import ProsePrinter
from tcgtui.errors import UserError
from tcgtui.games.tcg.packs import DEFAULT_PACK, load_pack


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--pack", default=DEFAULT_PACK, metavar="DIR", help=text.t("cmd_cards.pack"))
    LANG.add(p, text.t("cmd_cards.lang"))
    p.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))


def check_lang(lang: str, pack) -> locales.Catalog:
    """The catalog for ``--lang``, which both the locales and the pack must have."""
    if lang not in locales.available():
        raise UserError(f"--lang: {lang!r} is not a language; expected one of {', '.join(locales.available())}")
    if lang not in pack.languages:
        raise UserError(f"--lang: pack {pack.id!r} ({pack.source}) has no text in {lang!r}; "
                        f"it has {', '.join(pack.languages)}")
    return locales.load(lang)


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    cat = check_lang(args.lang, pack)
    out = ProsePrinter(Console(), cat.rtl, rtl.resolve_mode(args.rtl))
    out.paragraph(cat.t("cmd_cards.header", pack=pack.names[args.lang], id=pack.id,
                        count=len(pack.cards), hash=pack.short_hash), style="bold")
    out.blank()
    for card in pack.cards:
        kind = cat.t(f"cards.type.{card.type}")
        if card.type == "champion":
            head = cat.t("cmd_cards.champion_line", name=card.name(args.lang), type=kind,
                         power=card.power, guard=card.guard,
                         power_word=cat.t("cards.stat.power"), guard_word=cat.t("cards.stat.guard"))
        else:
            head = cat.t("cmd_cards.card_line", name=card.name(args.lang), type=kind)
        out.paragraph(head, style="bold")
        out.paragraph(card_text(card, cat), indent=2)
    return 0
