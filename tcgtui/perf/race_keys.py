"""How long a key waits in race mode (``tcgtui play --game eleusis --race scientist``).

The real app runs headless on an Eleusis deal raced against a rival (its round in
a child process).  While the rival plays, a person moves the cursor, plays cards
and types in the rule editor, a key every few tens of milliseconds; each key is timed
as ``tcgtui.perf._keys`` says (its wait, and the loop's own work in it).  ``--why``
prints where the loop's longest holds went.

    tcgtui perf --only race_keys
    python -m tcgtui.perf.race_keys --rival scientist --rule 0 --why
    python -m tcgtui.perf.race_keys --editor      # the dearest key: opening the rule editor
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.measure import Metric, PerfOptions
from tcgtui.perf._keys import KeyClock, Waits, played, report_lines

NAME = "race_keys"
ORDER = 62
TYPED = "return card.rank % 2 == 0"


async def race(rival: str, rule: int, seed: int, seconds: float, why: bool = False) -> Waits:
    """Play keys against the race's rival (``rival`` "": alone) for ``seconds`` after the board shows,
    in the app ``tcgtui play`` opens on a store of its own; every key's wait is recorded."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.store import Store
    argv = ["--game", "eleusis", "--param", f"rule={rule}", "--seed", str(seed), *(["--race", rival] if rival else [])]
    with tempfile.TemporaryDirectory(prefix="tcgtui-race-") as folder, Store(Path(folder) / "games.db") as store:
        app = played(argv, store)          # the rival's round stored as it comes, as tcgtui play stores it
        return await _play_keys(app, rival, seconds, why)


async def _play_keys(app: Any, rival: str, seconds: float, why: bool) -> Waits:
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.tui.driving import settle
    waits = Waits()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert board is not None
        clock = KeyClock(app, waits, why)

        def send(key: str) -> None:
            clock.send(key, during=bool(rival) and not waits.rival_done)

        started, step = time.perf_counter(), 0
        while time.perf_counter() - started < seconds and board.session.result is None:
            if not rival or board.rival_result is not None or board.rival_error is not None:
                waits.rival_done = True
            screen = type(app.screen).__name__
            if screen == "GuessScreen":
                typed = step % 40
                if typed == 1 and any(area.text for area in app.screen.query("#rule")):   # (not yet composed: none)
                    send("ctrl+u")    # the draft left last time (the editor is kept): cleared as a person would
                else:
                    send("escape" if typed == len(TYPED) else TYPED[typed] if typed < len(TYPED) else "right")
                if typed >= len(TYPED):
                    step += 40 - typed - 1
            elif screen != "EleusisScreen":
                send("escape")
            elif step % 40 == 0:
                send("g")             # the rule editor: typing while the rival thinks
            elif step % 10 == 5:
                send("enter")         # play the chosen card: the dealer judges it
            else:
                send("right" if step % 2 else "left")
            step += 1
            await asyncio.sleep(0.03)
        clock.stop()
        if board.rival_worker is not None:
            board.rival_worker.cancel()
    return waits


async def editor_cpu(times: int = 5) -> tuple[list[float], list[float]]:
    """The loop thread's processor seconds to open the rule editor (``g``) and to close it (Escape),
    each until the screen settles, ``times`` times after a first opening (imports, caches)."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.tui.app import HUMAN, Settings, ArenaApp
    from tcgtui.tui.driving import settle
    app = ArenaApp(Settings((HUMAN,), game_id="eleusis", params={"rule": 0}, seed=3, pause=0.0))
    spent: dict[str, list[float]] = {"g": [], "escape": []}
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        for turn in range(times + 1):
            for key in spent:
                used = time.thread_time()
                await pilot.press(key)
                await settle(pilot, app)
                if turn:
                    spent[key].append(time.thread_time() - used)
    return spent["g"], spent["escape"]


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    rival = str(options.extra.get("rival") or "scientist")
    waits = asyncio.run(race(rival, 0, options.seed, 3.0 if options.quick else 30.0))
    note = text.t("perf_opponents.race_keys", rival=rival, keys=len(waits.keys))
    return [Metric("race_longest_key_wait_ms", 1000 * max(waits.keys, default=0.0), "ms", note),
            Metric("race_longest_key_wait_rival_playing_ms", 1000 * max(waits.while_rival, default=0.0), "ms",
                   text.t("perf_opponents.race_keys_rival", keys=len(waits.while_rival))),
            Metric("race_longest_key_wait_work_ms", 1000 * max(waits.work, default=0.0), "ms",
                   text.t("perf_opponents.race_keys_work")),
            Metric("race_longest_loop_gap_ms", 1000 * waits.longest_gap(), "ms", text.t("perf_opponents.race_gap")),
            Metric("race_longest_loop_work_ms", 1000 * waits.longest_held(), "ms", text.t("perf_opponents.race_work")),
            *_editor_metrics(text, 2 if options.quick else 9)]


def _editor_metrics(text: Any, times: int) -> list[Metric]:
    opened, closed = asyncio.run(editor_cpu(times))
    return [Metric("rule_editor_open_cpu_ms", 1000 * sorted(opened)[len(opened) // 2], "ms",
                   text.t("perf_opponents.editor_open", times=times)),
            Metric("rule_editor_close_cpu_ms", 1000 * sorted(closed)[len(closed) // 2], "ms",
                   text.t("perf_opponents.editor_close", times=times))]


def main() -> None:
    parser = argparse.ArgumentParser(description="The longest key wait in race mode.")
    parser.add_argument("--rival", default="scientist", help='a player spec; "" plays alone (the same keys, no race)')
    parser.add_argument("--rule", type=int, default=0)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--why", action="store_true", help="sample the stack whenever the loop is held")
    parser.add_argument("--editor", action="store_true", help="only the processor time to open and close "
                        "the rule editor (no race)")
    args = parser.parse_args()
    if args.editor:
        opened, closed = asyncio.run(editor_cpu(9))
        print(f"rule editor: open {sorted(round(1000 * t) for t in opened)} ms, "
              f"close {sorted(round(1000 * t) for t in closed)} ms (the loop thread's processor time)")
        return
    waits = asyncio.run(race(args.rival, args.rule, args.seed, args.seconds, args.why))
    keys = sorted(waits.keys)
    print(f"{len(keys)} keys against {args.rival} (its round {'over' if waits.rival_done else 'still running'}): "
          f"longest wait {1000 * keys[-1]:.0f} ms, p99 {1000 * keys[int(0.99 * (len(keys) - 1))]:.0f} ms, "
          f"median {1000 * keys[len(keys) // 2]:.0f} ms; the most processor time during a key's wait "
          f"{1000 * max(waits.work):.0f} ms; longest loop gap {1000 * waits.longest_gap():.0f} ms, "
          f"the most processor time between two ticks {1000 * waits.longest_held():.0f} ms; "
          f"longest wait of the {len(waits.while_rival)} keys sent while the rival played "
          f"{1000 * max(waits.while_rival, default=0.0):.0f} ms")
    print("\n".join(report_lines(waits)))


if __name__ == "__main__":
    main()
