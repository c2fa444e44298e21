"""The home screen's options: a field for each parameter a game lets a person set (``Param.label_key``),
made from the declaration alone, and read back the way ``tcgtui play --param NAME=VALUE`` reads it.

A parameter with choices is a one-line list (up and down change it, like home's other lists); any other
is a small text input holding its default, typed as the command line would be (a number, ``drawn``,
a file).  ``chosen`` turns the fields into the game's parameters, loaded and the game built, through
the same checks as the command line (``Param.parse``, ``GameInfo.resolve``, ``arena.load_resources``,
``arena.build_game``): bad input is one line, never a traceback.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input

from tcgtui.arena import build_game, load_resources, param_error_text
from tcgtui.console_text import clean
from tcgtui.engine import registry
from tcgtui.engine.core import Game, SetupError
from tcgtui.engine.registry import Param, ParamError
from tcgtui.errors import UserError
from tcgtui.locales import Catalog
from tcgtui.tui.bidi_text import Line, Piece
from tcgtui.tui.widgets import Localized

NONE = "–"            # how a choice of "" (not given: the game decides) is shown


def offered(game_id: str) -> list[Param]:
    """The parameters of ``game_id`` a person may set before a game (those with a ``label_key``)."""
    return [p for p in registry.get(game_id).info.params if p.label_key]


class ParamLabel(Localized, Widget):
    """A parameter's short name, in the language's direction."""

    def __init__(self, param: Param) -> None:
        super().__init__(classes="param-label")
        self.param = param

    def render(self) -> RenderResult:
        return Line([Piece(self.tr(self.param.label_key), "bold")], self.direction)


class ParamChoice(Localized, Widget, can_focus=True):
    """A parameter with choices: the chosen one shown, up and down change it, a click moves to the next."""

    BINDINGS = [Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False)]

    def __init__(self, param: Param, id: str) -> None:
        super().__init__(id=id, classes="param-field")
        self.param = param
        self.index = param.choices.index(param.default) if param.default in param.choices else 0

    @property
    def text(self) -> str:
        return self.param.shown(self.param.choices[self.index])

    def render(self) -> RenderResult:
        style = "bold reverse" if self.has_focus else "bold"
        arrows = Piece(" ↕", "dim", shrink=False) if self.has_focus else Piece("")
        return Line([Piece(f" {self.text or NONE} ", style), arrows], self.direction)

    def action_move(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.param.choices)
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        if self.has_focus:
            self.action_move(1)
        self.focus()


class ParamInput(Input):
    """Any other parameter: its value as text, the default written in (``Param.shown``), its metavar
    as the placeholder when it has none.  Numbers without words take digits only."""

    def __init__(self, param: Param, id: str) -> None:
        kind = "text" if param.words or param.kind else \
            {int: "integer", float: "number"}.get(param.type, "text")
        super().__init__(value=param.shown(param.default), placeholder=param.metavar, type=kind,  # type: ignore[arg-type]
                         id=id, classes="param-field")
        self.param = param

    @property
    def text(self) -> str:
        return self.value


class ParamsBox(Localized, Vertical):
    """The options of every game home lists, one group per game; only the chosen game's shows, so a
    value typed for a game stays while the person looks at another."""

    DEFAULT_CSS = """
    ParamsBox { height: auto; width: 1fr; }
    ParamsBox .game-params { height: auto; }
    ParamsBox .param-row { height: 1; }
    ParamsBox .param-label { height: 1; margin: 0 1 0 0; }
    ParamsBox.rtl .param-label { margin: 0 0 0 1; }
    ParamsBox .param-field { width: 1fr; height: 1; }
    ParamsBox Input { border: none; padding: 0 1; height: 1; background: $boost; }
    ParamsBox Input:focus { border: none; background: $accent 25%; }
    """

    def __init__(self, games: list[str], id: str) -> None:
        super().__init__(id=id)
        self.games = games
        self.game_id = games[0]

    def compose(self) -> ComposeResult:
        for game_id in self.games:
            params = offered(game_id)
            width = max((cell_len(self.tr(p.label_key)) for p in params), default=0)
            with Vertical(id=f"params-{game_id}", classes="game-params"):
                for p in params:
                    with Horizontal(classes="param-row"):
                        label = ParamLabel(p)
                        label.styles.width = width
                        yield label
                        field_id = f"param-{game_id}-{p.name}"
                        yield ParamChoice(p, id=field_id) if p.choices else ParamInput(p, id=field_id)

    def on_mount(self) -> None:
        self.show(self.game_id)

    def show(self, game_id: str) -> None:
        """Show ``game_id``'s options (none: the box hides)."""
        self.game_id = game_id
        for group in self.query(".game-params"):
            group.display = group.id == f"params-{game_id}"
        if self.parent is not None:
            self.parent.display = bool(offered(game_id))

    def localize(self) -> None:
        """The language switched: each label as wide as its group's longest, on the reading side."""
        self.set_class(self.direction.rtl, "rtl")
        for group in self.query(".game-params"):
            labels = list(group.query(ParamLabel))
            width = max((cell_len(self.tr(label.param.label_key)) for label in labels), default=0)
            for label in labels:
                label.styles.width = width
        for row in self.query(".param-row"):
            label, field = row.query_one(ParamLabel), row.query_one(".param-field")
            if self.direction.rtl:
                row.move_child(label, after=field)
            else:
                row.move_child(label, before=field)
            label.refresh()
            field.refresh()

    def fields(self, game_id: str | None = None) -> list[ParamChoice | ParamInput]:
        group = self.query_one(f"#params-{game_id or self.game_id}")
        return [w for w in group.query(".param-field") if isinstance(w, (ParamChoice, ParamInput))]

    def focused_param(self) -> Param | None:
        focused = self.screen.focused
        return focused.param if isinstance(focused, (ParamChoice, ParamInput)) and focused in self.fields() else None

    def given(self) -> dict[str, Any]:
        """The chosen game's options, parsed and checked as ``--param NAME=VALUE`` is; a bad one is one
        line naming it (by its label and name), and its field takes the focus."""
        out = {}
        for field in self.fields():
            try:
                out[field.param.name] = field.param.parse(field.text)
            except ParamError as exc:
                field.focus()
                raise UserError(f"{self.tr(field.param.label_key)}: {param_error_text(exc, self.catalog)}") from None
        return out


def chosen(game_id: str, given: dict[str, Any], text: Catalog) -> tuple[dict[str, Any], dict[str, Any], Game]:
    """The parameters as given (every one, at its default where untouched), loaded, and the game built:
    what ``tcgtui play --game ID --param ...`` puts in its settings (``settings_from``)."""
    spec = registry.get(game_id)
    try:
        resolved = spec.info.resolve(given)
    except ParamError as exc:
        raise UserError(param_error_text(exc, text)) from None
    try:
        params = load_resources(spec, resolved)
    except (SetupError, OSError) as exc:      # a pack the rules refuse, a file the system refuses: as the CLI says it
        where = f"{exc.filename}: " if isinstance(exc, OSError) and exc.filename else ""
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UserError(clean(where + why)) from None
    return resolved, params, build_game(spec, params)
