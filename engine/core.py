"""The shape every game takes: states, events, outcomes, records and replay.

Nothing here knows about cards.  A game supplies a ``Game`` (a factory that
turns a seed into an initial state and converts moves to and from text) and a
``GameState`` in the spirit of OpenSpiel: ``legal_moves()``, ``apply()``,
``clone()``, ``is_terminal()``, ``winner`` and a per-player ``observation()``
that hides what that player may not see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, Hashable, TypeVar

Move = TypeVar("Move", bound=Hashable)


class IllegalMove(ValueError):
    """A move that is not among the state's legal moves."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, in order; the TUI narrates it, prompts summarise it.

    ``hidden`` names the keys of ``data`` that only ``player`` may see (a card
    drawn, a trick set face down); ``for_seat`` removes them for the other seat.
    """

    kind: str
    player: int = -1
    data: dict[str, Any] = field(default_factory=dict)
    hidden: tuple[str, ...] = ()

    def for_seat(self, seat: int) -> Event:
        if not self.hidden or seat == self.player:
            return self
        return Event(self.kind, self.player,
                     {k: v for k, v in self.data.items() if k not in self.hidden})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player, **self.data}
        if self.hidden:
            out["hidden"] = list(self.hidden)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        data = {k: v for k, v in obj.items() if k not in ("kind", "player", "hidden")}
        return cls(obj["kind"], obj.get("player", -1), data, tuple(obj.get("hidden", ())))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``winner`` is a seat, or None for a draw."""

    winner: int | None
    reason: str

    def returns(self, seat: int) -> float:
        if self.winner is None:
            return 0.0
        return 1.0 if self.winner == seat else -1.0

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


class GameState(ABC, Generic[Move]):
    """A position: whose turn, what may be played, and what each seat sees."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, or -1 once the game is over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Moves the current player may make; empty only when terminal."""

    @abstractmethod
    def apply(self, move: Move) -> list[Event]:
        """Play ``move`` and everything it sets off; return the events in order."""

    @abstractmethod
    def clone(self) -> GameState[Move]:
        """An independent copy; cheap, because search clones constantly."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game goes on."""

    @property
    def winner(self) -> int | None:
        out = self.outcome
        return None if out is None else out.winner

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may see: never the opponent's secrets or any deck order."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full true state, for replay checks and debugging (never for agents)."""


class Game(ABC, Generic[Move]):
    """A ruleset with its setup: makes initial states and names moves."""

    name: str

    @abstractmethod
    def new_state(self, seed: int) -> GameState[Move]:
        """The initial state; all randomness of the game flows from ``seed``."""

    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """What a record needs to rebuild this game (e.g. pack id and hash)."""

    @abstractmethod
    def move_to_text(self, move: Move) -> str: ...

    @abstractmethod
    def move_from_text(self, text: str) -> Move: ...


@dataclass
class GameRecord:
    """A whole game as JSON: the seed and moves rebuild it; events narrate it."""

    game: str
    seed: int
    setup: dict[str, Any]
    moves: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "setup": self.setup,
                "moves": self.moves, "events": self.events, "outcome": self.outcome}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GameRecord:
        return cls(obj["game"], int(obj["seed"]), dict(obj["setup"]), list(obj["moves"]),
                   list(obj.get("events", [])), obj.get("outcome"))


class Match(Generic[Move]):
    """A game in progress with its log: what runners, the TUI and records use.

    It keeps every event so that each seat can be told what happened since it
    last looked, filtered to what that seat may see.
    """

    def __init__(self, game: Game[Move], seed: int) -> None:
        self.game = game
        self.seed = seed
        self.state = game.new_state(seed)
        self.moves: list[Move] = []
        self.events: list[Event] = list(getattr(self.state, "start_events", ()))

    def play(self, move: Move) -> list[Event]:
        events = self.state.apply(move)
        self.moves.append(move)
        self.events.extend(events)
        return events

    def events_for(self, seat: int, since: int = 0) -> list[Event]:
        return [e.for_seat(seat) for e in self.events[since:]]

    def record(self) -> GameRecord:
        out = self.state.outcome
        return GameRecord(self.game.name, self.seed, self.game.setup(),
                          [self.game.move_to_text(m) for m in self.moves],
                          [e.to_json() for e in self.events],
                          None if out is None else out.to_json())


def replay(game: Game[Move], record: GameRecord) -> Match[Move]:
    """Rebuild a match from its seed and moves; raises IllegalMove on a bad record."""
    if record.game != game.name:
        raise ValueError(f"record is a {record.game!r} game, not {game.name!r}")
    match = Match(game, record.seed)
    for text in record.moves:
        match.play(game.move_from_text(text))
    return match
