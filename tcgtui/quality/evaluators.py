"""Which evaluator judges a game's decisions: the game's own (``ToolHooks.evaluate``: the grid games'
exact or alpha-beta values, the deck quiz's ``oracle:K``), else ``mc:K`` for any game of two seats
with a move list that ends in a win, draw or loss (the card game).

``mc:K`` values each legal move by K playouts of the ``mc:K`` player from the decider's observation:
each playout re-deals what the decider cannot see (``Game.resample``), so a value never uses hidden
information.  A move's value is its expected result on the common scale, 2 × (wins + draws / 2) / K
− 1 (won 1, drawn 0, lost −1).  The playouts are seeded from the game's id and the decision's number,
so a value computed again is the same.  A forced move (the only legal one) is played without
playouts (the player's rule) and stored with value 0 and regret 0.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from typing import Any, Callable

from tcgtui.engine import registry
from tcgtui.engine.core import Game

MC_DEFAULT, MC_MAX = 1000, 100_000


@dataclass(frozen=True)
class MonteCarlo:
    """``mc:K`` as an evaluator: ``key`` and ``values(state, seed)`` like a game's own."""

    key: str
    values: Callable[[Any, int], dict[str, float]]


def decision_seed(game_id: str, idx: int) -> int:
    """The seed of one decision's playouts: the same on every machine and every run."""
    return int(hashlib.sha256(f"{game_id}:{idx}".encode()).hexdigest()[:15], 16)


def by_playouts(spec: registry.GameSpec) -> bool:
    """Whether ``mc:K`` can judge the game: two seats, a move list, a win, draw or loss, no referee."""
    info = spec.info
    return info.seats == 2 and info.outcome == registry.WDL and info.moves == registry.LIST and not spec.referee.service


def judged(spec: registry.GameSpec) -> bool:
    """Whether any evaluator judges the game's decisions (its report offers the quality table)."""
    return spec.tools.evaluate is not None or by_playouts(spec)


def _mc(game: Game, given: str) -> MonteCarlo:
    name, _, arg = given.partition(":")
    if name != "mc" or not arg.isdigit() or not 1 <= int(arg) <= MC_MAX:
        raise ValueError(f"{given!r}: expected mc:K, K from 1 to {MC_MAX}")
    k = int(arg)

    def values(state: Any, seed: int) -> dict[str, float]:
        seat = state.current_player
        obs = state.observation(seat)
        moves = list(obs.legal_moves)
        if len(moves) == 1:
            return {game.move_to_text(moves[0]): 0.0}
        scores = _fast_scores(game, k, seat, seed, obs)
        if scores is None:
            scores = asyncio.run(_scores(game, k, seat, seed, obs))
        return {game.move_to_text(m): 2 * scores[m] - 1 for m in moves}
    return MonteCarlo(f"mc:{k}", values)


def _fast_scores(game: Game, k: int, seat: int, seed: int, obs: Any) -> dict[Any, float] | None:
    """The same scores in one call of the game's compiled path, when it has one."""
    from tcgtui.opponents.montecarlo import fast_scores      # numpy and the kernels: loaded only to judge
    return fast_scores(game, k, seat, seed, obs)


async def _scores(game: Game, k: int, seat: int, seed: int, obs: Any) -> dict[Any, float]:
    # the search player (numpy, the compiled playouts) loads only when a decision is judged by playouts
    from tcgtui.opponents.base import SeatContext
    from tcgtui.opponents.montecarlo import MonteCarloAgent
    agent = MonteCarloAgent(k)
    try:
        agent.start(SeatContext(seat, seed, "en", game.public()))
        agent.begin_turn(obs.turn)
        decision = await agent.decide(obs, [])
        return decision.info["scores"]
    finally:
        await agent.aclose()


def resolve(spec: registry.GameSpec, game: Game, given: str | None) -> Any:
    """The evaluator ``given`` names for ``game`` (None: the game's own, else mc:1000), or None when
    nothing can judge it; a spec the game does not take is a ValueError saying what it takes."""
    if given is not None and given.startswith("mc:") and by_playouts(spec):
        return _mc(game, given)
    if spec.tools.evaluate is not None:
        return spec.tools.evaluate(game, given)
    if by_playouts(spec):
        return _mc(game, given or f"mc:{MC_DEFAULT}")
    return None
