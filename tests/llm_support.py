"""Helpers for the LLM tests: an agent on a fake server, a match at its first decision,
the card game's prompter as the card-game tests call it, and whole matches read back
decision by decision."""

from __future__ import annotations

import asyncio
import dataclasses
from functools import cache

from tcgtui import locales
from tcgtui.engine.core import INVALID, Match
from tcgtui.engine.prompting import Parsed
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.engine.tcg.parse import TAGS
from tcgtui.engine.tcg.prompter import TcgPrompter
from tcgtui.engine.tcg.prompter import prompt_version as _prompt_version
from tcgtui.opponents.base import SeatContext
from tcgtui.match import run_match
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
        agent.start(SeatContext(seat, seed, lang, TcgGame(pack)))
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


@dataclasses.dataclass
class Played:
    """A decision as the match loop recorded it, read back the way the grid tests ask."""

    move: str              # "" unless a move was played
    info: dict
    invalid: str | None
    forfeit: bool
    raw: str = ""          # an invalid attempt's reply, as the game recorded it


async def play_match(game, seed: int, agents, *, lang: str = "en", options=None, match=None):
    """``tcgtui.match.run_match`` to the end; returns the match and ``(seat, Played)`` in order
    (an invalid attempt is recorded as the move ``!kind``, a forfeit as ``""``)."""
    match = match or Match(game, seed)
    records = []
    await run_match(game, seed, tuple(agents), lang=lang, match=match, options=options,
                    on_decision=records.append)
    raws = iter(match.invalid_texts)
    out = []
    for r in records:
        invalid = r.move[1:] if r.move.startswith(INVALID) else None
        out.append((r.seat, Played("" if invalid else r.move, r.info, invalid, r.move == "",
                                   next(raws) if invalid else "")))
    return match, out


def play_llm(server, game, seed: int, *, lang: str = "en", **options):
    """One game of ``game`` played by an ``llm:`` player asking ``server`` (closed after): the match
    and its ``(seat, Played)`` decisions, as ``play_match`` returns them."""
    async def go():
        agent = llm_agent(server, **options)
        try:
            return await play_match(game, seed, [agent], lang=lang)
        finally:
            await agent.aclose()
    return run(go())
