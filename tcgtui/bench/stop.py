"""SIGTERM and SIGHUP stop a bench as Ctrl-C does.

A job scheduler's or ``timeout``'s SIGTERM, or a closed terminal's SIGHUP, would
otherwise end the bench at once: its pools' workers left to notice by
themselves, multiprocessing warning of leaked semaphores, nothing said of what
was kept.  While a ``Stop`` is open both go to whatever handles Ctrl-C at that
moment (inside ``asyncio.run``, the handler that cancels the sweep, whose
``finally`` shuts the pools down; elsewhere, KeyboardInterrupt), and the first
signal is remembered so the exit status can name it (128 + its number, as a
shell reports a process a signal ended).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

STOPPING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stop:
    """Route SIGTERM and SIGHUP to Ctrl-C's path while open (in the main thread: a bench run in another
    thread leaves signals to its caller); the previous handlers come back on exit."""

    def __init__(self) -> None:
        self.signum: int = signal.SIGINT         # Ctrl-C unless another signal stops the bench first
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Stop:
        if threading.current_thread() is threading.main_thread():     # only there can signals be handled
            self.previous = {s: signal.signal(s, self._stop) for s in STOPPING}
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self.previous.items():
            signal.signal(s, handler)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        if self.signum == signal.SIGINT:
            self.signum = signum
        on_int = signal.getsignal(signal.SIGINT)
        if not callable(on_int):        # Ctrl-C ignored (a background job of a script): stop all the same
            raise KeyboardInterrupt
        on_int(signal.SIGINT, frame)

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def status(self) -> int:
        return 128 + self.signum
