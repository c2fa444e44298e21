"""Leaving the app as a person does, in a real terminal (a pseudo-terminal), and what a bug
looks like when one reaches the screen: one line, a file with the frames, never the locals."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.tui.app import ArenaApp, Settings

SECRET = "sk-leaving-test-not-a-real-key"


def in_terminal(argv: list[str], home: Path, until: bytes, keys: bytes, timeout: float = 60.0) -> tuple[int, bytes]:
    """Runs ``python -m tcgtui ARGV`` on an 80x24 pseudo-terminal; once ``until`` shows, types
    ``keys``; returns the exit status and everything the terminal received."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LC_ALL": "C.UTF-8", "OPENAI_API_KEY": SECRET, "XDG_STATE_HOME": str(home / "state"),
           "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(home / "numba"))}
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        os.execve(sys.executable, [sys.executable, "-m", "tcgtui", *argv], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out, typed, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break                                   # the program ended: the terminal hung up
            if not chunk:
                break
            out += chunk
        if not typed and until in out:
            os.write(fd, keys)
            typed = True
    else:
        os.kill(pid, 9)
    os.close(fd)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out


def test_home_then_q_leaves_with_status_0_and_no_traceback(tmp_path):
    title = locales.load("en").t("ui.home.title")
    code, out = in_terminal([], tmp_path, title.encode(), b"q")
    assert code == 0, out[-2000:]
    assert b"Traceback" not in out and b"Error" not in out


def test_a_bug_reaching_the_app_is_one_line_and_a_file_without_locals(tmp_path, monkeypatch, capfd):
    import asyncio
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))

    def bug() -> None:
        key = os.environ["OPENAI_API_KEY"]              # a local a traceback with locals would print
        raise RuntimeError("boom \x1b[2J")

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.call_later(bug)
            await pilot.pause(0.2)
    with pytest.raises(RuntimeError):
        asyncio.run(go())
    err = " ".join(capfd.readouterr().err.split())             # the one line, as the console wrapped it
    assert err.count("internal error") == 1 and "RuntimeError: boom" in err and "Traceback" not in err
    assert "\x1b" not in err and SECRET not in err
    [crash] = list((tmp_path / "state").rglob("crash-*.txt"))
    text = crash.read_text()
    assert "RuntimeError: boom" in text and "in bug" in text and SECRET not in text


def test_a_model_without_an_endpoint_is_refused_in_one_line_with_status_2(tmp_path):
    """``play --vs llm:MODEL`` with no endpoint: found once the handle is chosen, said as the
    command's own error line (status 2), no traceback, no crash file, no key."""
    code, out = in_terminal(["play", "--vs", "llm:fake", "--name", "ann"], tmp_path, b"\x1b[", b"")
    text = out.decode("utf-8", "replace")
    assert code == 2 and "--base-url" in text and "Traceback" not in text and SECRET not in text
    assert not list((tmp_path / "state").rglob("crash-*.txt"))


def test_a_widget_gone_because_the_person_left_is_not_a_crash(tmp_path, monkeypatch, capfd):
    """Leaving while a rematch board is built or an editor closes: a screen being taken down may
    look for a widget that is already gone (``NoMatches``); the person left, so nothing is reported."""
    import asyncio

    from textual.css.query import NoMatches
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))

    def gone(leaving: bool) -> None:
        if leaving:
            app.exit()                     # the person has left; the screen's last callback runs after
        app.screen.query_one("#a-widget-taken-down-with-its-screen")

    async def go(leaving: bool) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.call_later(gone, leaving)
            await asyncio.sleep(0.3)
    asyncio.run(go(leaving=True))
    assert app.return_code == 0 and "internal error" not in capfd.readouterr().err
    assert not list((tmp_path / "state").rglob("crash-*.txt"))
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))
    with pytest.raises(NoMatches):                 # while the app runs, the same is a bug, reported
        asyncio.run(go(leaving=False))
    assert app.return_code == 1 and "internal error" in capfd.readouterr().err
