"""Timing a person's keys in the real app, headless: shared by ``race_keys`` and ``key_waits``.

A key is sent as a terminal's key arrives (into the app's queue, from the driver) and timed
until the app takes it from that queue.  On a loaded machine that wait is mostly the time the
system ran other processes, so each key's wait is also given as the processor time the loop's
own thread spent between sending and taking it (what it waits on a machine with a core to
spare).  A 60 Hz timer's longest gap says how long the loop was held at most, and the loop
thread's processor time between two ticks what held it; ``sample_stalls`` records the loop
thread's stack whenever it has worked for more than STALL_S without a tick.
"""

from __future__ import annotations

import collections
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

TICK = 1 / 60
STALL_S = 0.05          # a loop thread working longer than this without a tick has its stack sampled
DEPTH = 10              # the innermost frames shown


@dataclass
class Waits:
    keys: list[float] = field(default_factory=list)      # each key's wait in its queue, seconds
    work: list[float] = field(default_factory=list)      # the loop thread's processor seconds during each wait
    taken: list[str] = field(default_factory=list)       # each timed key, "screen:key", in the order taken
    while_rival: list[float] = field(default_factory=list)   # race mode: waits of keys sent while the rival played
    ticks: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)       # the loop thread's processor time at each tick
    stalls: collections.Counter = field(default_factory=collections.Counter)   # stack -> processor seconds
    rival_done: bool = False
    sent: list[tuple[float, str]] = field(default_factory=list)       # (when, key)

    def longest_gap(self) -> float:
        return max((b - a for a, b in zip(self.ticks, self.ticks[1:])), default=0.0)

    def longest_held(self) -> float:
        """The most processor time the loop's thread spent between two ticks: the loop's own work,
        whatever else the machine runs (on a busy machine a gap is longer than the work in it)."""
        return max((b - a for a, b in zip(self.cpu, self.cpu[1:])), default=0.0)

    def summary(self) -> tuple[float, str, float, float]:
        """(the longest wait, the key that waited it, the p99 wait, the most loop work in one wait), seconds."""
        if not self.keys:
            return 0.0, "-", 0.0, 0.0
        worst = max(range(len(self.keys)), key=self.keys.__getitem__)
        ordered = sorted(self.keys)
        return self.keys[worst], self.taken[worst], ordered[int(0.99 * (len(ordered) - 1))], max(self.work)

    def held_after(self, count: int = 6) -> list[tuple[float, list[str]]]:
        """The ``count`` longest holds of the loop, each with the keys sent in the 0.3 s before it."""
        held = sorted(zip(self.cpu, self.cpu[1:], self.ticks), key=lambda t: t[0] - t[1])[:count]
        return [(after - before, [k for when, k in self.sent if at - 0.3 < when <= at]) for before, after, at in held]


def played(argv: list[str], store: Any) -> Any:
    """The app ``tcgtui play ARGV`` opens on ``store`` for the person "perf" (every move stored as it comes)."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.cli import build_parser
    from tcgtui.commands import play as play_command
    from tcgtui.tui.app import ArenaApp
    args = build_parser().parse_args(["play", *argv, "--name", "perf", "--pause", "0"])
    return ArenaApp(play_command.seat(play_command.start(args, "perf"), args, store, "perf"))


def sample_stalls(waits: Waits, loop_thread: int, stop: threading.Event) -> None:
    """Record the loop thread's stack, weighted by the processor time it used since the last look,
    whenever it has used more than STALL_S since the last tick (its own work holds the loop)."""
    clock = time.pthread_getcpuclockid(loop_thread)
    last = time.clock_gettime(clock)
    while not stop.wait(0.01):
        now = time.clock_gettime(clock)
        used, last = now - last, now
        since_tick = now - waits.cpu[-1] if waits.cpu else 0.0
        frame = sys._current_frames().get(loop_thread)
        if since_tick > STALL_S and frame is not None:
            stack = traceback.extract_stack(frame)
            names = [f"{s.filename.rsplit('/', 2)[-1]}:{s.lineno} {s.name}" for s in stack]
            waits.stalls[" < ".join(reversed(names[-DEPTH:]))] += used


class KeyClock:
    """Sends keys into a running app and times each one; ticks at 60 Hz; samples stalls if asked."""

    def __init__(self, app: Any, waits: Waits, why: bool = False) -> None:
        # start-up time: perf's modules load for `tcgtui perf --help`
        from textual import events
        self.app, self.waits, self._events = app, waits, events
        self._stop = threading.Event()
        handle = app.on_event

        async def timed(event: Any) -> None:
            if isinstance(event, events.Key) and hasattr(event, "sent"):
                waits.keys.append(time.perf_counter() - event.sent)
                waits.work.append(time.thread_time() - event.sent_cpu)
                waits.taken.append(f"{type(app.screen).__name__}:{event.key}")
                if event.during:
                    waits.while_rival.append(waits.keys[-1])
            await handle(event)
        app.on_event = timed

        def tick() -> None:
            waits.ticks.append(time.perf_counter())
            waits.cpu.append(time.thread_time())
        app.set_interval(TICK, tick)
        if why:
            threading.Thread(target=sample_stalls, args=(waits, threading.get_ident(), self._stop),
                             daemon=True).start()

    def send(self, key: str, during: bool = False) -> None:
        """``key`` (a Textual key name) into the app's queue, as a terminal's key arrives."""
        # start-up time: perf's modules load for `tcgtui perf --help`
        from textual.keys import key_to_character
        event = self._events.Key(key, key_to_character(key))
        event.sent = time.perf_counter()          # type: ignore[attr-defined]
        event.sent_cpu = time.thread_time()       # type: ignore[attr-defined]  # sent from the loop's thread
        event.during = during                     # type: ignore[attr-defined]
        self.waits.sent.append((event.sent, key))  # type: ignore[attr-defined]
        event.set_sender(self.app)
        self.app._driver.send_message(event)

    def stop(self) -> None:
        self._stop.set()


def report_lines(waits: Waits) -> list[str]:
    """Where the loop's time went: its longest holds with the keys before them, then the stacks."""
    lines = [f"{1000 * used:6.0f} ms of work after keys {' '.join(keys) or '-'}" for used, keys in waits.held_after()]
    lines += [f"{1000 * used:6.0f} ms  {stack}" for stack, used in waits.stalls.most_common(8)]
    return lines
