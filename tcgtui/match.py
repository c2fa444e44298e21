"""Play one game between two agents: the loop shared by bench, watch and play.

A person is just another agent (the TUI resolves its decisions), so every game,
human or not, produces the same record.  An agent fault (an endpoint that stays
down) ends the game as ``errored``: it is not a loss and can be rerun.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from tcgtui.engine.core import Event, Game, GameRecord, IllegalMove, Match, Outcome
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext

FINISHED, ERRORED = "finished", "errored"


@dataclass
class DecisionRecord:
    index: int            # position in the game's move list
    turn: int
    seat: int
    move: str
    seconds: float        # wall time the agent took
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class MatchResult:
    record: GameRecord
    decisions: list[DecisionRecord]
    status: str
    outcome: Outcome | None
    error: str | None = None

    @property
    def turns(self) -> int:
        return max((e.get("turn", 0) for e in self.record.events if e["kind"] == "turn"), default=0)


EventHook = Callable[[list[Event]], Awaitable[None] | None]
DecisionHook = Callable[[DecisionRecord], Awaitable[None] | None]


async def _call(hook: Callable[..., Any] | None, *args: Any) -> None:
    if hook is not None:
        result = hook(*args)
        if result is not None and hasattr(result, "__await__"):
            await result


async def run_match(game: Game, seed: int, agents: tuple[Agent, Agent], *, lang: str = "en",
                    match: Match | None = None, on_events: EventHook | None = None,
                    on_decision: DecisionHook | None = None) -> MatchResult:
    """Play to the end.  Pass ``match`` to continue a game already under way."""
    match = match or Match(game, seed)
    pack = getattr(game, "pack", None)
    for seat, agent in enumerate(agents):
        agent.start(SeatContext(seat, seed, pack, lang))
    seen = [0, 0]
    decisions: list[DecisionRecord] = []
    await _call(on_events, list(match.events))
    outcome: Outcome | None = None
    try:
        while not match.state.is_terminal():
            seat = match.state.current_player
            obs = match.state.observation(seat)
            news = match.events_for(seat, seen[seat])
            seen[seat] = len(match.events)
            agents[seat].begin_turn(obs.turn)
            if agents[seat].omniscient:
                agents[seat].see_state(match.state.clone())
            started = time.perf_counter()
            decision: Decision = await agents[seat].decide(obs, news)
            elapsed = time.perf_counter() - started
            turn = obs.turn
            if decision.forfeit:
                outcome = Outcome(1 - seat, "forfeit")
                rec = DecisionRecord(len(match.moves), turn, seat, "", elapsed, decision.info)
                decisions.append(rec)
                await _call(on_decision, rec)
                break
            if decision.move not in obs.legal_moves:
                raise IllegalMove(f"{agents[seat].spec} chose {decision.move!r}, not a legal move")
            rec = DecisionRecord(len(match.moves), turn, seat, decision.move, elapsed, decision.info)
            events = match.play(decision.move)
            decisions.append(rec)
            await _call(on_decision, rec)
            await _call(on_events, events)
    except AgentError as exc:
        return MatchResult(match.record(), decisions, ERRORED, None, str(exc))
    record = match.record()
    if outcome is not None:
        record.outcome = outcome.to_json()
    else:
        outcome = match.state.outcome
    return MatchResult(record, decisions, FINISHED, outcome)
