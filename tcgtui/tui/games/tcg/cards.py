"""Cards on screen: faces in hand and on the board, face-down backs, one-line chips."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Group, RenderableType
from textual.app import RenderResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget

from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.observation import ChampionView
from tcgtui.engine.tcg.describe import card_text
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.text import Caption

HAND, BOARD, TRICK = "hand", "board", "trick"


def card_pack(widget: Localized) -> Pack:
    """The pack of the card game on screen: held by the screen the card is on, or, for a card not
    yet mounted, by the topmost screen that holds one (the game's screen, or a replay's among the
    files its game was built from)."""
    for node in [*widget.ancestors_with_self, *reversed(widget.app.screen_stack)]:
        for pack in (getattr(node, "pack", None), *getattr(node, "files", ())):
            if isinstance(pack, Pack):
                return pack
    raise LookupError("a card drawn outside any card game's screen")


@dataclass(frozen=True)
class Slot:
    """What one card widget shows: which card, where, and (on the board) its live stats."""

    card: str
    zone: str
    index: int = -1                       # position in hand (1-9 keys); -1 elsewhere
    champion: ChampionView | None = None
    turn: int = 0                         # the current turn, to tell "summoned this turn"
    owner_to_move: bool = False           # whether this card's owner is the player to move


def stat_style(now: int, printed: int) -> str:
    return "bold green" if now > printed else "bold red" if now < printed else "bold"


def champion_status(slot: Slot, card: C.Card) -> tuple[str, str]:
    """The status word key and its style: can't attack, frozen, summoned this turn, ready."""
    ch = slot.champion
    assert ch is not None
    if C.CANNOT_ATTACK in card.keywords:
        return "tcg.ui.status.wall", "dim"
    if ch.frozen:
        return "tcg.ui.status.frozen", "bold cyan"
    if ch.summoned_turn == slot.turn and C.HASTE not in card.keywords:
        return "tcg.ui.status.new", "yellow"
    if ch.can_attack:
        return "tcg.ui.status.ready", "bold green"
    return "tcg.ui.status.waiting", "dim"


class Picked(Message):
    """A card widget was clicked."""

    def __init__(self, slot: Slot) -> None:
        super().__init__()
        self.slot = slot


class CardFace(Localized, Widget):
    """A card as a small bordered box: name, type or stats, status."""

    SCOPED_CSS = False          # its rules name the right-to-left layout and the screen around it
    DEFAULT_CSS = """
    CardFace { width: 1fr; min-width: 5; max-width: 24; height: 100%; padding: 0 1; margin-right: 1;
               border: round $primary; border-title-color: $text; }
    .rtl CardFace { margin-right: 0; margin-left: 1; border-title-align: right; }
    /* Each kind of card its own colour: champions amber, spells blue, tricks violet. */
    CardFace.champion { border: round $warning 70%; }
    CardFace.spell { border: round $primary-lighten-1; }
    CardFace.trick { border: round mediumpurple; }
    CardFace.-ready { border: round $success; }
    CardFace.-frozen { border: round $primary-lighten-2; background: $primary 20%; }
    CardFace.-selected { border: heavy $success; background: $success 15%; }
    CardFace:hover { background: $boost; }
    CardFace.-compact { border: none; height: 2; padding: 0; background: $boost; }
    CardFace.-compact.champion { background: $warning 15%; }
    CardFace.-compact.spell { background: $primary 20%; }
    CardFace.-compact.trick { background: mediumpurple 20%; }
    CardFace.-compact.-selected { background: $success 40%; text-style: bold; }
    Screen.-narrow CardFace { padding: 0; }
    """

    def __init__(self, slot: Slot, selected: bool = False) -> None:
        super().__init__(classes=slot.zone)
        self.slot = slot
        self._shown: tuple[object, ...] = ()
        self.show(slot, selected, force=True)

    @staticmethod
    def look(slot: Slot, card: C.Card) -> tuple[object, ...]:
        """What the face shows of ``slot``: a new turn changes every board slot, rarely its look."""
        ch = slot.champion
        if ch is None:
            return slot.card, slot.zone, slot.index
        return slot.card, slot.zone, slot.index, ch.power, ch.guard, champion_status(slot, card)[0]

    def show(self, slot: Slot, selected: bool, force: bool = False) -> None:
        card = card_pack(self).card(slot.card)
        look = self.look(slot, card)
        self.slot = slot                  # a click reports the newest slot
        if not force and look == self._shown and selected == self.has_class("-selected"):
            return          # looks the same: no style, layout or render work after every move
        self._shown = look
        classes = {slot.zone, card.type}
        if self.has_class("-compact"):            # the row's choice (CardRow._crowd), kept
            classes.add("-compact")
        if selected:
            classes.add("-selected")
        if slot.champion is not None:
            key, _ = champion_status(slot, card)
            if key == "tcg.ui.status.frozen":
                classes.add("-frozen")
            elif key == "tcg.ui.status.ready":
                classes.add("-ready")
        self.set_classes(classes)     # one restyle, none when they are the same (each class set alone was one)
        self.border_title = str(slot.index + 1) if 0 <= slot.index < 9 else None
        self.refresh()      # the row sizes the face: a new look is a repaint (new classes restyle it)

    def stats_rows(self, card: C.Card, spare: int) -> list[Line]:
        """Power and Guard, labelled in words: on one line where it fits ("Power 2  Guard 1"),
        else on two when the card has a line to spare, else by initials; a very narrow card
        keeps the numbers only."""
        ch = self.slot.champion
        power = ch.power if ch else card.power
        guard = ch.guard if ch else card.guard
        p = Piece(str(power), stat_style(power, card.power), shrink=False)
        g = Piece(str(guard), stat_style(guard, card.guard), shrink=False)
        d, width = self.direction, self.content_size.width
        if width < 8:
            return [Line([p, Piece("/", "dim", shrink=False), g], d)]

        def stat(key: str, value: Piece) -> list[Piece]:
            return [Piece(self.tr(key), "dim"), Piece(" ", shrink=False), value]
        words = Line(stat("cards.stat.power", p) + [Piece("  ", shrink=False)] + stat("cards.stat.guard", g), d)
        if words.natural_width <= width:
            return [words]
        if spare >= 1:
            return [Line(stat("cards.stat.power", p), d), Line(stat("cards.stat.guard", g), d)]
        short = stat("tcg.ui.stat_short.power", p) + [Piece("  ", shrink=False)]
        return [Line(short + stat("tcg.ui.stat_short.guard", g), d)]

    def compact(self, card: C.Card, name: str) -> RenderableType:
        """A card of a crowded hand, borderless: its number and name, then its type if the
        name left room (the colour says the type too; the detail pane says everything)."""
        d, label = self.direction, f"{self.slot.index + 1} {name}"
        if cell_len(label) > self.content_size.width and self.content_size.height >= 2:
            return Para(label, d, "bold", max_lines=self.content_size.height)
        return Group(Line([Piece(f"{self.slot.index + 1} ", "dim", shrink=False), Piece(name, "bold")], d),
                     Line([Piece(self.tr(f"cards.type.{card.type}"), "italic")], d))

    def name_rows(self, name: str, lines: int) -> Line | Para:
        """Up to ``lines`` wrapped lines; one truncated line if a word would have to be split."""
        width = self.content_size.width
        if lines < 2 or max(cell_len(w) for w in name.split()) > width:
            return Line([Piece(name, "bold")], self.direction)
        return Para(name, self.direction, "bold", max_lines=lines)

    def render(self) -> RenderResult:
        card = card_pack(self).card(self.slot.card)
        d = self.direction
        room = self.content_size.height
        name = card.name(self.catalog.code)
        champion = self.slot.champion is not None
        fixed = 2 if champion or card.type == C.CHAMPION else 1
        if self.has_class("-compact") and self.slot.index >= 0:
            return self.compact(card, name)
        if (self.slot.zone == HAND and 2 <= room <= 3 and not champion
                and cell_len(name) > self.content_size.width):
            return self.name_rows(name, room)   # a low card in hand: the whole name; its colour says the type
        rows: list[RenderableType] = [self.name_rows(name, max(1, min(2, room - fixed)))]
        used = len(rows[0].lines(self.content_size.width)) if isinstance(rows[0], Para) else 1
        used += fixed
        if champion:
            key, style = champion_status(self.slot, card)
            stats = self.stats_rows(card, room - used)
            rows += [*stats, Line([Piece(self.tr(key), style)], d)]
        else:
            rows.append(Line([Piece(self.tr(f"cards.type.{card.type}"), "italic")], d))
            stats = self.stats_rows(card, room - used) if card.type == C.CHAMPION else []
            rows += stats
        used += max(0, len(stats) - 1)
        if room - used >= 2:          # a tall card also shows what it does
            rows.append(Para(card_text(card, self.catalog), d, "dim", max_lines=room - used, clip_words=True))
        return Group(*rows)

    def on_click(self) -> None:
        self.post_message(Picked(self.slot))


class CardChip(Localized, Widget):
    """A one-line card: your tricks, and in a spectator's view the other hand."""

    SCOPED_CSS = False          # its rules name the right-to-left layout and the screen around it
    DEFAULT_CSS = """
    CardChip { width: auto; max-width: 26; height: 1; padding: 0 1; margin-right: 1; background: mediumpurple 30%; }
    .rtl CardChip { margin-right: 0; margin-left: 1; }
    CardChip:hover { background: mediumpurple 60%; }
    """

    def __init__(self, slot: Slot) -> None:
        super().__init__(classes=f"chip {slot.zone}")
        self.slot = slot

    def render(self) -> RenderResult:
        card = card_pack(self).card(self.slot.card)
        return Line([Piece(card.name(self.catalog.code))], self.direction)

    def on_click(self) -> None:
        self.post_message(Picked(self.slot))


MIN_CARD_WIDTH = 13      # columns a card needs to show a name of one or two words
COMPACT_BELOW = 8        # a crowded row lower than this shows borderless one-line-name cards


class CardRow(Localized, Horizontal):
    """A row of cards kept in step with a list of slots; mirrored in right-to-left layouts.

    Widgets are updated in place where possible, so a redraw after every move
    does not remount the whole board."""

    SCOPED_CSS = False          # its rules name the right-to-left layout and the screen around it
    DEFAULT_CSS = """
    CardRow { height: 5; }
    .rtl CardRow { align-horizontal: right; }
    CardRow.champions { background: $boost; }
    CardRow > .empty { width: 1fr; height: 1fr; color: $text-muted; content-align: center middle; }
    CardRow.-empty { height: 1; }
    """

    def __init__(self, chips: bool = False, empty_key: str = "", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.chips = chips
        self.empty_key = empty_key
        self.slots: list[Slot] = []
        self.selected = -1

    def on_resize(self) -> None:
        self._crowd()

    def _crowd(self) -> None:
        """Cards narrower than a name are stubs ("Dir…"): a crowded row lays them out on two
        lines of compact cards instead (the selected card's whole text is in the detail pane)."""
        if self.chips:
            return
        n = len(self.slots)
        crowded = n > 1 and n * MIN_CARD_WIDTH > self.size.width > 0
        self.set_class(crowded, "-crowded")
        if crowded and self.styles.grid_size_columns != (n + 1) // 2:
            self.styles.grid_size_columns = (n + 1) // 2
        short = crowded and self.size.height < COMPACT_BELOW
        for face in self.query(CardFace):
            face.set_class(short, "-compact")

    async def show(self, slots: list[Slot], selected: int = -1) -> None:
        self.slots, self.selected = slots, selected
        self.set_class(not slots, "-empty")
        shown = list(reversed(slots)) if self.direction.rtl else slots
        kind = CardChip if self.chips else CardFace
        current = [w for w in self.children if isinstance(w, kind)]
        extra = [w for w in self.children if not isinstance(w, kind) and (shown or not self.empty_key)]
        if extra:
            await self.remove_children(extra)
        for widget, slot in zip(current, shown):
            if isinstance(widget, CardFace):
                widget.show(slot, slot.index == selected and slot.zone == HAND)
            elif widget.slot != slot:
                widget.slot = slot
                widget.refresh(layout=True)
        if len(current) > len(shown):
            await self.remove_children(current[len(shown):])
        new = [self._make(s, selected) for s in shown[len(current):]]
        if new:
            await self.mount_all(new)
        if not shown and self.empty_key and not self.query_children(Caption):
            await self.mount(Caption(self.empty_key, classes="empty", justify=None if self.chips else "center"))
        self._crowd()

    def _make(self, slot: Slot, selected: int) -> Widget:
        if self.chips:
            return CardChip(slot)
        return CardFace(slot, slot.index == selected and slot.zone == HAND)
