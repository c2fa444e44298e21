"""Each game's screen, one module or package per game (or family of games), found by walking this package.

A module here (or a package whose ``__init__`` imports its screen, as ``tcg/``
does) defines a ``GameScreen`` subclass and registers it under the ids of the
games it shows::

    @register("tictactoe", "connect4", "gomoku")
    class GridScreen(GameScreen): ...

Nothing else names the modules: ``screen_for(game_id)`` imports the module of
that name, then the one of the game's family (``GameInfo.family``), then a
plug-in game's ``<package>.screen`` (``registry.origin``), then, if none
registered the id, every module of the package, and only when asked.
A module brings its own ``.tcss`` (``CSS_PATH`` on its screen class); a package keeps its
``.tcss`` and the widgets only its game draws inside it.

A module may also register the widget the replay viewer draws a position with
(``@replay_board(...)``, a ``ReplayBoard``), built from the widgets its screen
plays on, so a replay looks like the game; a game without one is replayed as text.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.widget import Widget

    from tcgtui.tui.games.base import GameScreen

S = TypeVar("S", bound="type[GameScreen]")
B = TypeVar("B", bound="type[Widget]")

_SCREENS: dict[str, type[GameScreen]] = {}
_REPLAY_BOARDS: dict[str, type[Widget]] = {}


class ReplayBoard(Protocol):
    """A widget that draws a stored game's position after ``index`` moves of ``replay``
    (a ``tcgtui.replay.steps.Replay``; the game is over, so nothing is hidden)."""

    async def show_position(self, replay: Any, index: int) -> None: ...


class NoScreen(LookupError):
    """No module under ``tcgtui.tui.games`` shows this game."""


def register(*game_ids: str) -> Callable[[S], S]:
    """Class decorator: this screen shows the games ``game_ids``."""
    def wrap(cls: S) -> S:
        for gid in game_ids:
            _SCREENS[gid] = cls
        cls.GAME_IDS = tuple(game_ids)
        return cls
    return wrap


def replay_board(*game_ids: str) -> Callable[[B], B]:
    """Class decorator: this widget draws the replay's positions of the games ``game_ids``."""
    def wrap(cls: B) -> B:
        for gid in game_ids:
            _REPLAY_BOARDS[gid] = cls
        return cls
    return wrap


def _modules() -> list[str]:
    return [m.name for m in pkgutil.iter_modules(__path__) if m.name != "base"]


def _try(name: str) -> None:
    if name in _modules():
        importlib.import_module(f"{__name__}.{name}")


def screen_for(game_id: str) -> type[GameScreen]:
    """The screen class registered under ``game_id``, loading its module on first use."""
    if game_id in _SCREENS:
        return _SCREENS[game_id]
    _try(game_id)
    if game_id not in _SCREENS:
        # start-up time: the registry only when a screen is not found by name
        from tcgtui.engine import registry
        try:
            family = registry.get(game_id).info.family
        except LookupError:
            family = ""
        if family:
            _try(family)
        package = registry.origin(game_id)
        if package is not None and game_id not in _SCREENS:     # a plug-in's screen: its module ``screen``
            importlib.import_module(f"{package}.screen")
    if game_id not in _SCREENS:
        for name in _modules():
            importlib.import_module(f"{__name__}.{name}")
    try:
        return _SCREENS[game_id]
    except KeyError:
        raise NoScreen(f"no screen shows the game {game_id!r}") from None


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
