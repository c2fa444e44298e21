"""What the TUI keeps between moves and between games, and when it collects garbage.

Two things made a session of rematches slower game after game (issue 12 §3,
``tcgtui perf --only tui_frames`` in its many-games mode):

- Textual 8.2 memoizes ``StylesCache.get_inner_outer`` with ``functools.lru_cache``
  on the method itself, so the cache's keys hold up to 1,024 ``StylesCache``
  objects, each with every line it rendered (``Strip`` objects and their seven
  caches).  Every widget of every board has one: about 50,000 objects and 5 MB
  were kept per game.  The cached values are two ``Style`` objects, cheap to make
  again, so the cache is cleared when a board leaves.
- Every full garbage collection walks every object still tracked, at about 1 µs
  each on this machine: 180,000 objects once the search's code has loaded (numba,
  scipy, llvmlite) took 165-230 ms, a frozen screen and a key left waiting
  (``tcgtui perf --only key_waits``).  What lives as long as the app is frozen
  out of the passes, at the two moments it is loaded: when the app starts (Textual,
  the engine, the pack) and when a game's compiled search has loaded.  Freezing
  takes no walk.  A game's own objects are never frozen: a pass on a person's turn
  (while they read the board, not during the opponent's move) walks only them,
  10-40 ms, and after a rematch it frees the board that left.  The board on screen
  when the search loaded is frozen with it and kept: one board per search loaded,
  not one per game; unfreezing it would walk everything again.
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
    """A person's turn: collect what the game has let go of (a short walk: its objects alone)."""
    gc.collect()


def keep_loaded() -> None:
    """Long-lived code has just loaded (the app, a game's compiled search): keep it out of
    later passes.  Freezing takes no walk: it is done at once."""
    gc.freeze()


def forget_game() -> None:
    """A board left: its rendered lines go, and the next pass frees the rest of it."""
    release_render_caches()


_leaving: tuple[Awaitable[object], ...] = ()     # the removals of the board a rematch replaced and its result


def board_replaced(*removed: Awaitable[object] | None) -> None:
    """The app put a new board in place of one; each of ``removed`` completes once what it removes
    (the old board, its game-over dialog) is gone."""
    global _leaving
    _leaving = tuple(r for r in removed if r is not None)


async def settle_before_game(drawn: Callable[[], Awaitable[object]]) -> None:
    """A new game is about to start: once the board it replaced is gone and the new one
    is drawn (by then the old one's timer, worker and contexts have let go of it),
    collect what the old game left, before the new game's first decision."""
    global _leaving
    removed, _leaving = _leaving, ()
    if removed:
        for removal in removed:
            await removal
        del removed, removal        # a removal may still hold the old board: the pass must find it unreachable
        await drawn()
        collect_while_reading()
