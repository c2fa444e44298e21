"""Helpers for the LLM tests: an agent on a fake server, a match at its first decision,
the card game's prompter as the card-game tests call it, and an interim match loop for
games whose rules count invalid moves."""

from __future__ import annotations

import asyncio
from functools import cache

from tcgtui import locales
from tcgtui.engine.core import Match
from tcgtui.engine.prompting import Parsed
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.engine.tcg.parse import TAGS
from tcgtui.engine.tcg.prompter import TcgPrompter
from tcgtui.engine.tcg.prompter import prompt_version as _prompt_version
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


@cache
def prompt_version(lang: str) -> str:
    """The card game's prompt version in ``lang`` (cached; ``cache_clear`` after editing a catalog)."""
    return _prompt_version(locales.load(lang))


class PromptBuilder(TcgPrompter):
    """The card game's prompter called as the card-game tests call it: by language code,
    ``turn(..., fallback_card=)`` and ``reason(error, text, card)``."""

    def __init__(self, pack: Pack, lang: str, seat: int) -> None:
        super().__init__(pack, locales.load(lang), seat)

    def turn(self, obs, events, fallback_card=None, retry=None):  # type: ignore[override]
        return super().turn(obs, events, fallback_card, retry)

    def reason(self, error, text: str = "", card=None):  # type: ignore[override]
        if isinstance(error, Parsed):
            return super().reason(error)
        return super().reason(Parsed(card, TAGS, error, text))


async def interim_run_match(game, seed: int, agents, *, lang: str = "en", options=None, match=None):
    """A match loop for games whose rules count invalid moves, until ``tcgtui.match.run_match``
    hands invalid decisions to the game (then replace every call with it).

    A decision with ``invalid`` set goes to ``Match.play_invalid(kind, raw)`` (the game's
    ``apply_invalid``) and the same seat is asked again; any other is played.  Returns the
    match and ``(seat, decision)`` in order.  Pass ``match`` to play one already made.
    """
    match = match or Match(game, seed)
    for seat, agent in enumerate(agents):
        agent.start(SeatContext(seat, seed, lang=lang, game=game, options=dict(options or {})))
    seen = [0] * len(agents)
    decisions = []
    while not match.state.is_terminal():
        seat = match.state.current_player
        obs = match.state.observation(seat)
        news = match.events_for(seat, seen[seat])
        seen[seat] = len(match.events)
        agents[seat].begin_turn(obs.turn)
        decision = await agents[seat].decide(obs, news)
        decisions.append((seat, decision))
        if decision.invalid:
            match.play_invalid(decision.invalid, decision.raw)
        elif decision.forfeit:
            break
        else:
            match.play(decision.move)
    return match, decisions
