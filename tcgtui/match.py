"""Play one game between its agents: the loop shared by bench, watch and play.

A person is just another agent (the TUI resolves its decisions), so every game,
human or not, produces the same record.  An agent fault (an endpoint that stays
down) ends the game as ``errored``: it is not a loss and can be rerun.  Any
number of seats; in games whose rules count invalid moves, an agent's unusable
reply is handed to the game (``Match.play_invalid``), recorded as a decision
whose move is ``!kind``, and the game says who moves next.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

from tcgtui.engine.core import INVALID, Event, Game, GameRecord, IllegalMove, Match, Outcome
from tcgtui.opponents.base import Agent, AgentError, Decision, SeatContext
from tcgtui.referee import Referee, pending, referee_for

FINISHED, ERRORED = "finished", "errored"


@dataclass
class DecisionRecord:
    index: int            # position in the game's move list
    turn: int
    seat: int
    move: str
    seconds: float        # wall time the agent took
    info: Mapping[str, Any] = field(default_factory=dict)   # the agent's (Decision.info)


@dataclass
class MatchResult:
    record: GameRecord
    decisions: list[DecisionRecord]
    status: str
    outcome: Outcome | None
    error: str | None = None

    @property
    def turns(self) -> int:
        """The game's own turn count where it keeps one ("turn" events), else its moves."""
        turns = [e.get("turn", 0) for e in self.record.events if e["kind"] == "turn"]
        return max(turns) if turns else len(self.record.moves)


EventHook = Callable[[list[Event]], Awaitable[None] | None]
DecisionHook = Callable[[DecisionRecord], Awaitable[None] | None]
SettledHook = Callable[[], Awaitable[None] | None]


async def _call(hook: Callable[..., Any] | None, *args: Any) -> None:
    if hook is not None:
        result = hook(*args)
        if result is not None and hasattr(result, "__await__"):
            await result


def _forfeit(seat: int, seats: int) -> Outcome:
    """A seat that gives up loses; with one seat nobody wins."""
    return Outcome(1 - seat if seats == 2 else None, "forfeit")


def refusal(state: Any, obs: Any, move: Any) -> str | None:
    """Why the match refuses ``move`` (text to append to the error), or None.

    A listed legal move is always taken; otherwise the state's ``validate`` decides, so a
    game may accept moves that carry more than the listed choice (an Eleusis card with
    its tentative rule and guess) while ``legal_moves`` still lists the choices."""
    if move in obs.legal_moves:
        return None
    why = state.validate(move)
    if why is None:
        return None
    return ", not a legal move" if obs.legal_moves else f": {why}"


async def _settle(match: Match, referee: Referee | None, on_events: EventHook | None,
                  on_settled: SettledHook | None = None) -> bool:
    """Apply the referee's move if the game waits on one (a check to run); False if it does not.
    ``on_settled`` runs as soon as the move is applied: a person's game stores the verdict then,
    so a resume never runs the check again."""
    request = pending(match.state)
    if request is None:
        return False
    if referee is None:
        raise IllegalMove(f"{match.game.name} waits on a referee but none is given")
    events = match.play(await referee(request))
    await _call(on_settled)
    await _call(on_events, events)
    return True


async def run_match(game: Game, seed: int, agents: tuple[Agent, ...], *, lang: str = "en",
                    match: Match | None = None, on_events: EventHook | None = None,
                    on_decision: DecisionHook | None = None,
                    options: dict[str, Any] | None = None, referee: Referee | None = None,
                    on_settled: SettledHook | None = None) -> MatchResult:
    """Play to the end.  Pass ``match`` to continue a game already under way;
    ``options`` are game-level settings for the players (e.g. the prompt style) and
    its referee (``tcgtui.referee``); ``referee`` replaces the one the game names."""
    match = match or Match(game, seed)
    referee = referee or referee_for(game, options)
    for seat, agent in enumerate(agents):      # the game without its secrets (Game.public)
        agent.start(SeatContext(seat, seed, lang, game.public(), dict(options or {})))
    seen = [0] * len(agents)
    decisions: list[DecisionRecord] = []
    await _call(on_events, list(match.events))
    outcome: Outcome | None = None
    try:
        while not match.state.is_terminal():
            if await _settle(match, referee, on_events, on_settled):
                continue
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
                outcome = _forfeit(seat, len(agents))
                rec = DecisionRecord(len(match.moves), turn, seat, "", elapsed, decision.info)
                decisions.append(rec)
                await _call(on_decision, rec)
                break
            if decision.invalid is not None:
                rec = DecisionRecord(len(match.moves), turn, seat, INVALID + decision.invalid, elapsed,
                                     decision.info)
                events = match.play_invalid(decision.invalid, decision.raw)
                decisions.append(rec)
                await _call(on_decision, rec)
                await _call(on_events, events)
                continue
            if (why := refusal(match.state, obs, decision.move)) is not None:
                raise IllegalMove(f"{agents[seat].spec} chose {decision.move!r}{why}")
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
