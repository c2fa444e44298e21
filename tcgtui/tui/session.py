"""One game on screen: ``run_match`` driven by hooks that feed a view.

The session knows nothing of Textual.  It owns the ``Match`` (so the view can
read the observation of the seat it shows), turns ``run_match``'s
``on_events``/``on_decision`` hooks into view calls, holds the opponent's move
on screen for ``pause`` seconds, and, for watching, gates each move behind
pause/resume/single-step.  The same object drives the app, the tests and the
frame-gap benchmark.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Protocol, Sequence

from tcgtui.engine.core import Event, Game, Match
from tcgtui.opponents.base import Agent
from tcgtui.opponents.human import HumanAgent
from tcgtui.match import DecisionRecord, MatchResult, run_match

# Seconds an opponent's move stays on screen, slowest to fastest (watch's speed keys).
PAUSE_STEPS = (4.0, 2.0, 1.0, 0.5, 0.25, 0.0)
# The moments a game's ``phase_of`` may name beside its event kinds: before any event, and a seat to choose.
START, DECIDE = "start", "decide"

Stager = Callable[[Sequence[Event]], list[list[Event]]]


def one_stage(events: Sequence[Event]) -> list[list[Event]]:
    """A move shown at once (games whose screen does not narrate a move in steps)."""
    return [list(events)] if events else []


class SessionView(Protocol):
    """What a session tells its screen; every call happens on the event loop."""

    async def show_events(self, events: Sequence[Event], by: int | None, final: bool) -> None:
        """Narrate ``events`` (made by seat ``by``); redraw the board when ``final``."""
    def show_thinking(self, seat: int | None) -> None: ...
    def ask_human(self, seat: int) -> None: ...
    def pass_to(self, seat: int) -> None:
        """Two people at one keyboard: ``seat``'s turn, another seat on screen.  The view shows
        ``seat`` (``GameSession.shown``) once its player is looking, then asks it."""


@dataclass
class SeatInfo:
    agent: Agent
    label: str                 # what the board calls this player (a handle or a spec)

    @property
    def human(self) -> bool:
        return isinstance(self.agent, HumanAgent)


@dataclass
class GameSession:
    game: Game
    seed: int
    seats: tuple[SeatInfo, ...]        # as many as the game has seats
    lang: str = "en"
    pause: float = 1.0
    view: SessionView | None = None
    resume: Match | None = None                # a game under way (a resumed one); else a new deal
    earlier: list[DecisionRecord] = field(default_factory=list)   # the resumed game's moves so far
    on_move: Callable[[DecisionRecord], None] | None = None   # e.g. save the game after every move
    on_settled: Callable[[], None] | None = None              # e.g. save a referee's verdict as soon as applied
    stager: Stager = one_stage              # how an opponent's move is cut into steps (the screen's choice)
    # event kind -> the phase the top bar shows; also START (before any event) and DECIDE (a seat is to choose)
    phase_of: dict[str, str] = field(default_factory=dict)
    match: Match = field(init=False)
    decisions: list[DecisionRecord] = field(default_factory=list, init=False)
    thinking: int | None = field(default=None, init=False)
    phase: str = field(default="", init=False)
    paused: bool = field(default=False, init=False)
    result: MatchResult | None = field(default=None, init=False)
    last_mover: int | None = field(default=None, init=False)
    shown: int = field(default=0, init=False)          # two people at one keyboard: the seat on screen

    def __post_init__(self) -> None:
        self.match = self.resume or Match(self.game, self.seed)
        self.phase = self.phase_of.get(START, "")
        self.decisions = list(self.earlier)
        self._steps = 0
        self._gate = asyncio.Event()
        self._gate.set()
        self._idle = asyncio.Event()
        for i, seat in enumerate(self.seats):
            if isinstance(seat.agent, HumanAgent):
                seat.agent.on_turn = partial(self._human_turn, i)
        mover = self.match.state.current_player
        self.shown = mover if 0 <= mover < len(self.seats) and self.seats[mover].human else self._first_human()

    # --- what the view reads ----------------------------------------------------------

    def _first_human(self) -> int:
        return next((i for i, s in enumerate(self.seats) if s.human), 0)

    @property
    def viewer(self) -> int:
        """The seat shown at the bottom: the person's (two at one keyboard: ``shown``), else player 1."""
        return self.shown if self.hot_seat else self._first_human()

    @property
    def hot_seat(self) -> bool:
        """Two people at one keyboard (``--vs human``): the board shows one seat at a time."""
        return sum(1 for s in self.seats if s.human) > 1

    @property
    def spectating(self) -> bool:
        return not any(s.human for s in self.seats)

    def observation(self, seat: int) -> Any:
        return self.match.state.observation(seat)  # type: ignore[no-any-return]

    def human_waiting(self) -> HumanAgent | None:
        for s in self.seats:
            if isinstance(s.agent, HumanAgent) and s.agent.waiting:
                return s.agent
        return None

    async def settled(self) -> None:
        """Until a person must choose or the game is over (tests and benchmarks wait on this)."""
        await self._idle.wait()

    # --- controls ------------------------------------------------------------------

    def choose(self, move: str, stands_for: str | None = None) -> bool:
        human = self.human_waiting()
        if human is None or not human.choose(move, stands_for):
            return False
        self._idle.clear()
        return True

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if paused:
            self._gate.clear()
        else:
            self._gate.set()

    def step(self) -> None:
        """While paused, let exactly one more move through."""
        if self.paused:
            self._steps += 1
            self._gate.set()

    def faster(self, by: int) -> float:
        """Move along PAUSE_STEPS (positive: faster); returns the new pause."""
        i = min(range(len(PAUSE_STEPS)), key=lambda j: abs(PAUSE_STEPS[j] - self.pause))
        self.pause = PAUSE_STEPS[max(0, min(len(PAUSE_STEPS) - 1, i + by))]
        return self.pause

    # --- the game loop -------------------------------------------------------------

    async def run(self) -> MatchResult:
        self._idle.clear()
        try:
            self.result = await run_match(self.game, self.seed, tuple(s.agent for s in self.seats),  # type: ignore[arg-type]
                                          lang=self.lang, match=self.match, on_events=self._on_events,
                                          on_decision=self._on_decision, on_settled=self.on_settled)
        finally:
            self.thinking = None
            self._idle.set()
            for s in self.seats:
                await s.agent.aclose()
        return self.result

    def _human_turn(self, seat: int, obs: object, events: list[Event]) -> None:
        self.phase = self.phase_of.get(DECIDE, self.phase)
        self._idle.set()
        if self.view is None:
            self.shown = seat
        elif self.hot_seat and seat != self.shown:
            self.view.pass_to(seat)
        else:
            self.view.ask_human(seat)

    async def _on_decision(self, rec: DecisionRecord) -> None:
        self.decisions.append(rec)
        if self.on_move is not None:
            self.on_move(rec)
        self.last_mover = rec.seat
        self._set_thinking(None)

    async def _on_events(self, events: list[Event]) -> None:
        by = self.last_mover
        slow = by is not None and not self.seats[by].human and self.pause > 0
        stages = self.stager(events) if slow else [events]
        for i, stage in enumerate(stages):
            for e in stage:
                self.phase = self.phase_of.get(e.kind, self.phase)
            if self.view is not None:
                await self.view.show_events(stage, by, i == len(stages) - 1)
            if slow:
                await asyncio.sleep(self.pause / len(stages))
        if self.spectating and not self.match.state.is_terminal():
            await self._wait_gate()
        nxt = self.match.state.current_player
        if nxt >= 0 and not self.seats[nxt].human:
            self.phase = self.phase_of.get(DECIDE, self.phase)
            self._set_thinking(nxt)

    async def _wait_gate(self) -> None:
        await self._gate.wait()
        if self.paused:
            self._steps = max(0, self._steps - 1)
            if self._steps == 0:
                self._gate.clear()

    def _set_thinking(self, seat: int | None) -> None:
        self.thinking = seat
        if self.view is not None:
            self.view.show_thinking(seat)
