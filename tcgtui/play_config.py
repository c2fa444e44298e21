"""The play configuration: what the app is asked to play (the game and its parameters, the seats,
the language, where games come from and go), frozen and typed.

The command line builds it (``tcgtui.commands``: ``options.settings_from`` for play and watch; home,
replay and study theirs); a later choice (home's, a language switched, a handle given, a setup
dialog answered) is a new one made with ``dataclasses.replace``, never a change to this one.  Below
the TUI, so that the app layer (a campaign, a study) may make one for it without importing Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tcgtui.config import default_game
from tcgtui.opponents.human import HUMAN

if TYPE_CHECKING:
    from tcgtui.deals import Dealer
    from tcgtui.engine.core import Game
    from tcgtui.match import MatchResult
    from tcgtui.replay.load import Replay
    from tcgtui.study.joining import Joining

DealerFor = Callable[["Settings"], "Dealer"]  # the games' source, given the settings as play starts
KeepRival = Callable[["MatchResult", str, str], None]


class Hub(Protocol):
    """Home's way into the store (``tcgtui.commands.home.Hub``): what the home screen asks of it."""

    @property
    def path(self) -> Path: ...

    def free(self) -> DealerFor:
        """A new game of the settings' game against their opponent, rematches after it."""
        ...

    def rival_keeper(self, settings: Settings) -> KeepRival:
        """Where a race's rival round is kept."""
        ...

    def campaign(self, settings: Settings) -> Settings:
        """``settings`` for the game's ladder, where the person left it."""
        ...

    def resume(self, settings: Settings, game_id: str) -> Settings:
        """``settings`` that carry on the person's unfinished game ``game_id`` where it stopped."""
        ...


@dataclass(frozen=True)
class Settings:
    """One play configuration; ``replace`` makes the next."""

    seats: tuple[str, ...] = ()  # agent specs; "human" is the person at the keyboard
    person: int = 0  # two "human" seats (hot-seat): the seat of the handle's person
    game_id: str = field(default_factory=default_game)
    params: Mapping[str, Any] = field(default_factory=dict)  # the game's parameters, files and packs loaded
    game: Game | None = None  # the game built from ``params`` by the command; None: the app builds it
    given: Mapping[str, Any] = field(default_factory=dict)  # the parameters as the command line gave them
    lang: str = "en"
    rtl_mode: str = "app"
    seed: int = 0
    handle: str = ""
    pause: float = 1.0  # seconds each opponent move stays on screen
    agent_options: Mapping[str, Any] = field(default_factory=dict)  # endpoint settings for llm:
    # Where the games come from and go, made from the settings once the handle is known (and a setup
    # dialog answered); None: PlainDealer(seed, seats).
    dealer_for: DealerFor | None = None
    ask_handle: bool = False  # no handle yet: ask for one (and keep it) before the first game
    home: bool = False  # open on the home screen (choose a game, an opponent, a language)
    setup: bool = False  # ask the game's setup dialog first (Eleusis's dealer: the secret rule)
    # A race (one-seat games): this player plays the person's deal at the same time, out of sight
    # until both rounds end; ``keep_rival`` stores its round (result, lang, start time).
    rival: str = ""
    keep_rival: KeepRival | None = None
    replay: Replay | None = None  # a stored game to step through, alone
    hub: Hub | None = None  # home's way into the store; None: no store
    study: Joining | None = None  # a study being joined: its screen is home
    move_seconds: float = 0.0  # a study's per-move limit for the person (0: none)

    @property
    def person_seat(self) -> int:
        """The seat of the person whose handle keeps the games: the one "human" seat, or, with two
        people at one keyboard, ``person`` (the other is a guest without a handle)."""
        humans = [i for i, s in enumerate(self.seats) if s == HUMAN]
        return self.person if len(humans) > 1 else humans[0] if humans else 0

    @property
    def opponent(self) -> str:
        """Who sits opposite that person: a spec, "human" (a second person), or "" (a one-seat game)."""
        return next((s for i, s in enumerate(self.seats) if i != self.person_seat), "")
