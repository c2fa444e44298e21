"""``tcgtui perf``'s fake endpoint (``bench_overhead._Server``) dies with the process that started it,
however that process ends: here by SIGKILL, which no handler of the parent's can see."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PARENT = """
import time
from tcgtui.perf.bench_overhead import _Server
with _Server() as server:
    print(server.proc.pid, server.port, flush=True)
    time.sleep(120)
"""


def _alive(pid: int) -> bool:
    """Running (a zombie nobody has reaped yet has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc")
def test_the_fake_endpoint_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid, port = map(int, parent.stdout.readline().split())
        assert _alive(pid) and _listening(port)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 20
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), "the fake endpoint outlived its parent"
        assert not _listening(port)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
