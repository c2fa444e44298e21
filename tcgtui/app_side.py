"""A game's app side, declared once: what the layers above the rules find of a game (its files, its
ladder, its replay marks, its figures, its export, its referee, its screen), typed and registered
as the engine's ``GameSpec`` is.

Each app-side package ``tcgtui.games.<game or family>`` (a plug-in: its own package) calls
``register_app(game_id, AppSide(...))`` for each game it serves.  A role is the module that plays
it, named and imported only when first asked for (``Role.load``), so declaring stays cheap; the
screen is a lazy ``"module:Class"``.  ``tests/test_app_side.py`` checks that every game declares
what its flags promise and that each role's module has the shape of its Protocol.  Apart from
``tcgtui.games`` so that generic modules reach a game's part without importing the games'
packages (which build on those generic modules).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast, runtime_checkable

from tcgtui.engine import registry

if TYPE_CHECKING:
    from tcgtui.engine.core import Game
    from tcgtui.live import LiveGame
    from tcgtui.locales import Catalog
    from tcgtui.referee import Referee
    from tcgtui.replay.boards import Board
    from tcgtui.replay.steps import Replay
    from tcgtui.report.analyses import Report
    from tcgtui.store import GameRow, Store

T = TypeVar("T")


@runtime_checkable
class Resources(Protocol):
    """The files a game's parameters name, read from disk (``arena.load_resources``)."""

    # parameter kind -> loader(flag, value) -> what the game is built with
    LOADERS: Mapping[str, Callable[[str, str], Any]]
    BY_PATH: tuple[str, ...]  # kinds stored by absolute path, for --resume to load again


@runtime_checkable
class Ladder(Protocol):
    """A campaign a person climbs (``play --campaign``, home's "campaign"; ``GameInfo.campaign``)."""

    DEFAULT_GAMES: int  # games per level unless --campaign-games says
    KIND: str  # the kind of the store's runs that hold its levels

    def open_dealer(
        self, store: Store, params: dict[str, Any], given: dict[str, Any], person: str, lang: str, games: int, seed: int
    ) -> Any: ...
    def resume_dealer(
        self, store: Store, live: LiveGame, stored: dict[str, Any], handle: str, lang: str, config: dict[str, Any]
    ) -> Any: ...
    def home_dealer(self, store: Store, settings: Any) -> Callable[[str], Any]: ...


@runtime_checkable
class ReplayView(Protocol):
    """How the replay viewer shows a stored game beyond its steps (``tcgtui.replay``)."""

    def mark(self, replay: Replay) -> None:
        """Set ``moment`` on the steps that decided the game (``tcgtui.replay.moments``)."""

    # (state, game, catalog, last move, lang) -> the position as text; None where the game's screen
    # registers a widget for replays (``tcgtui.tui.games.replay_board``)
    board: Callable[[Any, Game, Catalog, Any, str], Board] | None


@runtime_checkable
class Figures(Protocol):
    """The report figures a game draws itself (``report --plot``), by the section each draws."""

    FIGURES: Mapping[str, Callable[[Report, Path], int]]


@runtime_checkable
class Baseline(Protocol):
    """What ``baseline export`` may write of a game's records (the card game hides a private pack)."""

    def exporter(self, include_text: bool) -> Callable[[dict[str, Any], GameRow], dict[str, Any]]: ...


@runtime_checkable
class Services(Protocol):
    """Referee services a game brings (``RefereeHooks.service`` names one), with their readiness checks."""

    SERVICES: Mapping[str, Callable[[dict[str, Any]], Referee]]
    READY: Mapping[str, Callable[[Any], None]]


@dataclass(frozen=True)
class Role(Generic[T]):
    """The module playing a role, imported when first asked for."""

    module: str

    def load(self) -> T:
        return cast(T, importlib.import_module(self.module))


@dataclass(frozen=True)
class AppSide:
    """One game's app side.  Every field is optional: a game has only the roles it needs."""

    resources: Role[Resources] | None = None
    campaign: Role[Ladder] | None = None  # required where GameInfo.campaign is set
    replay: Role[ReplayView] | None = None
    figures: Role[Figures] | None = None
    baseline: Role[Baseline] | None = None
    referee: Role[Services] | None = None  # required where RefereeHooks.service is not generic
    screen: str = ""  # "module:Class" of its GameScreen; "": none (not offered to play)

    def roles(self) -> dict[str, Role[Any]]:
        """The roles it declares, by field name."""
        return {name: role for name in ROLES if (role := getattr(self, name)) is not None}


ROLES = ("resources", "campaign", "replay", "figures", "baseline", "referee")
NONE = AppSide()  # a game without an app side
_APPS: dict[str, AppSide] = {}


def register_app(game_id: str, side: AppSide) -> AppSide:
    """Called by a game's app-side package when it is imported, once per game it serves."""
    if _APPS.get(game_id, side) != side:
        raise ValueError(f"two app sides registered for the game {game_id!r}")
    _APPS[game_id] = side
    return side


def app_for(game_id: str) -> AppSide:
    """The app side ``game_id`` declares, importing its package on first use (``tcgtui.games.<id>``,
    else its family's; a plug-in's own package registered it on import); NONE for an unknown game."""
    if game_id not in _APPS:
        try:
            info = registry.get(game_id).info
        except registry.UnknownGame:
            return NONE
        if registry.origin(game_id) is None:
            for name in dict.fromkeys((info.id, info.locale_folder)):
                try:
                    importlib.import_module(f"tcgtui.games.{name}")
                except ModuleNotFoundError as exc:  # the game has no package here
                    if exc.name != f"tcgtui.games.{name}":
                        raise
                if game_id in _APPS:
                    break
    return _APPS.get(game_id, NONE)


def load_screen(path: str) -> Any:
    """The class a ``"module:Class"`` names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)
