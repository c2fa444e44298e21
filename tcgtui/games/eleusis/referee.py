"""Eleusis's referee under ``--translator``: a guess's Python walked against the secret rule's, the seed's way,
in one check of tcgtui's sandbox (``seed_judge.py``); tcgtui/referee.py finds ``SERVICES`` here."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game
from tcgtui.referee import Referee


def seed_walk(options: dict[str, Any]) -> Referee:
    """Settles a waiting guess (``engine/eleusis/state.py``'s ``WalkRequest``) with the walk's account."""
    # start-up time: the sandbox only for games that walk guesses in it
    from tcgtui.games.eleusis.seed_judge import WALK_LIMITS, judge_code
    from tcgtui.sandbox import Sandbox

    async def settle(request: Any) -> str:
        verdict = await judge_code(Sandbox("local", WALK_LIMITS), request.truth, request.code, request.mainline)
        return request.settle(verdict.to_json())
    return settle


def seed_walk_ready(game: Game) -> None:
    """Before the first game: a game that walks guesses in the sandbox needs its boundary here."""
    if getattr(game, "translator", ""):
        # start-up time: the sandbox only for games that walk guesses in it
        from tcgtui.sandbox import boundary_or_refuse
        boundary_or_refuse("local")


SERVICES = {"seed-walk": seed_walk}
READY = {"seed-walk": seed_walk_ready}
