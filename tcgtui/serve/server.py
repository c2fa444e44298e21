"""The study's web server: textual-serve's, with participants' links and a cap.

Routes: ``/`` gives a new visitor a fresh signed link (a redirect to ``/p/<token>``); ``/p/<token>``
is textual-serve's page showing the study's title (never the command it runs); ``/ws/<token>``
starts that participant's process, or starts it again for a link opened again (the same token
carries on where it stopped).  A garbled link, or one more participant than ``max_participants``
live, gets a page saying so in every language of the page (English and Arabic).
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from tcgtui import locales
from tcgtui.serve import launch, tokens
from tcgtui.serve.driver import DRIVER
from tcgtui.serve.join import DB_ENV, STUDY_ENV, TOKEN_ENV
from tcgtui.serve.zygote import READY
from tcgtui.study.spec import Study

log = logging.getLogger("tcgtui-serve")
PAGE_LANGS = ("en", "ar")
MAX_COLUMNS, MAX_ROWS = 400, 200
# The participant's page loads only from this server: textual-serve's page asks a public font host for a
# font, which would tell that host every participant's address; the browser never makes that request
# (the terminal falls back to a local monospace font), nor any other to a third party.
PAGE_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
               "font-src 'self' data:; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
               "base-uri 'none'; form-action 'none'")
FOREIGN_LINK = re.compile(r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*>", re.S)         # a browser's claimed size, bounded (the app allocates per cell)


def clamp_size(width: int, height: int) -> tuple[int, int]:
    return max(20, min(int(width), MAX_COLUMNS)), max(8, min(int(height), MAX_ROWS))


def web_environment() -> dict[str, str]:
    """The environment of every participant's process (and of the zygote, which must import Textual
    with it: Textual reads its driver from the environment once, on import)."""
    env = dict(os.environ)
    env.update({"TEXTUAL_DRIVER": DRIVER, "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
                "TERM_PROGRAM": "textual"})
    return env


class OwnOriginLoader(jinja2.FileSystemLoader):
    """textual-serve's page as installed, less its stylesheet links to other sites (a public font host):
    the page then asks nothing of anyone but this server (the policy above forbids it besides)."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str | None, Any]:
        source, filename, uptodate = super().get_source(environment, template)
        return FOREIGN_LINK.sub("", source), filename, uptodate


class ParticipantService(AppService):
    """One participant's process: textual-serve's, with their token, study and store in its environment."""

    def __init__(self, command: str, extra_env: dict[str, str], **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.extra_env = extra_env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width, height)
        env.update(self.extra_env)
        env["TEXTUAL_DRIVER"] = DRIVER
        return env

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*clamp_size(width, height))


class StudyServer(Server):
    def __init__(self, study: Study, db: Path, *, host: str, port: int, max_participants: int,
                 zygote: bool = True) -> None:
        self.study_path = str(Path(study.path).resolve())
        self.study = study
        self.db = db.resolve()
        self.key = tokens.load_key(self.db)
        self.max_participants = max_participants
        self.use_zygote = zygote
        self.live: dict[str, ParticipantService] = {}
        self.lock = asyncio.Lock()
        self._private = tempfile.mkdtemp(prefix="tcgtui-serve-")      # 0700: the zygote's socket
        self.socket_path = os.path.join(self._private, "zygote.sock")
        self.zygote: asyncio.subprocess.Process | None = None
        python = shlex.quote(sys.executable)
        command = (f"{python} -I -S {shlex.quote(launch.__file__)}" if zygote
                   else f"{python} -m tcgtui.serve.join")
        super().__init__(command, host=host, port=port, title=study.title(study.languages[0]))

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=OwnOriginLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_enrol, name="index"),
            web.get("/p/{token}", self.handle_page, name="page"),
            web.get("/ws/{token}", self.handle_participant, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        if self.use_zygote:
            env = web_environment()
            self.zygote = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tcgtui.serve.zygote", self.socket_path, env=env,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert self.zygote.stdout is not None
            if await self.zygote.stdout.readline() != READY:
                raise RuntimeError("the zygote did not start (its error is above)")
        self.console.print(f"{self.title}: {self.public_url}")

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(service.stop() for service in list(self.live.values())), return_exceptions=True)
        if self.zygote is not None:
            assert self.zygote.stdin is not None
            self.zygote.stdin.close()
            await self.zygote.wait()
        shutil.rmtree(self._private, ignore_errors=True)      # the zygote may have removed it first

    async def handle_enrol(self, request: web.Request) -> web.StreamResponse:
        """Open enrolment: every new visitor gets a link of their own, to come back with."""
        raise web.HTTPFound(f"/p/{tokens.mint(self.key, self.study.id)}")

    async def handle_page(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        if not tokens.valid(self.key, self.study.id, token):
            return self._notice("bad_link", 404)
        if token not in self.live and len(self.live) >= self.max_participants:
            return self._notice("full", 503)
        scheme = "wss" if request.secure else "ws"
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{scheme}://{request.host}/ws/{token}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"       # the link is the participant's key
        response.headers["Content-Security-Policy"] = PAGE_POLICY
        return response

    def _notice(self, key: str, status: int) -> web.Response:
        """A plain page in every page language (the browser shapes and orders Arabic itself)."""
        parts = []
        for lang in PAGE_LANGS:
            text = locales.load(lang)
            direction = "rtl" if lang == "ar" else "ltr"
            parts.append(f'<section lang="{lang}" dir="{direction}"><h1>{html.escape(text.t(f"cmd_serve.{key}.title"))}'
                         f'</h1><p>{html.escape(text.t(f"cmd_serve.{key}.body"))}</p></section>')
        body = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(self.title)}</title>"
                f"</head><body><h2>{html.escape(self.title)}</h2>{''.join(parts)}</body></html>")
        return web.Response(text=body, status=status, content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def handle_participant(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket bridge, for this participant's process only, and only from this
        server's own page (a page of another site open in the same browser is refused by its Origin)."""
        token = request.match_info["token"]
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="another site's page may not open a participant's session")
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        async with self.lock:
            if not tokens.valid(self.key, self.study.id, token):
                await websocket.close(message=b"bad link")
                return websocket
            old = self.live.pop(token, None)
            if old is not None:                       # the same link opened again: one process per person
                await old.stop()
            if len(self.live) >= self.max_participants:
                await websocket.close(message=b"full")
                return websocket
            service = ParticipantService(
                self.command, {STUDY_ENV: self.study_path, DB_ENV: str(self.db), TOKEN_ENV: token,
                               launch.SOCKET_ENV: self.socket_path},
                write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
                download_manager=self.download_manager)
            self.live[token] = service
            await service.start(*clamp_size(to_int(request.query.get("width", "80"), 80),
                                             to_int(request.query.get("height", "24"), 24)))
        try:
            await self._process_messages(websocket, service)
        except Exception as error:        # a broken message from a browser ends its session only
            log.warning("participant connection ended: %s", type(error).__name__)
        finally:
            await service.stop()
            if self.live.get(token) is service:
                del self.live[token]
        return websocket
