"""Referees: what settles the moves no player chooses, where the pure engine cannot.

A game whose state can be waiting on something outside the rules (running a
puzzle's code, say) exposes ``state.pending()`` (None when nothing waits) and
names a referee service in ``spec.referee.service``: one of ``SERVICES`` here, or one of
the ``SERVICES`` of the game's app-side ``referee`` module (a service only that game uses).  A pending request carries what
the service needs and ``settle(...)``, which turns the service's answer into the
game's move; the match applies that move like any other, so records keep it and a
replay never asks the referee again.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from tcgtui.app_side import app_for
from tcgtui.engine import registry
from tcgtui.engine.core import Game

Referee = Callable[[Any], Awaitable[str]]      # a pending request -> the move that settles it


def pending(state: Any) -> Any:
    """The state's pending request, or None (games without referees have no ``pending``)."""
    ask = getattr(state, "pending", None)
    return ask() if ask is not None else None


def python_check(options: dict[str, Any]) -> Referee:
    """Runs ``mystery(value)`` in the sandbox, with the request's ``timeout``, ``backend`` and
    ``judge`` (the game's settings, so the record says them)."""
    # start-up time: the sandbox only for games with a referee
    from tcgtui.sandbox import Limits, Sandbox

    async def settle(request: Any) -> str:
        sandbox = Sandbox(request.backend, Limits(timeout=float(request.timeout)),
                          judge=getattr(request, "judge", "strict"))
        verdict = await sandbox.check(request.code, request.value)
        return request.settle(verdict.result, verdict.seconds, verdict.detail)
    return settle


def python_check_ready(game: Game) -> None:
    """Before the first game: the sandbox the game names must hold here (raises one line if not)."""
    # start-up time: the sandbox only for games with a referee
    from tcgtui.sandbox import boundary_or_refuse
    boundary_or_refuse(str(getattr(game, "sandbox", "local")))


SERVICES: dict[str, Callable[[dict[str, Any]], Referee]] = {"python-check": python_check}
READY: dict[str, Callable[[Any], None]] = {"python-check": python_check_ready}


def _own(game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The services (and their readiness checks) of the game's app-side ``referee``."""
    side = app_for(game_id).referee
    if side is None:
        return {}, {}
    own = side.load()
    return dict(own.SERVICES), dict(own.READY)


def ready(spec: registry.GameSpec, game: Game) -> None:
    """Refuses, before any game is played, where the game's referee cannot run here."""
    service = spec.referee.service
    if service:
        own = _own(spec.info.id)[1]
        (READY.get(service) or own[service])(game)


def referee_for(game: Game, options: dict[str, Any] | None = None) -> Referee | None:
    """The referee ``game`` names, built with the match's options; None if it names none."""
    try:
        service = game.spec.referee.service
    except registry.UnknownGame:
        return None
    if not service:
        return None
    return (SERVICES.get(service) or _own(game.name)[0][service])(dict(options or {}))
