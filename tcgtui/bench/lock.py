"""One process at a time per run: an OS file lock next to the database.

Why a file lock and not a row in the store: the kernel drops an ``flock`` the
moment its process ends, however it ends (kill -9 included), so a lock left by
a dead process can never block anyone and needs no heartbeat; a row would need
a heartbeat and a stale-pid check that cannot see processes on other hosts.
The file holds the holder's pid and host only so the refusal can say who it
is.  The lock file is ``<db>.run-<hash of the run name>.lock``; it is removed
when the run's process ends normally.
"""

from __future__ import annotations

import hashlib
import os
import socket
from pathlib import Path

from tcgtui import locales
from tcgtui.errors import UserError

try:
    import fcntl
except ImportError:         # not POSIX: no lock (one process per run is then the user's care)
    fcntl = None  # type: ignore[assignment]


def lock_path(db: Path, run: str) -> Path:
    digest = hashlib.sha256(run.encode("utf-8")).hexdigest()[:16]
    return db.with_name(f"{db.name}.run-{digest}.lock")


class RunLock:
    """``with RunLock(db, run):`` — refuses with one line when another process holds the run."""

    def __init__(self, db: Path, run: str) -> None:
        self.path, self.run, self.db = lock_path(db, run), run, db
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        if fcntl is None:
            return self
        text = locales.load()
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise UserError(text.t("limits.unwritable", file=str(self.path),
                                       reason=exc.strerror or str(exc))) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 200).decode("utf-8", "replace").split()
                os.close(fd)
                pid, host = (holder + ["?", "?"])[:2]
                raise UserError(text.t("limits.run_busy", run=self.run, pid=pid, host=host,
                                       db=str(self.db))) from None
            try:                       # the holder before us may have removed the file: lock the new one
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            os.close(self.fd)          # closing releases the lock
            self.fd = None
