"""Helpers for the LLM tests: an agent on a fake server, and a match at its first decision."""

from __future__ import annotations

import asyncio

from tcgtui.engine.core import Match
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent


def run(coro):
    """Run a coroutine to the end on a fresh event loop."""
    return asyncio.run(coro)


def llm_agent(server, **options):
    """An llm: agent on a fake server, with waits between retries short enough for tests."""
    options.setdefault("backoff_base", 0.001)
    options.setdefault("backoff_max", 0.01)
    return make_agent("llm:fake-model", base_url=server.base_url, **options)


def first_turn(pack: Pack, seed: int = 3, lang: str = "en", agent=None):
    """A match at its first decision, with the agent (if any) started in that seat."""
    match = Match(TcgGame(pack), seed)
    seat = match.state.current_player
    if agent is not None:
        agent.start(SeatContext(seat, seed, pack, lang))
    return match, match.state.observation(seat), match.events_for(seat)
