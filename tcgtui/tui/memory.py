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
  everything is unfrozen, so the next pass frees what the old game left.
"""

from __future__ import annotations

import gc

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
