"""A served study joined from a terminal: ``tcgtui study join http://...`` in a real pseudo-terminal.
The participant's app runs on the server (their games land in the study's store, as a browser
participant's do); the terminal shows it and carries keys to it.  The start page gives a new link,
printed so the person can come back; coming back with it asks no second consent."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time

from tcgtui.perf._participant import screen_text, serve_env

from tests.serve.support import games_of, person, served, write_study


class Terminal:
    """``tcgtui ARGS`` on a pseudo-terminal of 100x30: what it drew so far, keys typed into it."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen([sys.executable, "-m", "tcgtui", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.raw = bytearray()

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.raw += os.read(self.master, 65536)
                except OSError:
                    return

    def wait_for(self, text: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds
        while text not in screen_text(bytes(self.raw)):
            assert time.monotonic() < end, f"{text!r} never shown: {screen_text(bytes(self.raw))[-600:]!r}"
            self.read(0.2)

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())
        self.read(0.5)

    def close(self, seconds: float = 30) -> int:
        end = time.monotonic() + seconds
        while self.proc.poll() is None and time.monotonic() < end:
            self.read(0.2)
        if self.proc.poll() is None:
            self.proc.kill()
        os.close(self.master)
        return self.proc.wait()


def test_a_served_study_is_played_from_a_terminal_and_carried_on_with_its_link(tmp_path) -> None:
    study, db = write_study(tmp_path), tmp_path / "study.sqlite3"
    env = serve_env(tmp_path)
    with served(tmp_path, study, db) as base:
        term = Terminal(env, "study", "join", f"{base}/")
        term.wait_for("agree")
        link = re.search(rb"(http://127\.0\.0\.1:\d+/p/[A-Za-z0-9_-]+)", bytes(term.raw)).group(1).decode()
        token = link.rsplit("/", 1)[1]
        assert person(db, token) is None                       # nothing recorded before consent
        term.type("y")
        term.wait_for("Press Enter")
        term.type("\r")                                        # the first game; the cursor's cell
        term.wait_for("Turn")
        term.type("\r")
        end = time.monotonic() + 30
        while not (person(db, token) and games_of(db, person(db, token)[0])):
            assert time.monotonic() < end, "the move never reached the study's store"
            term.read(0.2)
        term.type("q")
        term.type("y")
        term.wait_for("carry on")
        term.type("q")
        assert term.close() == 0
        pid = person(db, token)[0]
        [(index, status, moves)] = games_of(db, pid)
        assert status == "in_progress" and moves >= 1

        again = Terminal(env, "study", "join", link)           # the same link, later: no second consent
        again.wait_for("carry on")
        assert "agree" not in screen_text(bytes(again.raw)).split("Your link")[-1]
        again.type("q")
        assert again.close() == 0
    assert person(db, token)[0] == pid


def test_a_bad_link_is_one_line(tmp_path) -> None:
    env = serve_env(tmp_path)
    for link in ("http://127.0.0.1:9/p/x", "http://127.0.0.1:9/"):
        term = Terminal(env, "study", "join", link)
        status = term.close()
        text = screen_text(bytes(term.raw)).strip()
        assert status == 2 and text.count("\n") == 0 and "127.0.0.1:9" in text and "Traceback" not in text


def test_a_link_the_server_never_gave_is_one_line(tmp_path) -> None:
    study, db = write_study(tmp_path), tmp_path / "study.sqlite3"
    env = serve_env(tmp_path)
    with served(tmp_path, study, db) as base:
        term = Terminal(env, "study", "join", f"{base}/p/{'A' * 32}")
        status = term.close()
    text = screen_text(bytes(term.raw))
    assert status == 2 and "not a participant's link" in text and "Traceback" not in text
    assert not person(db, "A" * 32)
