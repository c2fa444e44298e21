"""The command textual-serve runs per browser connection when the zygote is on: it hands its
stdin, stdout and stderr to the zygote over a unix socket, which forks a participant's process onto
them, then waits for that process's exit status and exits with it.  Standard library only and run
with ``python -I -S``: it starts in about 20 ms, where importing the app takes seconds.

Protocol: one message with the JSON of the participant's environment and the three descriptors;
the zygote answers the child's pid (4 bytes) and, when it ends, its exit code (4 bytes, signed).
SIGTERM, SIGHUP and SIGINT are passed on to the child.
"""

import json
import os
import signal
import socket
import sys

# The environment a participant's process needs from textual-serve's (sizes, driver) and the server's.
PASSED = ("COLUMNS", "ROWS", "TCGTUI_SERVE_STUDY", "TCGTUI_SERVE_DB", "TCGTUI_SERVE_TOKEN")
SOCKET_ENV = "TCGTUI_SERVE_SOCKET"


def _recv_int(sock: socket.socket) -> int | None:
    data = b""
    while len(data) < 4:
        chunk = sock.recv(4 - len(data))
        if not chunk:
            return None
        data += chunk
    return int.from_bytes(data, "big", signed=True)


def main() -> int:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(os.environ[SOCKET_ENV])
    except (KeyError, OSError) as exc:
        sys.stderr.write(f"tcgtui serve: the participant's process could not be started ({exc})\n")
        return 1
    env = {k: os.environ[k] for k in PASSED if k in os.environ}
    socket.send_fds(sock, [json.dumps(env).encode()], [0, 1, 2])
    # Keep no copy of the pipes: textual-serve sees the end of the app's output when the child ends.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    pid = _recv_int(sock)
    if pid is None:
        return 1

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, forward)
    code = _recv_int(sock)
    return 1 if code is None else code


if __name__ == "__main__":
    sys.exit(main())
