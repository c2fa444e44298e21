"""Helpers for the LLM tests: a stand-in rules text while main has none, and game runners.

``locales/<lang>/rules.toml`` is being written on another branch; until it is
merged, ``rules_fixture`` puts a short rules text into the loaded catalogs for
the duration of a test (never on disk) and takes it out again.
"""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from typing import Iterator

import locales
from opponents.llm import prompts

STAND_IN_RULES = {
    "en": {
        "rules.setup.lp": "Each player starts with {starting_lp} LP and draws {opening_hand} cards.",
        "rules.setup.deck": "Each deck holds one copy of every card, shuffled.",
        "rules.turn.play": "On your turn you draw a card, then play exactly one card from your hand.",
        "rules.turn.combat": "Then every champion of yours that may attack does so.",
        "rules.end.limit": "After turn {turn_limit} the player with more LP wins; equal LP is a draw.",
        "rules.end.chain": "A chain of reactions stops after {max_chain} links.",
    },
    "ar": {
        "rules.setup.lp": "يبدأ كل لاعب بـ{starting_lp} نقاط حياة ويسحب {opening_hand} بطاقات.",
        "rules.setup.deck": "تضم كل رزمة نسخة واحدة من كل بطاقة، مخلوطة.",
        "rules.turn.play": "في دورك تسحب بطاقة، ثم تلعب بطاقة واحدة بالضبط من يدك.",
        "rules.turn.combat": "ثم يهاجم كل بطل من أبطالك يحق له الهجوم.",
        "rules.end.limit": "بعد الدور {turn_limit} يفوز صاحب نقاط الحياة الأكثر، ويتعادلان إن تساوت.",
        "rules.end.chain": "تتوقف سلسلة ردود الفعل بعد {max_chain} حلقات.",
    },
}


@contextmanager
def stand_in_rules() -> Iterator[bool]:
    """Yields True when the stand-in was needed (no rules.toml on this branch yet)."""
    needed = not locales.load("en").items("rules")
    added: list[tuple[locales.Catalog, str]] = []
    if needed:
        for code, entries in STAND_IN_RULES.items():
            cat = locales.load(code)
            for key, value in entries.items():
                cat.entries[key] = value
                added.append((cat, key))
        prompts.prompt_version.cache_clear()
    try:
        yield needed
    finally:
        for cat, key in added:
            del cat.entries[key]
        if added:
            prompts.prompt_version.cache_clear()


def run(coro):
    """Run a coroutine to the end on a fresh event loop."""
    return asyncio.run(coro)


import pytest  # noqa: E402

from engine.core import Match  # noqa: E402
from engine.tcg import Pack, TcgGame  # noqa: E402
from opponents.base import SeatContext  # noqa: E402
from opponents.registry import make_agent  # noqa: E402


@pytest.fixture(autouse=False)
def rules():
    """Use in LLM tests: the game's rules text, or the stand-in while main has none."""
    with stand_in_rules() as needed:
        yield needed


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
