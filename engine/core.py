"""The shape every game takes: states, events, outcomes, records and replay.

Nothing here knows about any one game.  A game supplies a ``Game`` (a factory
that turns a seed into an initial state and converts moves to and from text)
and a ``GameState`` in the spirit of OpenSpiel: ``legal_moves()`` (or
``validate()`` where moves are free text), ``apply()``, ``clone()``,
``is_terminal()``, ``returns()`` per seat and a per-seat ``observation()``
that hides what that seat may not see.

Every observation has ``seat``, ``turn`` and ``legal_moves`` (a tuple, empty in
free-text games): the match loop and the players read nothing else generic.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from tcgtui.engine.registry import GameSpec

Move = TypeVar("Move", bound=Hashable)

# The registry's lookup by id, set by engine/registry.py when it loads (it imports this module, so
# this one cannot import it): how a Game finds its spec without every layer going back by name.
spec_lookup: Callable[[str], GameSpec] | None = None


class SetupError(ValueError):
    """A game's setup data the rules refuse (a pack, a position), with where and why in one line."""


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
        return Event(self.kind, self.player, {k: v for k, v in self.data.items() if k not in self.hidden})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "player": self.player, **self.data}
        if self.hidden:
            out["hidden"] = list(self.hidden)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        data = {k: v for k, v in obj.items() if k not in ("kind", "player", "hidden")}
        return cls(obj["kind"], obj.get("player", -1), data, tuple(obj.get("hidden", ())))


# Outcome reasons every report counts in a column of its own: a move cap cut the game off (no
# result, so not a draw), or a player broke the rules too often (it loses).
CANCELLED, DISQUALIFIED = "cancelled", "disqualified"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is a seat, or None for a draw (or a one-seat game); ``scores``
    is set by score games (one number per seat) and is then what ``returns``
    gives; otherwise a win is 1, a loss -1 and a draw 0.
    """

    winner: int | None
    reason: str
    scores: tuple[float, ...] | None = None

    def returns(self, seat: int) -> float:
        if self.scores is not None:
            return float(self.scores[seat])
        if self.winner is None:
            return 0.0
        return 1.0 if self.winner == seat else -1.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.scores is not None:
            out["scores"] = list(self.scores)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Outcome:
        scores = obj.get("scores")
        return cls(
            obj.get("winner"), str(obj.get("reason", "")), None if scores is None else tuple(float(s) for s in scores)
        )


class GameState(ABC, Generic[Move]):
    """A position: whose turn, what may be played, and what each seat sees."""

    num_seats: int = 2

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

    def returns(self) -> list[float]:
        """Each seat's return once the game is over (zeros while it goes on)."""
        out = self.outcome
        return [0.0 if out is None else out.returns(s) for s in range(self.num_seats)]

    def validate(self, move: Move) -> str | None:
        """Why ``move`` cannot be played now (an invalid-move kind), or None if it can.

        Games with a finite move list need not override this; free-text games
        check their moves here instead of listing them.
        """
        return None if move in self.legal_moves() else "illegal"

    def apply_invalid(self, kind: str, text: str) -> list[Event]:
        """Count an invalid attempt by the current player, for games whose rules
        say what an invalid move costs (the same player moves again, or is
        disqualified past a threshold).  Games without such rules never get one."""
        raise NotImplementedError(f"{type(self).__name__} has no rules for invalid moves")

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """What ``seat`` may see: never the opponent's secrets or any deck order."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full true state, for replay checks and debugging (never for agents)."""


@dataclass(frozen=True)
class RandomAttempt:
    """A random player's reply and how the rules read it: a move, or an invalid kind."""

    raw: str
    move: str | None
    invalid: str | None


class Game(ABC, Generic[Move]):
    """A ruleset with its setup: makes initial states and names moves.

    ``name`` is the game's registry id; ``setup()`` says everything else a
    record needs to rebuild the same game (pack, board size, thresholds...).
    """

    name: str
    # A protocol that always seats the measured player in one seat (the seed's card game: seat 1).
    measured_seat: int | None = None
    # Whether tcgtui's own search players (mc, mcts) play these rules; a protocol with rules
    # of its own (the seed's card game) brings its own opponents instead.
    tcgtui_search: bool = True

    @property
    def spec(self) -> GameSpec:
        """The registered spec of this game (OpenSpiel's ``game.get_type()``); UnknownGame for a game
        made outside the registry.  Looked up, not held, so a game and its states still pickle."""
        if spec_lookup is None:  # every game package imports the registry: only a test's own game
            raise LookupError(f"{self.name!r}: no game registry is loaded")
        return spec_lookup(self.name)

    def run_seed(self, run_seed: int, index: int) -> int | None:
        """The seed of game ``index`` of a run where the protocol fixes it (the seed's code deals
        game i from run seed + i); None: the bench's own derivation."""
        return None

    @abstractmethod
    def new_state(self, seed: int) -> GameState[Move]:
        """The initial state; all randomness of the game flows from ``seed``."""

    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """What a record needs to rebuild this game (e.g. pack id and hash)."""

    def deal_setup(self, seed: int) -> dict[str, Any]:
        """What a record of the deal of ``seed`` needs: ``setup()``, with whatever the game draws
        from the seed itself made explicit (Eleusis's secret rule when it is drawn per deal)."""
        return self.setup()

    @abstractmethod
    def move_to_text(self, move: Move) -> str: ...

    @abstractmethod
    def move_from_text(self, text: str) -> Move: ...

    def seated(self, agent_seat: int) -> Game[Move]:
        """This game as played with the measured player at ``agent_seat``: itself, unless
        the setup gives each side something of its own (the card game's deck lists)."""
        return self

    def public(self) -> Game[Move]:
        """The game as its players may know it (what agents are handed): the game itself,
        unless its setup holds a secret (Eleusis's rule), which this copy leaves out."""
        return self

    def random_attempt(self, obs: Any, rng: Any) -> RandomAttempt | None:
        """What a uniformly random player does here when the protocol's random player may name
        an invalid move (the grid games' seed); None: it picks among ``obs.legal_moves``."""
        return None

    def resample(self, obs: Any, rng: Any) -> GameState[Move]:
        """A full state consistent with ``obs``: exactly the state in a game of perfect
        information, a fresh re-deal of what the seat cannot see otherwise.  Search
        players start every playout from one; a game without it gets no search."""
        raise NotImplementedError(f"{self.name} cannot rebuild a state from an observation")


@dataclass
class GameRecord:
    """A whole game as JSON: the seed and moves rebuild it; events narrate it."""

    game: str
    seed: int
    setup: dict[str, Any]
    moves: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    invalid: list[str] = field(default_factory=list)  # the raw text of each invalid attempt, in order

    def to_json(self) -> dict[str, Any]:
        out = {
            "game": self.game,
            "seed": self.seed,
            "setup": self.setup,
            "moves": self.moves,
            "events": self.events,
            "outcome": self.outcome,
        }
        if self.invalid:
            out["invalid"] = self.invalid
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GameRecord:
        return cls(
            obj["game"],
            int(obj["seed"]),
            dict(obj["setup"]),
            list(obj["moves"]),
            list(obj.get("events", [])),
            obj.get("outcome"),
            list(obj.get("invalid", [])),
        )


INVALID = "!"  # a record's move that starts with this is an invalid attempt of that kind


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
        self.invalid_texts: list[str] = []
        self.events: list[Event] = list(getattr(self.state, "start_events", ()))

    def play(self, move: Move) -> list[Event]:
        events = self.state.apply(move)
        self.moves.append(move)
        self.events.extend(events)
        return events

    def play_invalid(self, kind: str, text: str) -> list[Event]:
        """An invalid attempt the game's rules count (recorded as ``!kind`` among the moves)."""
        events = self.state.apply_invalid(kind, text)
        self.moves.append(INVALID + kind)  # type: ignore[arg-type]
        self.invalid_texts.append(text)
        self.events.extend(events)
        return events

    def events_for(self, seat: int, since: int = 0) -> list[Event]:
        return [e.for_seat(seat) for e in self.events[since:]]

    def record(self) -> GameRecord:
        out = self.state.outcome
        return GameRecord(
            self.game.name,
            self.seed,
            self.game.deal_setup(self.seed),
            [m if isinstance(m, str) and m.startswith(INVALID) else self.game.move_to_text(m) for m in self.moves],
            [e.to_json() for e in self.events],
            None if out is None else out.to_json(),
            list(self.invalid_texts),
        )


def replay(game: Game[Move], record: GameRecord) -> Match[Move]:
    """Rebuild a match from its seed and moves; raises IllegalMove on a bad record."""
    if record.game != game.name:
        raise ValueError(f"record is a {record.game!r} game, not {game.name!r}")
    match = Match(game, record.seed)
    invalid = iter(record.invalid)
    for text in record.moves:
        if text.startswith(INVALID):
            match.play_invalid(text[len(INVALID) :], next(invalid, ""))
        else:
            match.play(game.move_from_text(text))
    return match
