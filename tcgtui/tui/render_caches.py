"""Letting go of what Textual keeps of screens that are gone.

Textual 8.2 memoizes ``StylesCache.get_inner_outer`` with ``functools.lru_cache``
on the method itself, so the cache's keys hold up to 1,024 ``StylesCache``
objects, each with every line it rendered (``Strip`` objects and their seven
caches).  Every widget of every board gets one: a session of rematches kept
about 50,000 objects and 5 MB per game, and each garbage collection (so each
move) grew slower with them (``tcgtui perf --only tui_frames``, many-games
mode).  The cached values are two ``Style`` objects, cheap to make again.
"""

from __future__ import annotations

from textual._styles_cache import StylesCache


def release_render_caches() -> None:
    """Forget the rendered lines of widgets that may be gone (call when a screen leaves)."""
    cached = getattr(StylesCache, "get_inner_outer", None)
    clear = getattr(cached, "cache_clear", None)
    if clear is not None:
        clear()
