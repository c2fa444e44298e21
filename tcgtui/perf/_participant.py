"""A served study and simulated browser participants for ``tcgtui serve``: textual-serve's page protocol spoken over
aiohttp (what textual.js does: open the websocket with the terminal's size, send keys as
``["stdin", text]``, receive the app's output as binary frames).  Used by the serve benchmark and
tests/serve."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import aiohttp

from tcgtui import locales

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
KEYS = {"enter": "\r", "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
        "tab": "\t", "escape": "\x1b"}


STUDY = """\
id = "ttt-pilot"
title = "Tic-Tac-Toe against a random player"
consent = "We record your moves and their times under a pseudonym."
languages = ["en", "ar"]
games_per_rung = 1
practice = 0
done = "Thank you, that was all."

[deals]
kind = "fresh"

[[games]]
game = "tictactoe"
ladder = ["random"]
"""


def write_study(folder: Path) -> Path:
    path = folder / "study.toml"
    path.write_text(STUDY, encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_env(folder: Path) -> dict[str, str]:
    """The user's files of the test's own (config, data, state), never the person's running it."""
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env[name] = str(folder / name.lower())
    return env


@contextmanager
def served(folder: Path, study: Path, db: Path, *extra: str, port: int | None = None,
           pids: list[int] | None = None) -> Iterator[str]:
    """A running ``tcgtui serve`` (the command itself, on loopback) for the block: its base URL
    (its pid appended to ``pids``).  It is stopped with SIGTERM, as Ctrl+C would, and must stop."""
    port = port or free_port()
    log = open(folder / f"server-{port}-{time.monotonic_ns()}.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "tcgtui", "serve", "--study", str(study), "--db", str(db),
                             "--port", str(port), *extra], stdout=log, stderr=subprocess.STDOUT, env=serve_env(folder))
    base = f"http://127.0.0.1:{port}"
    if pids is not None:
        pids.append(proc.pid)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"tcgtui serve did not start: {Path(log.name).read_text()}")
                time.sleep(0.2)
        yield base
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()


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
            if self.closed.is_set():
                raise ConnectionError(f"the session ended before {word!r} was on screen: {self.text()[-300:]!r}")
            if left <= 0:
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


_EN = locales.load("en")
# On screen: the consent screen's title, the study's progress screen, the game's board, the game-over
# dialog's key to go on, and the progress screen once every game is played.
CONSENT, PROGRESS = _EN.t("study.consent.title"), _EN.t("study.progress.title")
BOARD, OVER, DONE = "Board", _EN.t("study.keys.next"), _EN.t("study.progress.finished")
SWEEP = ["1", "enter", "2", "enter", "3", "enter", "down"] * 3     # every cell of a 3x3 board once


async def begin(p: Participant, timeout: float = 60.0) -> None:
    """From the consent screen to the board: agree (Y), then Enter on the progress screen."""
    await p.wait_for(CONSENT, timeout)
    since = len(p.output)
    await p.key("y")
    await p.wait_for(PROGRESS, timeout, since)
    await enter_game(p, timeout)


async def enter_game(p: Participant, timeout: float = 60.0) -> None:
    """Enter on the progress screen: the next game (or the one left) comes up."""
    since = len(p.output)
    await p.key("enter")
    await p.wait_for(BOARD, timeout, since)


async def play_to_the_end(p: Participant, timeout: float = 120.0) -> None:
    """Tic-Tac-Toe by keys: sweep every cell (a taken one is refused) until the game is over,
    then R back to the study's screen."""
    since = len(p.output)
    deadline = time.perf_counter() + timeout
    while OVER not in p.text(since):
        if time.perf_counter() > deadline or p.closed.is_set():
            raise TimeoutError(f"the game did not end in {timeout} s")
        for key in SWEEP:
            await p.key(key)
            if OVER in p.text(since):
                break
    since = len(p.output)
    await p.key("r")
    await p.wait_for(PROGRESS, timeout, since)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def join_at_once(base: str, n: int, session: aiohttp.ClientSession) -> list[Participant]:
    """``n`` new participants opening their links at the same moment, each waiting for their first
    screen (the consent screen)."""
    people = [Participant(session, base, token) for token in await asyncio.gather(*(enrol(session, base)
                                                                                    for _ in range(n)))]
    await asyncio.gather(*(p.open() for p in people))
    times = await asyncio.gather(*(p.wait_for(CONSENT, 120) for p in people))
    for p, seconds in zip(people, times):
        p.first_screen = seconds
    return people


def tree_pss_mb(root: int) -> float:
    """The proportional memory (PSS: shared pages split between their sharers) of a process and all
    its descendants, in MB, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    total_kb = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return total_kb / 1024
