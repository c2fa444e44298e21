"""The home screen in a real terminal (a pseudo-terminal), as a new user meets it: start the card
game (mc:100, the default), give a handle, leave the game, be back at home, quit: status 0, no
traceback, nothing of the environment printed."""

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

SECRET = "sk-home-terminal-test-not-a-real-key"


def staged(home: Path, stages: list[tuple[bytes, bytes]], timeout: float = 120.0) -> tuple[int, bytes, int]:
    """Runs ``python -m tcgtui`` on a 120x40 pseudo-terminal; for each (wait for, then type) stage, waits
    until the text shows after the previous typing, then types.  Returns the exit status, everything the
    terminal received, and how many stages were reached."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": "xterm-256color",
           "LC_ALL": "C.UTF-8", "OPENAI_API_KEY": SECRET, "XDG_STATE_HOME": str(home / "state"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(home / "numba"))}
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        os.execve(sys.executable, [sys.executable, "-m", "tcgtui"], env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    out, since, stage, deadline = b"", 0, 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if stage < len(stages) and stages[stage][0] in out[since:]:
            since = len(out)
            time.sleep(0.3)                       # the screen has drawn; the person reads, then types
            os.write(fd, stages[stage][1])
            stage += 1
    else:
        os.kill(pid, 9)
    os.close(fd)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out, stage


def test_start_a_game_from_home_leave_it_and_quit(tmp_path) -> None:
    stages = [(b"Your games", b"\r"),            # home: Enter plays the card game against mc:100
              (b"handle", b"\r"),                 # the handle shown is taken
              (b"Turn", b"q"),                    # the board: leave
              (b"Leave this game?", b"y"),
              (b"Your games", b"q")]              # home again: quit
    code, out, reached = staged(tmp_path, stages)
    text = out.decode("utf-8", "replace")
    assert reached == len(stages), text[-2000:]
    assert code == 0 and "Traceback" not in text and SECRET not in text
    assert not list((tmp_path / "state").rglob("crash-*.txt"))
