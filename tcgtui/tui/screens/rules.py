"""The rules, then every card of the pack with its text.

The rules are whatever ``locales/<lang>/rules.toml`` holds (the same text
``tcgtui rules`` prints and models are given), formatted with the pack's
numbers by ``rules_sentences``; sections take their titles from
``cmd_rules.section``.  The screen knows no rule itself.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget

from tcgtui.engine.tcg.describe import card_text, rules_sentences
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar


class RulesText(Localized, Widget):
    def rules(self) -> list[RenderableType]:
        cat, d = self.catalog, self.direction
        out: list[RenderableType] = [Line([Piece(self.tr("ui.rules.title"), "bold reverse")], d)]
        sentences = rules_sentences(cat, self.tcg.pack)
        if not sentences:
            return out + [Para(self.tr("ui.rules.missing"), d, "italic")]
        section = None
        for key, text in sentences:
            head = key.rpartition(".")[0]
            if head != section:
                section = head
                out.append(Line([Piece("")], d))
                title = f"cmd_rules.section.{head}"
                if cat.has(title) or (cat.fallback is not None and cat.fallback.has(title)):
                    out.append(Line([Piece(cat.t(title), "bold underline")], d))
            out.append(Para("• " + text, d))   # logical start: the right edge in Arabic
        return out

    def cards(self) -> list[RenderableType]:
        d, lang = self.direction, self.catalog.code
        pack = self.tcg.pack
        out: list[RenderableType] = [Line([Piece("")], d),
                                     Line([Piece(self.tr("ui.rules.cards", pack=pack.names.get(lang) or pack.id),
                                                 "bold reverse")], d)]
        for card in pack.cards:
            pieces = [Piece(card.name(lang), "bold"), Piece(" · ", shrink=False),
                      Piece(self.tr(f"cards.type.{card.type}"), "italic")]
            if card.type == "champion":
                pieces += [Piece(" · ", shrink=False), Piece(self.tr("cards.stat.power")),
                           Piece(" ", shrink=False), Piece(str(card.power), "bold", shrink=False),
                           Piece(" · ", shrink=False), Piece(self.tr("cards.stat.guard")),
                           Piece(" ", shrink=False), Piece(str(card.guard), "bold", shrink=False)]
            out += [Line([Piece("")], d), Line(pieces, d), Para(card_text(card, self.catalog), d)]
        return out

    def render(self) -> RenderResult:
        return Group(*self.rules(), *self.cards())


class RulesScreen(Localized, Screen[None]):
    AUTO_FOCUS = "#rules-scroll"
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", show=False),
        Binding("l", "language", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield KeyBar([("Esc", "ui.keys.close", "close"), ("↑↓", "ui.keys.scroll", "noop"),
                      ("L", "ui.keys.language", "language")], id="keys")
        with VerticalScroll(id="rules-scroll"):
            yield RulesText()

    def on_mount(self) -> None:
        self.set_class(self.direction.rtl, "rtl")

    async def relocalize(self) -> None:
        self.set_class(self.direction.rtl, "rtl")
        await self.query_one(KeyBar).recompose()
        self.query_one(RulesText).refresh(layout=True)

    def action_close(self) -> None:
        self.dismiss()

    async def action_language(self) -> None:
        await self.tcg.toggle_language()

    def action_noop(self) -> None:
        """The scroll hint is only a hint."""
