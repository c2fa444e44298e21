"""The checks' folders: one per check, named after the process that made it, so that the next
start of tcgtui removes what a killed one left behind.

Where the check has a mount namespace its files live on a tmpfs mounted over the folder
inside that namespace, so the folder on disk stays empty and goes at once; elsewhere
removing it is real work, which callers run off the event loop.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile

PREFIX = "tcgtui-check-"


def make() -> str:
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-{secrets.token_hex(4)}-")


def remove(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep() -> int:
    """Removes the folders of checks whose tcgtui process is gone; how many went."""
    gone = 0
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return 0
    for entry in entries:
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        if entry.name.startswith(PREFIX) and pid.isdigit() and not _alive(int(pid)) and entry.is_dir(follow_symlinks=False):
            remove(entry.path)
            gone += 1
    return gone
