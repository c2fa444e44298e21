"""``tcgtui study join URL``: a served study from a terminal.  The participant's app runs on the
study's server (its games land in the study's store, as a browser participant's do); this process
only carries keys up and the screen down over the same websocket a browser uses (textual-serve's
protocol: ``["stdin", text]`` and ``["resize", {...}]`` up, the terminal's bytes down).

The link is the participant's own (``/p/<token>``); the study's start page (``/``) gives a new one,
which is printed before the screen opens so the person can come back to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import termios
import tty
from urllib.parse import urlsplit, urlunsplit

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError

# What the terminal is left in when the app's screen goes: the main screen, a cursor, no mouse reports.
RESET = "\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l\x1b[0m"
LINK_PREFIX = "/p/"
REFUSALS = {"bad link": "cmd_study.bad_link", "full": "cmd_study.full"}     # the server's reasons for closing


def is_link(text: str) -> bool:
    return text.startswith(("http://", "https://"))


def socket_url(link: str, width: int, height: int) -> str:
    """The participant's websocket for their link: ``/p/<token>`` -> ``/ws/<token>?width=..&height=..``."""
    parts = urlsplit(link)
    token = parts.path[len(LINK_PREFIX):] if parts.path.startswith(LINK_PREFIX) else ""
    if not token or "/" in token:
        raise UserError(locales.load().t("cmd_study.bad_link", link=clean(link)))
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"/ws/{token}", f"width={width}&height={height}", ""))


async def own_link(link: str) -> str:
    """The participant's link: as given, or a fresh one from the study's start page."""
    import aiohttp          # start-up time: only a served study needs the web client
    parts = urlsplit(link)
    if parts.path.startswith(LINK_PREFIX):
        return link
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(link, allow_redirects=False, timeout=aiohttp.ClientTimeout(total=15)) as reply:
                where = reply.headers.get("Location", "")
    except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:
        raise UserError(locales.load().t("cmd_study.unreachable", link=clean(link),
                                         reason=clean(str(exc) or type(exc).__name__))) from None
    if not where.startswith(LINK_PREFIX):
        raise UserError(locales.load().t("cmd_study.not_a_study", link=clean(link)))
    return urlunsplit((parts.scheme, parts.netloc, where, "", ""))


async def bridge(link: str) -> int:
    """Play the served study in this terminal until its app ends; the exit status."""
    import aiohttp          # start-up time: only a served study needs the web client
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError(locales.load().t("cmd_study.needs_terminal"))
    link = await own_link(link)
    size = os.get_terminal_size()
    url = socket_url(link, size.columns, size.lines)
    loop = asyncio.get_running_loop()
    fd, out = sys.stdin.fileno(), sys.stdout.buffer
    saved = termios.tcgetattr(fd)
    try:
        async with aiohttp.ClientSession() as session:
            try:
                ws = await session.ws_connect(url, heartbeat=15, max_msg_size=0)
            except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
                raise UserError(locales.load().t("cmd_study.unreachable", link=clean(link),
                                                 reason=clean(str(exc) or type(exc).__name__))) from None
            print(clean(locales.load().t("cmd_study.your_link", link=link)), flush=True)
            tty.setraw(fd)
            keys: asyncio.Queue[bytes] = asyncio.Queue()
            loop.add_reader(fd, lambda: keys.put_nowait(os.read(fd, 4096)))

            def resized() -> None:
                now = os.get_terminal_size()
                keys.put_nowait(json.dumps(["resize", {"width": now.columns, "height": now.lines}]).encode())
            loop.add_signal_handler(signal.SIGWINCH, resized)

            async def up() -> None:
                while True:
                    data = await keys.get()
                    if data.startswith(b'["resize"'):
                        await ws.send_str(data.decode())
                    elif data:
                        await ws.send_str(json.dumps(["stdin", data.decode("utf-8", "replace")]))
            sender = asyncio.create_task(up())
            shown, refused = False, ""
            try:
                while True:
                    message = await ws.receive()
                    if message.type == aiohttp.WSMsgType.BINARY:
                        shown = True
                        out.write(message.data)
                        out.flush()
                    elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                                          aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                        refused = "" if shown else str(message.extra or "")
                        break
            finally:
                sender.cancel()
                loop.remove_reader(fd)
                loop.remove_signal_handler(signal.SIGWINCH)
            closed = ws.close_code
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write(RESET.encode())
        out.flush()
    if refused in REFUSALS:          # the server said no before anything was drawn
        raise UserError(locales.load().t(REFUSALS[refused], link=clean(link)))
    return 0 if closed in (None, 1000) else 1


def join_link(link: str) -> int:
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(bridge(link))
    return 130
