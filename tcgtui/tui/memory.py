"""What the TUI keeps between moves and between games, and when it collects garbage.

Two things made a session of rematches slower game after game (issue 12 §3,
``tcgtui perf --only tui_frames`` in its many-games mode):

- Textual 8.2 memoizes ``StylesCache.get_inner_outer`` with ``functools.lru_cache``
  on the method itself, so the cache's keys hold up to 1,024 ``StylesCache``
  objects, each with every line it rendered (``Strip`` objects and their seven
  caches).  Every widget of every board has one: about 50,000 objects and 5 MB
  were kept per game.  The cached values are two ``Style`` objects, cheap to make
  again, so the cache is cleared when a board leaves.
- Every full garbage collection walks every object still tracked, and a board's
  widgets, log entries and rendered lines grow all game.  A full pass runs while
  a person reads the board (not during the opponent's move) and whatever survives
  it is frozen, so the next pass only walks what is new.  When a board leaves,
  everything is unfrozen, so the next pass frees what the old game left.  That
  pass walks every object of the process (100-220 ms on a busy machine): it runs
  once the old board is gone and before the new game's first decision, so no
  opponent's move waits for it.
"""

from __future__ import annotations

import gc
from typing import Awaitable, Callable

from textual._styles_cache import StylesCache


def release_render_caches() -> None:
    """Forget the rendered lines of widgets that may be gone (a screen left)."""
    cached = getattr(StylesCache, "get_inner_outer", None)
    clear = getattr(cached, "cache_clear", None)
    if clear is not None:
        clear()


def collect_while_reading() -> None:
    """A person's turn: collect now, and keep what survives out of later passes."""
    gc.collect()
    gc.freeze()


def forget_game() -> None:
    """A board left: what it held may be garbage now, for the next pass to find."""
    release_render_caches()
    gc.unfreeze()


_leaving: Awaitable[object] | None = None     # the removal of the board a rematch replaced


def board_replaced(removed: Awaitable[object]) -> None:
    """The app put a new board in place of one; ``removed`` completes once the old one is gone."""
    global _leaving
    _leaving = removed


async def settle_before_game(drawn: Callable[[], Awaitable[object]]) -> None:
    """A new game is about to start: once the board it replaced is gone and the new one
    is drawn (by then the old one's timer, worker and contexts have let go of it),
    collect what the old game left (the one full pass) and keep the survivors out of
    later passes."""
    global _leaving
    removed, _leaving = _leaving, None
    if removed is not None:
        await removed
        await drawn()
        collect_while_reading()
