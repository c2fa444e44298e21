"""What every game's screen shares: the game worker, the session's view calls that
are the same for every game, names of seats, and the hooks the shared screens
(rules, game over) and the app call.

A game's screen subclasses ``GameScreen``, composes its own board and registers
itself with ``tcgtui.tui.games.register``.  The shared screens never look
inside a game: they ask its screen.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from rich.console import RenderableType
from textual import work
from textual.binding import Binding

from tcgtui.engine.core import Event
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Direction
from tcgtui.tui.narration import SPECTATOR
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.session import GameSession

Column = tuple[str, int, list[str]]     # a game-over table column: title key, minimum width, a value per seat


class GameScreen(LocalizedScreen[None]):
    """The board of one game; the session's view while the game runs."""

    # Keys every game's screen has (its own moves are bound by the game's screen).
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("question_mark,f1", "rules", show=False),
        Binding("q,Q", "quit_game", show=False),
        Binding("space", "pause", show=False),
        Binding("n,N,full_stop", "step", show=False),
        Binding("plus,equals_sign", "speed(1)", show=False),
        Binding("minus", "speed(-1)", show=False),
    ]

    GAME_IDS: ClassVar[tuple[str, ...]] = ()
    AUTO_FOCUS = None

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None, classes: str | None = None) -> None:
        super().__init__(classes=classes if classes is not None else
                         ("watch" if session.spectating else "play"))
        self.session = session
        self.streams = streams
        self.note = note
        self.failure: BaseException | None = None
        session.view = self

    # --- hooks for the app (class level: called before a screen exists) -----------

    @classmethod
    def prepare_params(cls, game_id: str, params: dict[str, Any]) -> dict[str, Any]:
        """The game's parameters as its builder takes them (a pack name loaded, say)."""
        return dict(params)

    @classmethod
    def setup_dialog(cls, settings: Any) -> Any:
        """A dialog that completes the game's parameters before it is built (``Settings.setup``):
        a modal screen that dismisses with a dict of parameters, or None to leave.  Default: none."""
        return None

    @classmethod
    def warm_up(cls, host: Any, game: Any, seats: Sequence[str]) -> None:
        """Compile the game's search path in a worker thread while the person reads the board
        (numba compiles once per install: seconds the opponent's first move need not wait)."""
        from functools import partial

        from tcgtui.engine import registry
        from tcgtui.opponents.human import HUMAN
        from tcgtui.opponents.spec import parse_spec
        spec = registry.get(game.name)
        if spec.fast is None or not any(s != HUMAN and parse_spec(s).kind in ("mc", "mcts") for s in seats):
            return
        host.run_worker(partial(spec.fast().warm_up, game), thread=True, group="warm-up", exit_on_error=False)

    # --- names -----------------------------------------------------------------------

    def label_for(self, seat: int) -> str:
        info = self.session.seats[seat]
        if info.human:
            return info.label or self.tr("ui.player.you")
        if self.session.spectating:
            return self.tr("ui.player.numbered", n=seat + 1, label=info.label)
        return info.label

    @property
    def log_seat(self) -> int:
        return SPECTATOR if self.session.spectating else self.session.viewer

    def _watch_state(self) -> tuple[bool, float] | None:
        return (self.session.paused, self.session.pause) if self.session.spectating else None

    # --- watching: the same keys on every game's screen ------------------------------

    def action_pause(self) -> None:
        self.session.set_paused(not self.session.paused)
        self._top_bar().show(watch=self._watch_state())

    def action_step(self) -> None:
        if not self.session.paused:
            self.session.set_paused(True)
        else:
            self.session.step()
        self._top_bar().show(watch=self._watch_state())

    def action_speed(self, by: int) -> None:
        self.session.faster(by)
        self._top_bar().show(watch=self._watch_state())

    def _top_bar(self) -> Any:
        from tcgtui.tui.widgets.bars import TopBar
        return self.query_one(TopBar)

    # --- hooks for the shared screens ------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        """The log's sentence for ``event`` seen from ``seat`` (``SPECTATOR``: everything)."""
        return None

    def rules(self, catalog: Catalog, direction: Direction) -> list[RenderableType]:
        """What the rules screen shows (default: the registry's rules text)."""
        from tcgtui.engine import registry
        from tcgtui.tui.screens.rules import rules_lines
        spec = registry.get(self.session.game.name)
        sentences = spec.rules_text(self.session.game, catalog) if spec.rules_text is not None else []
        return rules_lines(list(sentences), catalog, direction, spec.info.locale_folder)

    def summary_columns(self) -> list[Column]:
        """Columns the game adds to the game-over table, after the players' names."""
        return []

    def summary_lines(self) -> list[tuple[str, dict[str, Any]]]:
        """Lines (locale key, parameters) the game adds under the game-over headline."""
        return []

    def summary_block(self) -> list[RenderableType]:
        """Renderables the game adds at the end of the game-over summary, drawn as given
        (Eleusis: the true rule's code, left to right in every language)."""
        return []

    # --- the game worker -------------------------------------------------------------

    @work(exclusive=True, group="game")
    async def run_game(self) -> None:
        try:
            result = await self.session.run()
        except Exception as exc:   # a bug must not become a traceback over the board
            self.failure = exc
            self.host.failure = exc  # type: ignore[attr-defined]
            result = None
        await self.game_ended(result)
        self.host.game_finished(self, result)  # type: ignore[attr-defined]

    async def game_ended(self, result: MatchResult | None) -> None:
        """Draw the final position before the game-over dialog opens."""

    # --- SessionView parts every game shares -----------------------------------------

    def feed_stream(self, kind: str, text: str) -> None:
        """A language model's output as it arrives (screens with a stream panel show it)."""

    # --- actions ---------------------------------------------------------------------

    def action_rules(self) -> None:
        self.host.show_rules()

    def action_quit_game(self) -> None:
        self.host.confirm_quit()
