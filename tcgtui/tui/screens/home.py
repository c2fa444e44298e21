"""The home screen of ``tcgtui`` with no arguments: the hub every game starts from and returns to.

Top row, one bordered list each: the game, the opponent (every player the game
offers: search levels, its reference players, the models of ``models.toml``,
``llm:MODEL`` typed in, the card game's campaign), the seat and the language (switching it switches the whole
app).  Below: the game's description, its options (the parameters it lets a person set, made from
their declaration: ``home_params``), the person's record against each of
its opponents (wins over finished games with exact 95% intervals,
``tcgtui.hub``), and the stored games: the person's own, unfinished ones first
("continue"), or with ``A`` every stored game of every run, each opening in
the replay viewer.  Reading the store runs in a thread worker.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Group
from textual import events, work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from tcgtui import locales
from tcgtui.arena import game_name
from tcgtui.console_text import clean, shorten
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.llm.endpoint import BASE_URL_VARS
from tcgtui.opponents.llm.model_registry import cached, registry_path
from tcgtui.opponents.registry import builder
from tcgtui.opponents.spec import SpecError, check_supported, grammars, parse_spec
from tcgtui.store import Store
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.screens.home_params import ParamsBox, chosen
from tcgtui.tui.screens.replay import ReplayScreen, seat_name
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.title import TitleBar, game_text, titled

# mc:100 first: the default of tcgtui play; nmc:200, the strongest that never peeks (docs/ladder.md), plays
# within the budget
SEARCH = ("mc:100", "mc:1000", "mcts:1000", "nmc:200", "random")
LLM = "llm:"
ALONE = "-"           # a one-seat game (Eleusis): the person plays alone
CAMPAIGN = "campaign"     # the game's ladder, where it has one (GameInfo.campaign; tcgtui play --campaign)
SEATS = ("1", "2")
RACE = "race:"            # a one-seat game raced against a player on the same deal (tcgtui play --race)
TALL = 36                 # rows from which a first visit's home stands centred (it fits whole)


def _levels(ref: registry.Reference) -> list[str]:
    """A reference player's specs: its default level, and a deeper one where the level is a search
    depth or budget worth doubling (ab:8 and ab:16; not rollout:1 and rollout:2)."""
    if not ref.takes_arg or ref.default_arg is None:
        return [ref.name]
    if ref.default_arg < 4:
        return [f"{ref.name}:{ref.default_arg}"]
    deeper = ref.default_arg * 2 if ref.max_arg is None else min(ref.default_arg * 2, ref.max_arg)
    return [f"{ref.name}:{n}" for n in dict.fromkeys((ref.default_arg, deeper))]


def registry_models() -> list[str]:
    """The models of the user's registry (``models.toml``), as ``llm:NAME``; none when it is unreadable
    (``tcgtui models`` says why in one line)."""
    try:
        return [f"{LLM}{name}" for name in cached().entries]
    except UserError:
        return []


def opponents_for(game_id: str) -> list[str]:
    """The specs offered against ``game_id``: search levels, the game's references, llm:, a second
    person at this keyboard (``human``), the campaign."""
    spec = registry.get(game_id)
    if spec.info.seats == 1:
        rivals = [r for ref in spec.references for r in _levels(ref)] + ["random"]
        # cycle: tui.games' screens import the shared screens beside this one
        from tcgtui.tui.games import has_screen, screen_for
        races = has_screen(game_id) and screen_for(game_id).RACES
        return [ALONE] + ([RACE + r for r in rivals] if races else [])
    # home plays tcgtui's protocol: a seed protocol's own opponents (rollout:K) belong to --protocol seed
    refs = [s for r in spec.references if not r.protocol for s in _levels(r)]
    out = []
    for s in (*SEARCH, *refs):
        try:
            parsed = parse_spec(s)
            check_supported(parsed, spec)
        except SpecError:
            continue
        if builder(parsed.kind) is not None:
            out.append(s)
    models = registry_models() if "llm:MODEL" in grammars(spec) else []
    return out + models + [LLM, HUMAN] + ([CAMPAIGN] if spec.info.campaign else [])


def keep_in_view(box: Any, row: int) -> None:
    """Scroll ``box`` (a list's bordered container) so that line ``row`` of its list shows."""
    if box is None:
        return
    top, height = box.scroll_offset.y, box.scrollable_content_region.height
    if row < top:
        box.scroll_to(y=row, animate=False)
    elif row >= top + height:
        box.scroll_to(y=row - height + 1, animate=False)


class ChoiceList(Localized, Widget, can_focus=True):
    """A column of choices: arrows move, Enter or a click chooses.  Its title is on its border."""

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

    def select(self, value: str) -> None:
        if value in self.values:
            self.index = self.values.index(value)
            self.refresh(layout=True)

    def label(self, value: str) -> str:
        return self.screen.label(self.id, value)  # type: ignore[attr-defined,no-any-return]

    def render(self) -> RenderResult:
        d = self.direction
        rows: list[Any] = []
        for i, v in enumerate(self.values):
            chosen = i == self.index
            mark = ("◂ " if d.rtl else "▸ ") if chosen else "  "
            style = ("bold reverse" if self.has_focus else "bold") if chosen else ""
            rows.append(Line([Piece(mark, shrink=False), Piece(self.label(v), style)], d))
        return Group(*rows)

    def action_move(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.values)
        self.refresh(layout=True)
        keep_in_view(self.parent, self.index)
        self.post_message(self.Chosen(self))

    def on_focus(self) -> None:
        self.refresh()
        if self.parent is not None:
            self.parent.add_class("focused")

    def on_blur(self) -> None:
        self.refresh()
        if self.parent is not None:
            self.parent.remove_class("focused")

    def on_click(self, event: events.Click) -> None:
        if 0 <= event.y < len(self.values):
            self.index = event.y
            self.focus()
            self.refresh(layout=True)
            self.post_message(self.Chosen(self))


class Record(Localized, Widget):
    """The person's record in the chosen game, one line per opponent."""

    DEFAULT_CSS = "Record { height: auto; width: 1fr; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Any] = []          # tcgtui.hub.Standing of the chosen game
        self.read = False

    def render(self) -> RenderResult:
        d = self.direction
        if not self.read:
            return Para(self.tr("hub.reading"), d, "dim")
        if not self.rows:
            return Para(self.tr("hub.no_record"), d, "dim")
        lines = []
        for s in self.rows:
            who = s.opponent or self.tr("ui.home.alone")
            if s.mean_score is not None:
                text = self.tr("hub.record_score", opponent=who, n=s.finished, score=f"{s.mean_score:.1f}")
            elif s.finished:
                text = self.tr("hub.record", opponent=who, n=s.finished, wins=s.wins, draws=s.draws,
                               rate=f"{100 * s.wins / s.finished:.0f}", low=f"{100 * s.low:.0f}",
                               high=f"{100 * s.high:.0f}")
            else:
                text = self.tr("hub.record_none", opponent=who)
            if s.unfinished:
                text += " · " + self.tr("hub.unfinished", n=s.unfinished)
            lines.append(Para(text, d))
        return Group(*lines)


class GameList(Localized, Widget, can_focus=True):
    """Stored games, newest first (the person's unfinished ones before all): Enter continues or replays."""

    BINDINGS = [Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False),
                Binding("pageup", "move(-10)", show=False), Binding("pagedown", "move(10)", show=False)]
    DEFAULT_CSS = "GameList { height: auto; width: 1fr; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.games: list[Any] = []          # tcgtui.hub.Listed
        self.index = 0
        self.read = False

    @property
    def chosen(self) -> Any:
        return self.games[self.index] if self.games else None

    class Shown(Message):
        def __init__(self, games: list[Any]) -> None:
            super().__init__()
            self.games = games

    def show(self, games: list[Any]) -> None:
        self.games, self.index, self.read = games, 0, True
        self.refresh(layout=True)
        self.post_message(self.Shown(games))

    def line(self, g: Any) -> str:
        name = game_text(self.catalog, g.game, "name")
        seats = " – ".join(shorten(seat_name(s, self.tr), 24) for s in g.seats)
        if g.status == "in_progress" and g.mine:
            state = self.tr("hub.continue", moves=g.moves)
        elif g.status != "finished":
            state = self.tr(f"replay.status.{g.status}") if g.status in ("in_progress", "abandoned", "errored") \
                else g.status
        elif g.winner is not None and g.mine and HUMAN not in g.seats:     # against an opponent: the person's result
            state = self.tr("hub.you_won" if g.seats[g.winner] == g.agent else "hub.you_lost")
        elif g.winner is not None:
            state = self.tr("hub.won_by", seat=g.winner + 1, player=shorten(seat_name(g.seats[g.winner], self.tr), 24))
        elif g.score is not None and len(g.seats) == 1:
            state = self.tr("replay.score", score=f"{g.score:g}")
        else:
            state = self.tr("replay.draw")
        run = f" · {clean(shorten(g.run, 24))}" if g.run else ""
        return f"{name} · {seats} · {state}{run}"

    def render(self) -> RenderResult:
        d = self.direction
        if not self.read:
            return Para(self.tr("hub.reading"), d, "dim")
        if not self.games:
            return Group(*self.guide())
        rows = []
        for i, g in enumerate(self.games):
            chosen = i == self.index
            style = ("reverse" if self.has_focus else "bold") if chosen else ""
            if g.status == "in_progress" and g.mine:
                style += " green"
            rows.append(Line([Piece(g.started_at[:16].replace("T", " "), style, shrink=False),
                              Piece(" · ", style, shrink=False), Piece(g.id[:8], style, shrink=False),
                              Piece(" · ", style, shrink=False), Piece(self.line(g), style)], d))
        return Group(*rows)

    def guide(self) -> list[Para]:
        """No game stored yet (a first visit): how home works, then what each game is."""
        d = self.direction
        lines = [Para(self.tr("hub.no_games"), d, "italic"), Para("", d)]
        for game_id in getattr(self.screen, "games", []):
            lines.append(Para(f"{game_text(self.catalog, game_id, 'name')}: "
                              f"{game_text(self.catalog, game_id, 'description')}", d))
        return lines

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if self.read and not self.games:
            return sum(max(1, len(p.lines(width))) for p in self.guide())
        return max(1, len(self.games))

    def action_move(self, delta: int) -> None:
        if self.games:
            self.index = max(0, min(len(self.games) - 1, self.index + delta))
            self.refresh()
            self.scroll_visible_row()

    def scroll_visible_row(self) -> None:
        keep_in_view(self.parent, self.index)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        if 0 <= event.y < len(self.games):
            self.index = event.y
            self.focus()
            self.refresh()


ROW_IDS = {"home-choices", "home-middle", "home-body"}     # the rows the boxes stand in, top to bottom


class HomeScreen(LocalizedScreen[None]):
    HOME = True                 # the screen a game started here returns to (ArenaApp.back_home)
    AUTO_FOCUS = "#games"
    CSS_PATH = [Path(__file__).with_name("home.tcss")]
    BINDINGS = [
        Binding("enter", "play", show=False),
        Binding("tab", "focus_step(1)", show=False),
        Binding("shift+tab", "focus_step(-1)", show=False),
        Binding("right", "focus_toward(1)", show=False),
        Binding("left", "focus_toward(-1)", show=False),
        Binding(keys("question_mark,f1"), "noop", show=False),
        Binding(keys("a"), "everyone", show=False),
        Binding(keys("r"), "replay", show=False),
        Binding(keys("q,escape"), "leave", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        # cycle: tui.games' screens import the shared screens beside this one
        from tcgtui.tui.games import has_screen
        english = locales.load("en")          # one order in every language: the default game, then by name
        from tcgtui.config import default_game
        shown, first = [s for s in registry.games() if has_screen(s.id)], default_game()
        self.games = [s.id for s in sorted(shown, key=lambda s: (s.id != first, game_name(s, english)))]
        self.everyone = False
        self.standings: list[Any] = []

    def compose(self) -> ComposeResult:
        yield TitleBar(lambda: self.tr("ui.home.title"), id="home-title")
        with Vertical(id="home-body"):
            with Horizontal(id="home-choices"):
                for list_id, title, values in (("games", "ui.home.game", self.games),
                                               ("opponents", "ui.home.opponent", opponents_for(self.games[0])),
                                               ("seats", "hub.seat", list(SEATS)),
                                               ("languages", "ui.home.language", locales.available())):
                    with Vertical(id=f"{list_id}-box", classes="choice-box"):
                        yield ChoiceList(title, values, id=list_id)
            with Horizontal(id="home-middle"):
                with Vertical(id="about-box"):
                    yield Widget(id="about")
                    yield Input(placeholder="MODEL", id="model")
                with Vertical(id="options-box"):
                    yield ParamsBox(self.games, id="params")
                with Vertical(id="record-box"):
                    yield Record(id="record")
            with Vertical(id="stored-box"):
                yield GameList(id="stored")
        yield KeyBar([("Tab", "ui.home.keys.next", "focus_step(1)"),
                      ("⏎", "ui.home.keys.play", "play"), ("R", "hub.keys.replay", "replay"),
                      ("A", "hub.keys.everyone", "everyone"),
                      ("Q", "ui.keys.quit", "leave")], id="keys")

    # --- layout and language ------------------------------------------------------------

    def _order(self) -> None:
        """Right to left, the first list (the game) stands on the right, the record on the left."""
        for box_id, order in (("#home-choices", ["games-box", "opponents-box", "seats-box", "languages-box"]),
                              ("#home-middle", ["about-box", "options-box", "record-box"])):
            box = self.query_one(box_id)
            for name in (order if self.direction.rtl else list(reversed(order))):
                box.move_child(self.query_one(f"#{name}"), before=0)

    def title_boxes(self) -> None:
        """Each box's name on its border, shaped and ordered like every other text."""
        for list_id in ("games", "opponents", "seats", "languages"):
            choices = self.query_one(f"#{list_id}", ChoiceList)
            titled(self.query_one(f"#{list_id}-box"), self.tr(choices.title_key), self.direction)
        titled(self.query_one("#about-box"), self.tr("hub.about"), self.direction)
        titled(self.query_one("#options-box"), self.tr("hub.options"), self.direction)
        game = game_text(self.catalog, self.query_one("#games", ChoiceList).value, "name")
        titled(self.query_one("#record-box"), self.tr("hub.record_title", game=game), self.direction)
        titled(self.query_one("#stored-box"), self.tr("hub.everyone" if self.everyone else "hub.yours"),
               self.direction)
        align = "right" if self.direction.rtl else "left"
        for box in self.query(".choice-box, #about-box, #options-box, #record-box, #stored-box"):
            box.styles.border_title_align = align

    async def localize(self) -> None:
        self.query_one("#languages", ChoiceList).select(self.host.catalog.code)
        self._order()
        self.query_one("#params", ParamsBox).localize()
        self.title_boxes()
        self._show_about()
        for widget in self.query("*"):
            widget.refresh(layout=True)

    def on_resize(self) -> None:
        self.call_after_refresh(self.title_boxes)        # titles are cut to the boxes' new widths
        self._fit()

    def on_mount(self) -> None:
        super().on_mount()
        self._order()
        self.query_one("#params", ParamsBox).localize()
        self.query_one("#languages", ChoiceList).select(self.host.catalog.code)
        self.query_one("#opponents", ChoiceList).select(self.host.settings.seats[1]
                                                        if len(self.host.settings.seats) > 1 else "")
        self.title_boxes()
        self._show_model()
        self.reread()

    def label(self, list_id: str, value: str) -> str:
        if list_id == "games":
            return game_text(self.catalog, value, "name")
        if list_id == "languages":
            return locales.load(value).name
        if value == ALONE:
            return "–" if list_id == "seats" else self.tr("hub.alone")
        if list_id == "seats":
            return self.tr(f"hub.seat_{value}")
        if value == LLM:
            return "llm:MODEL"
        if value == CAMPAIGN:
            return self.tr("hub.campaign")
        if value == HUMAN:
            return self.tr("hub.people")
        if value.startswith(RACE):
            return self.tr("hub.race", player=value[len(RACE):])
        return value

    def _show_about(self) -> None:
        games, opponents = self.query_one("#games", ChoiceList), self.query_one("#opponents", ChoiceList)
        about = self.query_one("#about")
        d = self.direction
        param = self.query_one("#params", ParamsBox).focused_param()
        if param is not None:              # an option in focus: what it sets
            text = self.tr(param.help_key)
        elif opponents.value == LLM:
            text = self.tr("ui.home.llm_about")
        elif opponents.value == CAMPAIGN:
            text = self.tr("hub.campaign_about")
        elif opponents.value == HUMAN:
            text = self.tr("hub.people_about")
        elif self.catalog.has(key := f"hub.about_{opponents.value.partition(':')[0]}"):
            text = self.tr(key)       # a player worth a word (nmc)
        else:
            text = game_text(self.catalog, games.value, "description")
        about.render = lambda: Para(text, d, "italic")  # type: ignore[method-assign]
        about.refresh(layout=True)
        game = games.value
        self.query_one("#record", Record).rows = [s for s in self.standings if s.game == game]
        self.query_one("#record").refresh(layout=True)
        self.title_boxes()

    def _show_model(self) -> None:
        self._show_about()
        self.query_one("#model").display = self.query_one("#opponents", ChoiceList).value == LLM

    async def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        list_id = message.choices.id
        if list_id == "games":
            self.query_one("#opponents", ChoiceList).set_values(opponents_for(message.choices.value))
            alone = registry.get(message.choices.value).info.seats == 1
            self.query_one("#seats", ChoiceList).set_values([ALONE] if alone else list(SEATS))
            self.query_one("#params", ParamsBox).show(message.choices.value)
        elif list_id == "languages" and message.choices.value != self.host.catalog.code:
            self.host.set_language(message.choices.value, keep=True)  # type: ignore[attr-defined]
            for screen in self.app.screen_stack:
                relocalize = getattr(screen, "relocalize", None)
                if relocalize is not None:
                    await relocalize()
        self._show_model()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._show_about()          # an option in focus is explained there

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._show_about()

    # --- the store (read in a thread) -----------------------------------------------------

    def reread(self) -> None:
        hub = self.host.settings.hub  # type: ignore[attr-defined]
        if hub is None:
            self.query_one("#record", Record).read = True
            self.query_one("#stored", GameList).show([])
            return
        self._read(hub.path, self.host.settings.handle, self.everyone)

    @work(thread=True, exclusive=True, group="home-store", exit_on_error=False)
    def _read(self, path: Path, handle: str, everyone: bool) -> None:
        # start-up time: the hub (numpy) only when standings are read
        from tcgtui.hub import read
        standings, games = read(path, handle, everyone)
        self.app.call_from_thread(self._show_store, standings, games)

    def _show_store(self, standings: list[Any], games: list[Any]) -> None:
        self.standings = standings
        self.query_one("#record", Record).read = True
        self.query_one("#stored", GameList).show(games)
        self._show_about()

    def on_game_list_shown(self, message: GameList.Shown) -> None:
        self._fit()

    def _fit(self) -> None:
        """No game to list (a first visit) on a tall terminal: the lists and the guide stand together,
        centred, instead of above an empty half-screen; a short one gives the guide the rest (it scrolls)."""
        stored = self.query_one("#stored", GameList)
        self.set_class(stored.read and not stored.games and self.size.height >= TALL, "no-games")

    def action_everyone(self) -> None:
        self.everyone = not self.everyone
        self.title_boxes()
        self.reread()

    # --- starting ------------------------------------------------------------------------

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
        if LLM + model not in registry_models() and not any(os.environ.get(v) for v in BASE_URL_VARS):
            # nowhere to ask it: said as a person at home can act on it, not as the command line's flags
            self.notify(self.tr("ui.home.llm_unknown", model=clean(model), path=str(registry_path()[0])),
                        severity="error", timeout=12)
            return None
        return LLM + model

    def action_play(self) -> None:
        stored = self.query_one("#stored", GameList)
        if stored.has_focus:
            self.open_stored()
            return
        opponent = self.opponent()
        if opponent is None:
            return
        game_id = self.query_one("#games", ChoiceList).value
        try:                        # the options as tcgtui play --param reads them: a bad one is one line
            given, params, game = chosen(game_id, self.query_one("#params", ParamsBox).given(), self.catalog)
        except UserError as exc:
            self.notify(clean(exc), severity="error", timeout=8)
            return
        settings = replace(self.host.settings, game_id=game_id, params=params, game=game, given=given,
                           rival="", keep_rival=None)
        seat = self.query_one("#seats", ChoiceList).value      # ALONE in one-seat games
        hub = settings.hub
        if opponent.startswith(RACE):
            settings, opponent = replace(settings, rival=opponent[len(RACE):]), ALONE
            if hub is not None:
                settings = replace(settings, keep_rival=hub.rival_keeper(settings))
        if opponent == CAMPAIGN:
            settings = replace(settings, seats=(HUMAN, "mc:100"))
            if hub is not None:
                settings = hub.campaign(settings)
        else:
            seats = (HUMAN,) if opponent == ALONE else (HUMAN, opponent) if seat == "1" else (opponent, HUMAN)
            # with a second person: the handle's seat
            settings = replace(settings, seats=seats, person=1 if seat == "2" else 0)
            if hub is not None:
                settings = replace(settings, dealer_for=hub.free())
        self.host.settings = settings
        self.host.start()  # type: ignore[attr-defined]

    def open_stored(self) -> None:
        game = self.query_one("#stored", GameList).chosen
        if game is None:
            return
        if game.status == "in_progress" and game.mine and self.host.settings.hub is not None:
            try:
                self.host.settings = self.host.settings.hub.resume(self.host.settings, game.id)
            except Exception as exc:        # UserError (a pack changed...): one line, stay home
                if not isinstance(exc, UserError):
                    raise
                self.notify(str(exc), severity="error", timeout=8)
                return
            self.host.start()  # type: ignore[attr-defined]
            return
        self.action_replay()

    def action_replay(self) -> None:
        game = self.query_one("#stored", GameList).chosen
        hub = self.host.settings.hub  # type: ignore[attr-defined]
        if game is None or hub is None:
            return
        self.notify(self.tr("replay.loading"), timeout=2)
        self._load_replay(hub.path, game.id, self.catalog.code)

    @work(thread=True, exclusive=True, group="home-replay", exit_on_error=False)
    def _load_replay(self, path: Path, game_id: str, lang: str) -> None:
        # start-up time: a stored game is rebuilt only when its replay is asked for
        from tcgtui.quality import worst
        from tcgtui.replay.load import load
        try:
            with Store(path, create=False, read_only=True) as store:
                replay = load(store, game_id, lang)
                worst.mark(store, replay)        # its blunders, where tcgtui analyze stored values
        except UserError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error", timeout=8)
            return
        self.app.call_from_thread(self._show_replay, replay)

    def _show_replay(self, replay: Any) -> None:
        from tcgtui.tui.games import replay_board_for     # start-up time: as the games' screens above
        self.app.push_screen(ReplayScreen(replay, replay_board_for(replay.row.game)))

    def action_leave(self) -> None:
        self.app.exit()

    def reading_order(self) -> list[Widget]:
        """The focusable widgets as a person reads the screen: row by row, and in a row box by box
        from the right in a right-to-left language (the boxes stand mirrored there, so the DOM's
        order, which Textual's Tab follows, went left to right)."""
        sign = -1 if self.direction.rtl else 1

        def place(widget: Widget) -> tuple[int, int, int, int]:
            box = widget
            while box.parent is not None and getattr(box.parent, "id", None) not in ROW_IDS:
                box = box.parent         # type: ignore[assignment]
            return box.region.y, sign * box.region.x, widget.region.y, sign * widget.region.x
        return sorted(self.focus_chain, key=place)

    def action_focus_step(self, by: int) -> None:
        """Tab (Shift+Tab): the next (previous) box in reading order."""
        order = self.reading_order()
        if order:
            at = order.index(self.focused) if self.focused in order else -by
            order[(at + by) % len(order)].focus()

    def action_focus_toward(self, side: int) -> None:
        """→ (←): the box on that side, which comes next in reading order left to right, before it right to left."""
        self.action_focus_step(-side if self.direction.rtl else side)

    def action_noop(self) -> None:
        """A key hint only."""
