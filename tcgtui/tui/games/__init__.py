"""Each game's screen, one module or package per game (or family of games).

A module here (or a package whose ``__init__`` imports its screen, as ``tcg/`` does) defines a
``GameScreen`` subclass; the game's app side names it (``AppSide.screen``, ``"module:Class"``,
declared in ``tcgtui/games/<game>/__init__.py``), and ``screen_for(game_id)`` imports it on first use.
A module brings its own ``.tcss`` (``CSS_PATH`` on its screen class); a package keeps its
``.tcss`` and the widgets only its game draws inside it.

A module may also register the widget the replay viewer draws a position with
(``@replay_board(...)``, a ``ReplayBoard``), built from the widgets its screen
plays on, so a replay looks like the game; a game without one is replayed as text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.widget import Widget

    from tcgtui.tui.games.base import GameScreen

B = TypeVar("B", bound="type[Widget]")

_REPLAY_BOARDS: dict[str, type[Widget]] = {}


class ReplayBoard(Protocol):
    """A widget that draws a stored game's position after ``index`` moves of ``replay``
    (a ``tcgtui.replay.steps.Replay``; the game is over, so nothing is hidden)."""

    async def show_position(self, replay: Any, index: int) -> None: ...


class NoScreen(LookupError):
    """No module under ``tcgtui.tui.games`` shows this game."""


def replay_board(*game_ids: str) -> Callable[[B], B]:
    """Class decorator: this widget draws the replay's positions of the games ``game_ids``."""

    def wrap(cls: B) -> B:
        for gid in game_ids:
            _REPLAY_BOARDS[gid] = cls
        return cls

    return wrap


def screen_for(game_id: str) -> type[GameScreen]:
    """The screen class the game's app side names, loading its module on first use."""
    # start-up time: a game's app side only when its screen is asked for
    from tcgtui.app_side import app_for, load_screen

    path = app_for(game_id).screen
    if not path:
        raise NoScreen(f"no screen shows the game {game_id!r}")
    return load_screen(path)


def has_screen(game_id: str) -> bool:
    try:
        screen_for(game_id)
    except NoScreen:
        return False
    return True


def replay_board_for(game_id: str) -> type[Widget] | None:
    """The widget registered to draw ``game_id``'s positions in a replay (beside its screen), if any."""
    try:
        screen_for(game_id)
    except NoScreen:
        return None
    return _REPLAY_BOARDS.get(game_id)
