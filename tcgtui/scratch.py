"""Temporary files of one command, in a folder of its own, so a ``kill -9`` leaves nothing for good.

Work folders (the sandbox makes one per puzzle check) are made in tempfile's directory.
From a command's start, that directory (and ``TMPDIR``, which worker processes read) is
``<tmp>/tcgtui-pid<PID>-<random>``, removed when the process exits; a process killed before
it could remove it leaves it behind, and the next command removes every such folder whose
process is gone.  It lasts as long as the process, not the command: what caches a temporary
folder (multiprocessing does) keeps a valid one when a test calls the command again.  A
folder whose pid is alive (or taken by another process) is kept.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from multiprocessing.util import Finalize

PREFIX = "tcgtui-pid"
_MINE = re.compile(rf"{PREFIX}(\d+)-\w+")
_mine: str | None = None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # someone else's process
        pass
    return True


def sweep(base: str) -> None:
    """Remove the folders of tcgtui processes that ended without removing them."""
    with os.scandir(base) as entries:
        for entry in entries:
            found = _MINE.fullmatch(entry.name)
            if found and entry.is_dir(follow_symlinks=False) and not _alive(int(found[1])):
                shutil.rmtree(entry.path, ignore_errors=True)


def use_own_temp_dir() -> str:
    """From now until this process exits, temporary files go to a folder of its own (made once)."""
    global _mine
    if _mine is None:
        base = tempfile.gettempdir()
        try:
            sweep(base)
            _mine = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base)
        except OSError:             # a temporary directory we cannot write: commands that need one say so
            return base
        # Removed at exit after multiprocessing removes its own folder in it (priority -100), not before.
        Finalize(None, shutil.rmtree, args=(_mine,), kwargs={"ignore_errors": True}, exitpriority=-101)
        tempfile.tempdir, os.environ["TMPDIR"] = _mine, _mine
    return _mine
