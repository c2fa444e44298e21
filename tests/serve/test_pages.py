"""The server's pages over real HTTP: open enrolment hands out links, a garbled link and a full
study each get a page saying so in English and Arabic, and a link survives a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from tcgtui import locales
from tcgtui.perf._participant import CONSENT, Participant, enrol
from tcgtui.serve import tokens
from tests.serve.support import served, write_study


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(url, allow_redirects=False) as response:
            return response.status, await response.text()


def test_every_visitor_gets_a_link_of_their_own_and_a_bad_link_is_told(tmp_path: Path) -> None:
    study, db = write_study(tmp_path), tmp_path / "s.sqlite3"
    with served(tmp_path, study, db) as base:
        async def check() -> None:
            async with aiohttp.ClientSession() as session:
                first, second = await enrol(session, base), await enrol(session, base)
            assert first != second
            key = tokens.load_key(db)
            assert tokens.valid(key, "ttt-pilot", first) and tokens.valid(key, "ttt-pilot", second)
            status, page = await _get(f"{base}/p/{first}")
            assert status == 200 and "Tic-Tac-Toe against a random player" in page
            assert "python" not in page and str(tmp_path) not in page
            garbled = first[:-1] + ("A" if first[-1] != "A" else "B")
            for bad in (garbled, "x" * 32, "short", "%3Cscript%3E"):
                status, page = await _get(f"{base}/p/{bad}")
                assert status == 404, bad
                for lang in ("en", "ar"):
                    assert locales.load(lang).t("cmd_serve.bad_link.title") in page
                assert "<script>" not in page
        asyncio.run(check())


def test_another_sites_page_cannot_open_a_participants_session(tmp_path: Path) -> None:
    study, db = write_study(tmp_path), tmp_path / "s.sqlite3"
    with served(tmp_path, study, db) as base:
        async def check() -> None:
            async with aiohttp.ClientSession() as session:
                token = await enrol(session, base)
                url = base.replace("http", "ws", 1) + f"/ws/{token}"
                try:
                    await session.ws_connect(url, origin="http://evil.example")
                except aiohttp.WSServerHandshakeError as exc:
                    assert exc.status == 403
                else:
                    raise AssertionError("a foreign Origin opened a session")
                ws = await session.ws_connect(url, origin=base)          # the server's own page may
                await ws.close()
        asyncio.run(check())


def test_beyond_the_cap_a_visitor_sees_the_study_is_full(tmp_path: Path) -> None:
    study, db = write_study(tmp_path), tmp_path / "s.sqlite3"
    with served(tmp_path, study, db, "--max", "1") as base:
        async def check() -> None:
            async with aiohttp.ClientSession() as session:
                one = Participant(session, base, await enrol(session, base))
                await one.open()
                await one.wait_for(CONSENT, 60)
                other = await enrol(session, base)
                status, page = await _get(f"{base}/p/{other}")
                assert status == 503
                for lang in ("en", "ar"):
                    assert locales.load(lang).t("cmd_serve.full.title") in page
                status, _ = await _get(f"{base}/p/{one.token}")     # the one playing may reload
                assert status == 200
                await one.close()
                for _ in range(100):                                  # their process ends: a place frees
                    status, _ = await _get(f"{base}/p/{other}")
                    if status == 200:
                        break
                    await asyncio.sleep(0.1)
                assert status == 200
        asyncio.run(check())


def test_a_link_given_out_before_a_restart_still_opens(tmp_path: Path) -> None:
    study, db = write_study(tmp_path), tmp_path / "s.sqlite3"
    with served(tmp_path, study, db) as base:
        token = asyncio.run(_enrol(base))
    with served(tmp_path, study, db) as base:
        status, _ = asyncio.run(_get(f"{base}/p/{token}"))
    assert status == 200


async def _enrol(base: str) -> str:
    async with aiohttp.ClientSession() as session:
        return await enrol(session, base)


def test_a_participants_page_names_no_other_site(tmp_path: Path) -> None:
    """textual-serve's page asks a public font host for a font, which would give that host every
    participant's address: the page is served without it, and with a policy forbidding any other site."""
    study, db = write_study(tmp_path), tmp_path / "s.sqlite3"
    with served(tmp_path, study, db) as base:
        async def check() -> None:
            async with aiohttp.ClientSession() as session:
                token = await enrol(session, base)
                async with session.get(f"{base}/p/{token}") as response:
                    page, policy = await response.text(), response.headers.get("Content-Security-Policy", "")
            assert "googleapis" not in page and "https://" not in page
            assert "default-src 'self'" in policy and "connect-src 'self'" in policy
        asyncio.run(check())
