"""A models.toml entry's request limits, enforced by the client: ``concurrency`` requests in
flight at once and ``requests_per_minute`` request starts, spaced evenly (a provider counting
per minute never sees a burst), shared by every agent of the entry in one event loop.

A bench runs many games at once (``--concurrency``); each game's agent has its own client,
so the limits live here, one ``Limiter`` per entry and loop, not in the client.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tcgtui.opponents.llm.endpoint import EndpointSettings


class Limiter:
    def __init__(self, concurrency: int | None, per_minute: float | None) -> None:
        self.slots = asyncio.Semaphore(concurrency) if concurrency else None
        self.gap = 60.0 / per_minute if per_minute else 0.0
        self.next_start = 0.0

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one request's place: wait for a free slot, then for the request's turn to start."""
        if self.slots is not None:
            await self.slots.acquire()
        try:
            if self.gap:
                now = time.monotonic()
                start = max(now, self.next_start)
                self.next_start = start + self.gap
                if start > now:
                    await asyncio.sleep(start - now)
            yield
        finally:
            if self.slots is not None:
                self.slots.release()


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, Limiter]] = weakref.WeakKeyDictionary()


def limiter(settings: EndpointSettings) -> Limiter | None:
    """The entry's limiter in the running loop, or None when it sets no limit."""
    if not settings.concurrency and not settings.requests_per_minute:
        return None
    loop = asyncio.get_running_loop()
    mine = _BY_LOOP.setdefault(loop, {})
    key = (settings.entry, settings.base_url, settings.model, settings.concurrency, settings.requests_per_minute)
    if key not in mine:
        mine[key] = Limiter(settings.concurrency, settings.requests_per_minute)
    return mine[key]
