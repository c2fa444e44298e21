"""A simulated browser participant for ``tcgtui serve``: textual-serve's page protocol spoken over
aiohttp (what textual.js does: open the websocket with the terminal's size, send keys as
``["stdin", text]``, receive the app's output as binary frames).  Used by the serve benchmark and
tests/serve."""

from __future__ import annotations

import asyncio
import re
import time

import aiohttp

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
KEYS = {"enter": "\r", "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
        "tab": "\t", "escape": "\x1b"}


def screen_text(raw: bytes) -> str:
    """The text the app drew, control sequences removed (enough to find a word on screen)."""
    return ANSI.sub("", raw.decode("utf-8", "replace"))


async def enrol(session: aiohttp.ClientSession, base: str) -> str:
    """A new participant's token, from the server's open enrolment (the redirect of ``/``)."""
    async with session.get(f"{base}/", allow_redirects=False) as response:
        location = response.headers["Location"]
    return location.rsplit("/", 1)[1]


class Participant:
    """One browser tab: a websocket to ``/ws/<token>`` and everything the app has drawn so far."""

    def __init__(self, session: aiohttp.ClientSession, base: str, token: str,
                 width: int = 100, height: int = 30) -> None:
        self.session, self.base, self.token = session, base, token
        self.width, self.height = width, height
        self.output = bytearray()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.opened_at = 0.0
        self.first_screen = None          # seconds from opening the socket to the marker on screen
        self.key_waits: list[float] = []  # seconds from a key to the app's next output
        self._got = asyncio.Event()
        self._reader: asyncio.Task | None = None
        self.closed = asyncio.Event()

    async def open(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/{self.token}?width={self.width}&height={self.height}"
        self.opened_at = time.perf_counter()
        self.ws = await self.session.ws_connect(url, max_msg_size=0)
        self.closed.clear()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for msg in self.ws:
                if msg.type == aiohttp.WSMsgType.BINARY:
                    self.output += msg.data
                    self._got.set()
        finally:
            self.closed.set()

    def text(self, since: int = 0) -> str:
        return screen_text(bytes(self.output[since:]))

    async def wait_for(self, word: str, timeout: float, since: int = 0) -> float:
        """Seconds until ``word`` is on screen (in output after byte ``since``); TimeoutError otherwise."""
        deadline = time.perf_counter() + timeout
        while word not in self.text(since):
            left = deadline - time.perf_counter()
            if left <= 0 or self.closed.is_set():
                raise TimeoutError(f"{word!r} not on screen after {timeout} s")
            self._got.clear()
            try:
                await asyncio.wait_for(self._got.wait(), min(left, 0.5))
            except asyncio.TimeoutError:
                pass
        return time.perf_counter() - self.opened_at

    async def key(self, name: str, quiet: float = 0.05, timeout: float = 10.0) -> None:
        """Press a key and wait for the app's answer to settle: the time to its first output is a key wait."""
        assert self.ws is not None
        size = len(self.output)
        self._got.clear()
        sent = time.perf_counter()
        await self.ws.send_json(["stdin", KEYS.get(name, name)])
        try:
            await asyncio.wait_for(self._got.wait(), timeout)
        except asyncio.TimeoutError:
            return                                # a key with nothing to redraw (a taken cell)
        if len(self.output) > size:
            self.key_waits.append(time.perf_counter() - sent)
        while True:                               # let the redraw (and a reply move) finish
            self._got.clear()
            try:
                await asyncio.wait_for(self._got.wait(), quiet)
            except asyncio.TimeoutError:
                return

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader
