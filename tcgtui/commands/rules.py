"""``tcgtui rules``: the rules text, exactly as players and models are given it."""

from __future__ import annotations

import argparse

from rich.console import Console

from tcgtui import locales
from tcgtui.engine.tcg.describe import rules_sentences
from tcgtui import rtl
from tcgtui.commands.cards import check_lang
from tcgtui.console_text import ProsePrinter
from tcgtui.packs import DEFAULT_PACK, load_pack


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--pack", default=DEFAULT_PACK, metavar="DIR", help=text.t("cmd_cards.pack"))
    p.add_argument("--lang", default="en", help=text.t("cmd_rules.lang"))
    p.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    cat = check_lang(args.lang, pack)
    out = ProsePrinter(Console(), cat.rtl, rtl.resolve_mode(args.rtl))
    section = None
    for key, sentence in rules_sentences(cat, pack):
        head = key.split(".")[0]
        if head != section:
            if section is not None:
                out.blank()
            out.paragraph(cat.t(f"cmd_rules.section.{head}"), style="bold")
            section = head
        out.paragraph(sentence, indent=2)
    return 0
