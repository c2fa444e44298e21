"""The zygote: one process that imports the app once and forks a participant's process per
browser connection, onto the stdin, stdout and stderr a launcher (``launch``) hands over.  Twenty
people joining at once then share one import instead of each paying for their own (seconds of CPU
each on a small machine), and the children share the imported pages copy-on-write.

It is single-threaded (safe to fork): a selector over the listening socket, each launcher's
connection (a launcher gone: its child gets SIGTERM), each child's pidfd (a child ended: its exit
code goes to its launcher) and stdin (the server gone: every child gets SIGTERM, then it exits).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import selectors
import shutil
import signal
import socket
import sys
import traceback

from tcgtui.engine import registry
from tcgtui.serve.join import PRELOAD, run_participant
from tcgtui.serve.launch import PASSED

READY = b"ready\n"
MAX_HEADER = 8192


class Zygote:
    def __init__(self, path: str) -> None:
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        os.chmod(path, 0o600)
        self.listener.listen(128)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.listener, selectors.EVENT_READ, "accept")
        self.selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "server")
        self.children: dict[int, tuple[socket.socket, int]] = {}    # pid -> (launcher, pidfd)

    def serve(self) -> None:
        while True:
            for key, _events in self.selector.select():
                kind = key.data
                if kind == "accept":
                    self._accept()
                elif kind == "server":
                    if not os.read(sys.stdin.fileno(), 512):
                        self.stop()
                        return
                elif kind[0] == "launcher":
                    self._launcher_said(kind[1])
                else:
                    self._reap(kind[1])

    def _accept(self) -> None:
        conn, _ = self.listener.accept()
        try:
            msg, fds, _flags, _addr = socket.recv_fds(conn, MAX_HEADER, 3)
            env = json.loads(msg)
            if len(fds) != 3 or not isinstance(env, dict):
                raise ValueError("expected three descriptors and an environment")
        except (OSError, ValueError) as exc:
            print(f"tcgtui serve: a launcher was refused ({exc})", file=sys.stderr, flush=True)
            conn.close()
            return
        env = {k: str(v) for k, v in env.items() if k in PASSED}
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            self._child(conn, fds, env)        # never returns
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        self.children[pid] = (conn, pidfd)
        conn.sendall(pid.to_bytes(4, "big", signed=True))
        self.selector.register(conn, selectors.EVENT_READ, ("launcher", pid))
        self.selector.register(pidfd, selectors.EVENT_READ, ("child", pid))

    def _child(self, conn: socket.socket, fds: list[int], env: dict[str, str]) -> None:
        code = 1
        try:
            for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(signum, signal.SIG_DFL)
            self.selector.close()
            self.listener.close()
            conn.close()
            for other, pidfd in self.children.values():
                other.close()
                os.close(pidfd)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            for fd in fds:
                if fd > 2:
                    os.close(fd)
            os.environ.update(env)
            run_participant()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)

    def _launcher_said(self, pid: int) -> None:
        conn, _ = self.children[pid]
        try:
            data = conn.recv(64)
        except OSError:
            data = b""
        if not data:                          # the launcher is gone: so is the browser
            self.selector.unregister(conn)
            _kill(pid, signal.SIGTERM)

    def _reap(self, pid: int) -> None:
        conn, pidfd = self.children.pop(pid)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        self.selector.unregister(pidfd)
        os.close(pidfd)
        try:
            self.selector.unregister(conn)
        except KeyError:
            pass
        try:
            conn.sendall(code.to_bytes(4, "big", signed=True))
        except OSError:
            pass
        conn.close()

    def stop(self) -> None:
        """End every child (each saves with every move) and wait for them."""
        for pid in list(self.children):
            _kill(pid, signal.SIGTERM)
        for pid, (conn, pidfd) in list(self.children.items()):
            os.waitpid(pid, 0)
            conn.close()
            os.close(pidfd)
        self.children.clear()


def _kill(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def main(path: str) -> int:
    """Import the app, listen on ``path`` (in a private folder of its own, removed at the end), say
    READY on stdout, and fork until stdin closes."""
    for name in PRELOAD:
        importlib.import_module(name)
    registry.games()               # every game's registration (numpy and all): a fifth of a second per child
    gc.collect()
    gc.freeze()                    # keep the imported objects' pages shared with the children
    zygote = Zygote(path)
    signal.signal(signal.SIGTERM, lambda *_: (zygote.stop(), os._exit(0)))
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    try:
        zygote.serve()
    finally:                       # the server may be gone (killed): leave no socket behind
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
