"""The deck-completion quiz's screen: the deck with one card missing, six cards to choose from,
then the reveal.

The deck is grouped by card type with counts; the six options are cards with their full
text.  A person selects a card with a letter (A-F), a number (1-6), the arrows or a click,
and answers with Enter or a click on the selected card (docs/keys.md).  The reveal marks the right card and the chosen one and gives every option's
measured win rate where the question has them; watching a model, its reply and reasoning
are shown under the cards.  The reveal stays until Enter, then the game-over dialog opens.
Cards of a question made from one of our packs are named in the reader's language.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Sequence

from rich.console import Group as Lines
from rich.markup import escape
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget

from tcgtui.console_text import clean
from tcgtui.engine.core import Event
from tcgtui.engine.deck import LETTERS
from tcgtui.engine.deck.view import NO_TYPE, deck_groups, in_language
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Line, Para, Piece, display_line
from tcgtui.tui.games.base import GameScreen
from tcgtui.tui.keys import keys
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.widgets.text import Caption

PLAY_KEYS = [("A-F 1-6 ←↑→↓", "ui.keys.select", "noop"), ("⏎", "deck.ui.keys.answer", "enter"),
             ("?", "ui.keys.rules", "rules"), ("L", "ui.keys.language", "language"),
             ("Q", "ui.keys.quit", "quit_game")]
READ_KEYS = [("⏎", "deck.ui.keys.go_on", "enter"), ("?", "ui.keys.rules", "rules"),
             ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]
WATCH_KEYS = [("Space", "ui.keys.pause", "pause"), ("?", "ui.keys.rules", "rules"),
              ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]
COLUMNS = 2                                    # options per row of the grid of cards


class DeckList(Localized, Widget):
    """The deck as it stands: each card type with its count, then its cards (count × name)."""

    def __init__(self, screen: DeckScreen, id: str | None = None) -> None:
        super().__init__(id=id)
        self.deck_screen = screen

    def render(self) -> RenderResult:
        s, d = self.deck_screen, self.direction
        q = s.question
        lines: list[Any] = []
        for group in deck_groups(q, s.pack, self.host.catalog):
            name = self.tr("deck.ui.deck.cards") if group.type == NO_TYPE else self.tr(f"deck.ui.types.{group.type}")
            lines.append(Line([Piece(self.tr("deck.ui.deck.group", type=name, count=group.count), "bold")], d))
            for i, (card, count) in enumerate(group.cards):
                lines.append(Line([Piece(str(count), "dim", shrink=False), Piece(" × ", "dim", shrink=False),
                                   Piece(clean(card), "bold")], d))
                if i < len(group.texts):
                    lines.append(Para(clean(group.texts[i]), d, "dim"))
            lines.append(Line([""], d))
        return Lines(*lines)


class OptionCard(Localized, Widget):
    """One option: its letter and name, its type and cost, its text; after the reveal, its win rate."""

    def __init__(self, screen: DeckScreen, index: int) -> None:
        super().__init__(id=f"option-{LETTERS[index].lower()}", classes="option")
        self.deck_screen, self.index = screen, index

    def render(self) -> RenderResult:
        s, d = self.deck_screen, self.direction
        o = s.question.options[self.index]
        kind = clean(o.type) + (self.tr("deck.ui.option.cost", cost=clean(o.cost)) if o.cost else "")
        lines: list[Any] = [Line([Piece(LETTERS[self.index], "bold", shrink=False), Piece("  ", shrink=False),
                                  Piece(clean(o.name), "bold")], d)]
        if kind:
            lines.append(Line([Piece(kind, "italic")], d))
        lines.append(Para(clean(o.text), d))
        reveal = s.reveal
        if reveal is not None:
            rates = reveal.get("win_rates")
            if rates:
                lines.append(Line([Piece(self.tr("deck.ui.option.win_rate", rate=f"{100 * rates[self.index]:.1f}"),
                                         "bold")], d))
            if LETTERS[self.index] == reveal["answer"]:
                lines.append(Line([Piece(self.tr("deck.ui.option.answer"), "bold")], d))
            if LETTERS[self.index] == reveal["chosen"]:
                lines.append(Line([Piece(s.said("deck.ui.option.chosen"), "bold")], d))
        return Lines(*lines)

    def on_click(self, event: events.Click) -> None:
        self.deck_screen.clicked(self.index)


class DeckScreen(GameScreen):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    PANE_TITLES = {"#options": "deck.ui.options_title", "#question": "deck.ui.question_title", "#log": "ui.log.title"}
    BINDINGS = [
        *[Binding(keys(letter.lower()), f"select({i})", show=False) for i, letter in enumerate(LETTERS)],
        *[Binding(str(i + 1), f"select({i})", show=False) for i in range(len(LETTERS))],
        Binding("left", "move(-1)", show=False), Binding("right", "move(1)", show=False),
        Binding("up", f"move(-{COLUMNS})", show=False), Binding("down", f"move({COLUMNS})", show=False),
        Binding("enter", "enter", show=False),
    ]

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        self.selected = 0
        self.reveal: dict[str, Any] | None = None      # the reveal event's data, once answered
        self.read = asyncio.Event()                    # the person has read the reveal (Enter)

    # --- what is shown ---------------------------------------------------------------

    @property
    def pack(self) -> Any:
        """The pack the question was made from, when the set came with it (its names in every language)."""
        q = self.session.observation(self.session.viewer).question
        return self.session.game.qset.packs.get((q.sim or {}).get("pack"))

    @property
    def question(self) -> Any:
        return in_language(self.session.observation(self.session.viewer).question, self.pack, self.host.catalog)

    def players(self) -> tuple[str, str]:
        """The top bar's "A vs B": the player against the question."""
        game = self.session.game
        index = self.session.match.state.index
        return self.label_for(0), self.tr("deck.ui.top.question", n=index + 1, set=game.qset.id)

    def said(self, key: str, **params: Any) -> str:
        """``key`` about the person at the keyboard (``key.you``), else about the model seated."""
        if self.session.seats[0].human:
            return self.tr(f"{key}.you", **params)
        return self.tr(f"{key}.other", who=self.label_for(0), **params)

    def verdict_key(self, reveal: dict[str, Any]) -> str:
        return "deck.ui.status." + ("right" if reveal["right"] else "wrong" if reveal["chosen"] else "none")

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(WATCH_KEYS if self.session.spectating else PLAY_KEYS, id="keys")
        with Horizontal(id="main"):
            with VerticalScroll(id="options", classes="pane"):      # where every game has its board
                for row in range(0, len(LETTERS), COLUMNS):
                    with Horizontal(classes="row"):
                        for i in range(row, row + COLUMNS):
                            yield OptionCard(self, i)
                yield Caption("deck.ui.reply.title", id="reply-title", classes="pane-title")
                yield Vertical(id="reply")
            with Vertical(id="side"):                                # the side panel, as in every game
                with Vertical(id="question", classes="pane"):
                    yield Caption("deck.ui.status.wait", id="status", wrap=True)
                    yield Caption("deck.ui.status.go_on", id="go-on", style="bold reverse")
                with VerticalScroll(id="deck-pane", classes="pane", can_focus=False):   # arrows choose options
                    yield DeckList(self, id="deck")
                yield BattleLog(self.narrate, id="log")

    async def on_mount(self) -> None:
        q = self.question
        self.query_one(TopBar).show(players=self.players(), seed=self.session.seed, note=self.note, turn=1, limit=1,
                                    watch=self._watch_state(), your_move_key="deck.ui.top.your_move")
        self.title_deck()
        self.query_one("#reply-title").display = False
        self.query_one("#go-on").display = False
        self.order_cards()
        self.redraw()
        self.run_game()

    def title_deck(self) -> None:
        """The deck pane's title gives the deck's size (with the missing card)."""
        pane = self.query_one("#deck-pane")
        text = self.tr("deck.ui.deck.title", size=sum(c for _, c in self.question.deck) + 1)
        pane.border_title = escape(display_line(text, max(8, (pane.size.width or 40) - 4), self.direction))

    def title_panes(self) -> None:
        super().title_panes()
        self.title_deck()

    def redraw(self) -> None:
        for card in self.query(OptionCard):
            card.set_class(card.index == self.selected and self.reveal is None and self.choosing(), "-selected")
            if self.reveal is not None:
                card.set_class(LETTERS[card.index] == self.reveal["answer"], "-answer")
                card.set_class(LETTERS[card.index] == self.reveal["chosen"] != self.reveal["answer"], "-wrong")
            card.refresh(layout=True)
        self.query_one(DeckList).refresh(layout=True)

    # --- hooks -----------------------------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        if event.kind != "reveal":
            return None
        d = event.data
        return catalog.t(self.verdict_key(d) + ".other", who=self.label_for(0), chosen=d["chosen"], answer=d["answer"])

    def choosing(self) -> bool:
        return self.session.human_waiting() is not None

    async def show_events(self, events: Sequence[Event], by: int | None, final: bool) -> None:
        await self.query_one(BattleLog).add(events, self.log_seat)
        for e in events:
            if e.kind == "reveal":
                self.reveal = dict(e.data)
                self.show_verdict()
                await self._show_reply()
        if final:
            self.redraw()

    def show_verdict(self) -> None:
        """The status line says right or wrong and the answer (about "you" or about the model)."""
        r = self.reveal
        assert r is not None
        key = self.verdict_key(r)
        if self.session.seats[0].human:
            self.query_one("#status", Caption).set(key + ".you", chosen=r["chosen"], answer=r["answer"])
        else:
            self.query_one("#status", Caption).set(key + ".other", who=self.label_for(0), chosen=r["chosen"],
                                                   answer=r["answer"])

    async def _show_reply(self) -> None:
        """A model's last reply and its reasoning, as the record keeps them (text from outside: cleaned)."""
        info = self.session.decisions[-1].info if self.session.decisions else {}
        attempts = info.get("attempts") or []
        if not attempts:
            return
        last = attempts[-1]
        paragraphs = [p for part in (last.get("reasoning") or "", last.get("reply") or "")
                      for p in clean(part, newlines=True).split("\n") if p.strip()]
        if not paragraphs:
            return
        self.query_one("#reply-title").display = True
        box = self.query_one("#reply", Vertical)
        await box.mount_all([Reply(p) for p in paragraphs])

    def show_thinking(self, seat: int | None) -> None:
        self.query_one(TopBar).show(thinking=None if seat is None else self.label_for(seat), your_move=False)

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None)
        self.query_one("#status", Caption).set("deck.ui.status.pick")
        self.redraw()

    async def game_ended(self, result: MatchResult | None) -> None:
        """The reveal stays on screen until the reader presses Enter; watching, as long as a move stays
        (the pause, + and -) or the watch is paused (Space), and Enter goes on sooner."""
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False)
        if self.reveal is None:
            return
        self.redraw()
        if self.session.spectating:
            while not self.read.is_set():
                try:
                    await asyncio.wait_for(self.read.wait(), self.session.pause)
                except asyncio.TimeoutError:
                    if not self.session.paused:
                        return
            return
        self.query_one("#go-on").display = True
        bar = self.query_one(KeyBar)
        bar.hints = READ_KEYS                 # the answer keys are spent: Enter goes on
        await bar.recompose()
        await self.read.wait()

    def order_cards(self) -> None:
        """A row of cards reads in the reader's direction: A on the left in English, on the right in Arabic."""
        for row in self.query(".row"):
            wanted = sorted(row.query(OptionCard), key=lambda c: c.index, reverse=self.direction.rtl)
            for i, card in enumerate(wanted):
                if row.children[i] is not card:
                    row.move_child(card, before=row.children[i])

    async def localize(self) -> None:
        await super().localize()
        self.order_cards()
        self.query_one(TopBar).show(players=self.players())
        self.title_deck()
        self.redraw()

    def summary_lines(self) -> list[tuple[str, dict[str, Any]]]:
        r = self.reveal
        if r is None:
            return []
        return [("deck.ui.over.answer", {"answer": r["answer"], "chosen": r["chosen"] or "-"})]

    # --- choosing --------------------------------------------------------------------

    def action_select(self, index: int) -> None:
        """A letter or a digit selects that card; Enter answers with it (docs/keys.md)."""
        if self.choosing():
            self.selected = index
            self.redraw()

    def action_move(self, by: int) -> None:
        if self.choosing():
            step = -by if self.direction.rtl and abs(by) == 1 else by     # the cards' row reads right to left
            self.selected = (self.selected + step) % len(LETTERS)
            self.redraw()

    def action_enter(self) -> None:
        if self.reveal is not None:
            self.read.set()
        elif self.choosing():
            self._send(LETTERS[self.selected])

    def clicked(self, index: int) -> None:
        """A click selects a card; a click on the selected card answers with it."""
        if not self.choosing():
            return
        if index == self.selected:
            self._send(LETTERS[index])
        else:
            self.selected = index
            self.redraw()

    def _send(self, letter: str) -> None:
        if self.session.choose(letter):
            self.query_one("#status", Caption).set("deck.ui.status.sent", chosen=letter)
            self.query_one(TopBar).show(your_move=False)
            self.redraw()

    def action_noop(self) -> None:
        """A key hint only."""


class Reply(Localized, Widget):
    """One paragraph of a model's reply, wrapped in the reader's direction."""

    def __init__(self, text: str) -> None:
        super().__init__(classes="reply")
        self.text = text

    def render(self) -> RenderResult:
        return Para(self.text, self.direction)
