"""The home screen of ``tcgtui`` with no arguments: pick a game, an opponent and a language, then play.

Games come from the registry (those with a screen), with their localized names
and one-line descriptions; opponents are the kinds this install can build plus
the game's own reference players; ``llm:MODEL`` is typed in.  Choosing a
language switches the whole app at once.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.text import Caption

SEARCH = ("random", "mc:100", "mcts:1000")
LLM = "llm:"
ALONE = "-"           # a one-seat game (Eleusis): the person plays alone


def game_text(catalog: locales.Catalog, game_id: str, what: str) -> str:
    """A game's localized name or description: the game's own text, else the home screen's."""
    folder = registry.get(game_id).info.locale_folder
    for key in (f"{folder}.games.{game_id}.{what}", f"ui.home.games.{game_id}.{what}"):
        if catalog.has(key) or (catalog.fallback is not None and catalog.fallback.has(key)):
            return catalog.t(key)
    return game_id


def opponents_for(game_id: str) -> list[str]:
    """The specs offered against ``game_id``: search players, the game's references, then llm:."""
    from tcgtui.opponents.registry import builder
    from tcgtui.opponents.spec import SpecError, check_supported, parse_spec
    spec = registry.get(game_id)
    if spec.info.seats == 1:
        return [ALONE]
    refs = [f"{r.name}:{r.default_arg}" if r.takes_arg and r.default_arg is not None else r.name
            for r in spec.references]
    out = []
    for s in (*SEARCH, *refs):
        try:
            parsed = parse_spec(s)
            check_supported(parsed, spec)
        except SpecError:
            continue
        if builder(parsed.kind) is not None:
            out.append(s)
    return out + [LLM]


class ChoiceList(Localized, Widget, can_focus=True):
    """A titled column of choices: arrows move, Enter or a click chooses."""

    BINDINGS = [Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False)]

    class Chosen(Message):
        def __init__(self, choices: ChoiceList) -> None:
            super().__init__()
            self.choices = choices

    def __init__(self, title_key: str, values: list[str], id: str) -> None:
        super().__init__(id=id)
        self.title_key, self.values, self.index = title_key, values, 0

    @property
    def value(self) -> str:
        return self.values[self.index]

    def set_values(self, values: list[str]) -> None:
        self.values, self.index = values, min(self.index, len(values) - 1)
        self.refresh(layout=True)

    def label(self, value: str) -> tuple[str, str]:
        return self.screen.label(self.id, value)  # type: ignore[attr-defined,no-any-return]

    def render(self) -> RenderResult:
        d = self.direction
        rows: list[Any] = [Line([Piece(self.tr(self.title_key), "bold underline")], d)]
        for i, v in enumerate(self.values):
            name, note = self.label(v)
            chosen = i == self.index
            mark = ("◂ " if d.rtl else "▸ ") if chosen else "  "
            style = ("bold reverse" if self.has_focus else "bold") if chosen else ""
            rows.append(Line([Piece(mark, shrink=False), Piece(name, style)], d))
        return Group(*rows)

    def action_move(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.values)
        self.refresh(layout=True)
        self.post_message(self.Chosen(self))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        y = event.y - 1
        if 0 <= y < len(self.values):
            self.index = y
            self.focus()
            self.refresh(layout=True)
            self.post_message(self.Chosen(self))


class HomeScreen(LocalizedScreen[None]):
    AUTO_FOCUS = "#games"
    BINDINGS = [
        Binding("enter", "play", show=False),
        Binding("tab,right", "app.focus_next", show=False),
        Binding("shift+tab,left", "app.focus_previous", show=False),
        Binding(keys("question_mark,f1"), "noop", show=False),
        Binding(keys("q,escape"), "leave", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        from tcgtui.arena import game_name
        from tcgtui.tui.games import has_screen
        english = locales.load("en")          # one order in every language: the default game, then by name
        shown = [s for s in registry.games() if has_screen(s.id)]
        self.games = [s.id for s in sorted(shown, key=lambda s: (s.id != registry.DEFAULT, game_name(s, english)))]

    def compose(self) -> ComposeResult:
        yield KeyBar([("↑↓", "ui.home.keys.choose", "noop"), ("Tab", "ui.home.keys.next", "app.focus_next"),
                      ("⏎", "ui.home.keys.play", "play"), ("Q", "ui.keys.quit", "leave")], id="keys")
        with Vertical(id="home"):
            yield Caption("ui.home.title", style="bold", id="home-title")
            yield Caption("ui.home.intro", wrap=True, id="home-intro")
            with Horizontal(id="home-choices"):
                yield ChoiceList("ui.home.game", self.games, id="games")
                yield ChoiceList("ui.home.opponent", opponents_for(self.games[0]), id="opponents")
                yield ChoiceList("ui.home.language", locales.available(), id="languages")
            yield Caption("ui.home.games.tcg.description", wrap=True, style="italic", id="about")
            yield Input(placeholder="MODEL", id="model")
            yield Caption("ui.home.model", wrap=True, id="model-hint")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_model()

    def _order(self) -> None:
        """Right to left, the first list (the game) stands on the right."""
        box = self.query_one("#home-choices")
        order = ["games", "opponents", "languages"]
        for name in (order if self.direction.rtl else list(reversed(order))):
            box.move_child(self.query_one(f"#{name}"), before=0)

    async def localize(self) -> None:
        self._order()
        for widget in self.query("*"):
            widget.refresh(layout=True)

    def on_mount(self) -> None:
        self._order()
        langs = self.query_one("#languages", ChoiceList)
        if self.host.catalog.code in langs.values:
            langs.index = langs.values.index(self.host.catalog.code)
        self._show_model()

    def label(self, list_id: str, value: str) -> tuple[str, str]:
        cat = self.catalog
        if list_id == "games":
            return game_text(cat, value, "name"), game_text(cat, value, "description")
        if list_id == "languages":
            return locales.load(value).name, ""
        if value == LLM:
            return "llm:MODEL", ""
        if value == ALONE:
            return self.tr("ui.home.alone"), ""
        return value, ""

    def _show_about(self) -> None:
        lists = self.query_one("#games", ChoiceList), self.query_one("#opponents", ChoiceList)
        about = self.query_one("#about", Caption)
        if lists[1].has_focus and lists[1].value == LLM:
            about.set("ui.home.llm")
            return
        game = lists[0].value
        folder = registry.get(game).info.locale_folder
        key = f"{folder}.games.{game}.description"
        cat = self.catalog
        about.set(key if cat.has(key) or (cat.fallback is not None and cat.fallback.has(key))
                  else f"ui.home.games.{game}.description")

    def _show_model(self) -> None:
        self._show_about()
        llm = self.query_one("#opponents", ChoiceList).value == LLM
        self.query_one("#model").display = llm
        self.query_one("#model-hint").display = llm

    async def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        list_id = message.choices.id
        if list_id == "games":
            self.query_one("#opponents", ChoiceList).set_values(opponents_for(message.choices.value))
        elif list_id == "languages" and message.choices.value != self.host.catalog.code:
            self.host.set_language(message.choices.value)  # type: ignore[attr-defined]
            for screen in self.app.screen_stack:
                relocalize = getattr(screen, "relocalize", None)
                if relocalize is not None:
                    await relocalize()
        self._show_model()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_play()

    def opponent(self) -> str | None:
        value = self.query_one("#opponents", ChoiceList).value
        if value != LLM:
            return value
        model = self.query_one("#model", Input).value.strip()
        if not model:
            self.query_one("#model", Input).focus()
            return None
        return LLM + model

    def action_play(self) -> None:
        opponent = self.opponent()
        if opponent is None:
            return
        from tcgtui.opponents.human import HUMAN
        settings = self.host.settings
        settings.game_id = self.query_one("#games", ChoiceList).value
        settings.params = {}
        settings.seats = (HUMAN,) if opponent == ALONE else (HUMAN, opponent)
        self.host.start()  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        self.app.exit()

    def action_noop(self) -> None:
        """A key hint only."""
