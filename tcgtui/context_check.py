"""Before the first game: refuse a model whose context cannot hold the game's fixed part.

The rules, the cards and the first turn's state go in every prompt of a game, whatever the
history budget; with room for the reply they are what a game needs at least.  ``bench``,
``play`` and ``watch`` ask every ``llm:`` player here, once per language, and a context too small
is one line (``OptionError``) before anything is played or stored.
"""

from __future__ import annotations

from typing import Any, Iterable

from tcgtui.engine.core import Game
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.spec import parse_spec


async def check_contexts(game: Game, specs: Iterable[str], options: dict[str, Any], langs: Iterable[str],
                         game_options: dict[str, Any] | None = None, seed: int = 0) -> None:
    """Raise ``OptionError`` when some ``llm:`` player of ``specs`` cannot fit ``game``'s first prompt."""
    models = [s for s in dict.fromkeys(specs) if parse_spec(s).kind == "llm"]
    if not models:
        return
    state = game.new_state(seed)
    seat = state.current_player
    obs = state.observation(seat)
    for spec in models:
        agent = make_agent(spec, **options)
        try:
            for lang in langs:
                agent.start(SeatContext(seat, seed, lang, game.public(),
                                        dict(game_options or {})))
                await agent.check_fits(obs)
        finally:
            await agent.aclose()
