"""How long a key waits in race mode (``tcgtui play --game eleusis --race scientist``).

The real app runs headless on an Eleusis deal raced against a rival (its round in
a child process).  While the rival plays, a person moves the cursor, plays cards
and types in the rule editor, a key every few tens of milliseconds; a key's wait is
the time from the moment it is sent to the moment the app takes it from its
queue.  A 60 Hz timer's longest gap over the same span says how long the event
loop was held at most (a key sent then would wait that long).  ``--why`` samples
the main thread's stack whenever the loop is held for more than STALL_S and
prints the commonest, to find what holds it.

    tcgtui perf --only race_keys
    python -m tcgtui.perf.race_keys --rival scientist --rule 0 --why
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

from tcgtui import locales
from tcgtui.perf import Metric, PerfOptions

NAME = "race_keys"
ORDER = 62
TICK = 1 / 60
STALL_S = 0.08          # --why: a loop held longer than this has its stack sampled
DEPTH = 10              # --why: the innermost frames shown
TYPED = "return card.rank % 2 == 0"


@dataclass
class Waits:
    keys: list[float] = field(default_factory=list)      # each key's wait in its queue, seconds
    ticks: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)       # the loop thread's processor time at each tick
    stalls: collections.Counter = field(default_factory=collections.Counter)
    rival_done: bool = False

    def longest_gap(self) -> float:
        return max((b - a for a, b in zip(self.ticks, self.ticks[1:])), default=0.0)

    def longest_held(self) -> float:
        """The most processor time the loop's thread spent between two ticks: the loop's own work,
        whatever else the machine runs (on a busy machine a gap is longer than the work in it)."""
        return max((b - a for a, b in zip(self.cpu, self.cpu[1:])), default=0.0)


def _sample_stalls(waits: Waits, loop_thread: int, stop: threading.Event) -> None:
    """Record the main thread's stack whenever the event loop has not ticked for STALL_S."""
    while not stop.wait(0.02):
        if waits.ticks and time.perf_counter() - waits.ticks[-1] > STALL_S:
            frame = sys._current_frames().get(loop_thread)
            if frame is not None:
                stack = traceback.extract_stack(frame)
                names = [f"{s.filename.rsplit('/', 2)[-1]}:{s.lineno} {s.name}" for s in stack]
                waits.stalls[" < ".join(reversed(names[-DEPTH:]))] += 1


async def race(rival: str, rule: int, seed: int, seconds: float, why: bool = False) -> Waits:
    """Play keys against the race's rival for ``seconds`` after the board shows (or until the rival
    and a few seconds more are done); every key's wait is recorded."""
    from textual import events

    from tcgtui.tui.app import HUMAN, Settings, TcgApp
    from tcgtui.tui.driving import settle
    app = TcgApp(Settings((HUMAN,), game_id="eleusis", params={"rule": rule}, rival=rival, seed=seed, pause=0.0))
    waits = Waits()
    handle = app.on_event

    async def timed(event: events.Event) -> None:
        if isinstance(event, events.Key) and hasattr(event, "sent"):
            waits.keys.append(time.perf_counter() - event.sent)  # type: ignore[attr-defined]
        await handle(event)
    app.on_event = timed  # type: ignore[method-assign]
    stop = threading.Event()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert board is not None
        def tick() -> None:
            waits.ticks.append(time.perf_counter())
            waits.cpu.append(time.thread_time())
        app.set_interval(TICK, tick)
        if why:
            threading.Thread(target=_sample_stalls, args=(waits, threading.get_ident(), stop), daemon=True).start()

        def send(key: str) -> None:
            char = key if len(key) == 1 else None
            event = events.Key(key, char)
            event.sent = time.perf_counter()  # type: ignore[attr-defined]
            event.set_sender(app)
            app._driver.send_message(event)  # type: ignore[union-attr]  # as a terminal's key arrives

        started, step = time.perf_counter(), 0
        while time.perf_counter() - started < seconds and board.session.result is None:
            if board.rival_result is not None or board.rival_error is not None:
                waits.rival_done = True
            screen = type(app.screen).__name__
            if screen == "GuessScreen":
                typed = step % 40
                send("escape" if typed == len(TYPED) else TYPED[typed] if typed < len(TYPED) else "right")
                if typed >= len(TYPED):
                    step += 40 - typed - 1
            elif screen != "EleusisScreen":
                send("escape")
            elif step % 40 == 0:
                send("g")             # the rule editor: typing while the rival thinks
            elif step % 10 == 5:
                send("1")             # play the first card: the dealer judges it
            else:
                send("right" if step % 2 else "left")
            step += 1
            await asyncio.sleep(0.03)
        stop.set()
        if board.rival_worker is not None:
            board.rival_worker.cancel()
    return waits


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    rival = str(options.extra.get("rival") or "scientist")
    waits = asyncio.run(race(rival, 0, options.seed, 5.0 if options.quick else 30.0))
    note = text.t("perf_opponents.race_keys", rival=rival, keys=len(waits.keys))
    return [Metric("race_longest_key_wait_ms", 1000 * max(waits.keys, default=0.0), "ms", note),
            Metric("race_longest_loop_gap_ms", 1000 * waits.longest_gap(), "ms", text.t("perf_opponents.race_gap")),
            Metric("race_longest_loop_work_ms", 1000 * waits.longest_held(), "ms", text.t("perf_opponents.race_work"))]


def main() -> None:
    parser = argparse.ArgumentParser(description="The longest key wait in race mode.")
    parser.add_argument("--rival", default="scientist")
    parser.add_argument("--rule", type=int, default=0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--why", action="store_true", help="sample the stack whenever the loop is held")
    args = parser.parse_args()
    waits = asyncio.run(race(args.rival, args.rule, args.seed, args.seconds, args.why))
    keys = sorted(waits.keys)
    print(f"{len(keys)} keys against {args.rival} (its round {'over' if waits.rival_done else 'still running'}): "
          f"longest wait {1000 * keys[-1]:.0f} ms, p99 {1000 * keys[int(0.99 * (len(keys) - 1))]:.0f} ms, "
          f"median {1000 * keys[len(keys) // 2]:.0f} ms; longest loop gap {1000 * waits.longest_gap():.0f} ms, "
          f"the most processor time between two ticks {1000 * waits.longest_held():.0f} ms")
    for stack, n in waits.stalls.most_common(8):
        print(f"{n:4d} x {stack}")


if __name__ == "__main__":
    main()
