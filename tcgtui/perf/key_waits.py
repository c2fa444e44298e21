"""How long a person's key waits, in every game a person can play, against every search player.

Each mode is the real app as ``tcgtui play`` opens it (headless, 120×40, its own store): a
two-seat game against each search or reference player home offers (and the puzzle duel
against its puzzler), a one-seat game alone.  A person presses the keys the screen in front of
them binds, drawn at random (seeded), at a quick person's pace (150–400 ms apart; typing in a
code or rule editor, 60–200 ms): moves, cards, answers, the rules, the language, pause and step,
the game-over dialog's rematch and board.  Only the keys that leave the game are never pressed.  Each key is timed as
``tcgtui.perf._keys`` says: its wait from sent to taken, and the event loop's own processor time
within it (the wait on a machine with a core to spare).  Race mode has its own benchmark
(``race_keys``).

    tcgtui perf --only key_waits
    python -m tcgtui.perf.key_waits --seconds 20 --why connect4=mc:1000 duel=puzzler
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.perf import Metric, PerfOptions
from tcgtui.perf._keys import KeyClock, Waits, report_lines

NAME = "key_waits"
ORDER = 63
ALONE = "-"
QUICK = (("connect4", "mc:1000"), ("eleusis", ALONE))
LEAVING = {"ask_quit", "quit", "quit_game", "leave", "choose('quit')", "answer(True)", "suspend_process"}
LEAVING_KEYS = {"ctrl+c", "ctrl+q"}           # the app's own quit, whatever a screen binds them to
TYPED = "abcxyz 0123=+()<>.:\n"      # what a person types into an editor, a key at a time
PACE_S = (0.15, 0.4)                  # between two keys a person chooses
TYPING_S = (0.06, 0.2)                # between two keys typed


@dataclass
class Mode:
    game: str
    vs: str                 # a player spec, or ALONE

    @property
    def name(self) -> str:
        return f"{self.game}={self.vs}"


def modes() -> list[Mode]:
    """Every game a person can play in the app: against each search or reference player
    (``first_answer.players``), or the first other player it offers, or alone."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.engine import registry
    from tcgtui.perf.first_answer import players
    from tcgtui.tui.games import has_screen
    from tcgtui.tui.screens.home import opponents_for
    searched = players()
    out: list[Mode] = []
    for spec in registry.games():
        if not has_screen(spec.id):
            continue
        if spec.info.seats == 1:
            out.append(Mode(spec.id, ALONE))
        elif any(g == spec.id for g, _ in searched):
            out += [Mode(g, s) for g, s in searched if g == spec.id]
        else:
            offered = [s for s in opponents_for(spec.id) if s.split(":")[0] not in ("llm", "human", "")]
            out += [Mode(spec.id, offered[0])] if offered else []
    return out


def _typing(app: Any) -> bool:
    # start-up time: perf's modules load for `tcgtui perf --help`
    from textual.widgets import Input, TextArea
    return isinstance(app.focused, (Input, TextArea))


def _keys_for(app: Any, rng: random.Random) -> str:
    """One key a person might press now: a binding of the screen in front of them (one of each
    action, so a letter's Arabic-layout twin does not count twice), or text into a focused editor."""
    if _typing(app) and rng.random() < 0.85:
        char = rng.choice(TYPED)
        return "enter" if char == "\n" else "space" if char == " " else char
    actions: dict[str, str] = {}
    for key, active in app.screen.active_bindings.items():
        if active.enabled and active.binding.action not in LEAVING and key not in LEAVING_KEYS:
            actions.setdefault(active.binding.action, key)
    if app.screen is not app.board and "escape" in actions.values() and rng.random() < 0.3:
        return "escape"          # back to the board from the rules or a dialog, as a person soon does
    for key in ("left", "right", "up", "down", "enter"):
        actions.setdefault(f"({key})", key)      # focus moves and presses where no binding claims them
    return actions[rng.choice(sorted(actions))]


async def press_keys(mode: Mode, seconds: float, seed: int, why: bool = False) -> Waits:
    """Keys for ``seconds`` into the app ``tcgtui play`` opens for ``mode``, each one timed."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.cli import build_parser
    from tcgtui.commands import play as play_command
    from tcgtui.store import Store
    from tcgtui.tui.app import ArenaApp
    from tcgtui.tui.driving import settle
    argv = ["play", "--game", mode.game, "--seed", str(seed), "--name", "perf", "--pause", "0",
            *(["--vs", mode.vs] if mode.vs != ALONE else [])]
    args = build_parser().parse_args(argv)
    rng, waits = random.Random(seed), Waits()
    with tempfile.TemporaryDirectory(prefix="tcgtui-keys-") as folder, Store(Path(folder) / "games.db") as store:
        app = ArenaApp(play_command.seat(play_command.start(args, "perf"), args, store, "perf"))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            clock = KeyClock(app, waits, why)
            started = time.perf_counter()
            while time.perf_counter() - started < seconds and app.is_running:
                key = _keys_for(app, rng)
                clock.send(key)
                await asyncio.sleep(rng.uniform(*(TYPING_S if len(key) == 1 and _typing(app) else PACE_S)))
            clock.stop()
    return waits


def _summary(waits: Waits) -> tuple[float, str, float, float]:
    """(the longest wait, the key that waited it, the p99 wait, the most loop work in one wait), seconds."""
    if not waits.keys:
        return 0.0, "-", 0.0, 0.0
    worst = max(range(len(waits.keys)), key=waits.keys.__getitem__)
    ordered = sorted(waits.keys)
    return waits.keys[worst], waits.taken[worst], ordered[int(0.99 * (len(ordered) - 1))], max(waits.work)


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    out: list[Metric] = []
    everything: list[float] = []
    chosen = [Mode(g, s) for g, s in QUICK] if options.quick else modes()
    for mode in chosen:
        waits = asyncio.run(press_keys(mode, 2.0 if options.quick else 10.0, options.seed))
        longest, key, _, work = _summary(waits)
        everything += waits.keys
        name = mode.name.replace("=", "_").replace(":", "").replace("-", "alone") if mode.vs == ALONE \
            else mode.name.replace("=", "_").replace(":", "")
        out.append(Metric(f"key_wait_{name}_ms", 1000 * longest, "ms",
                          text.t("perf_opponents.key_waits", mode=mode.name, keys=len(waits.keys), key=key)))
        out.append(Metric(f"key_wait_work_{name}_ms", 1000 * work, "ms", text.t("perf_opponents.key_waits_work")))
    out.append(Metric("key_wait_longest_ms", 1000 * max(everything, default=0.0), "ms",
                      text.t("perf_opponents.key_waits_all", modes=len(chosen), keys=len(everything))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="The longest key wait in every game a person can play.")
    parser.add_argument("modes", nargs="*", help="GAME=SPEC (GAME=- alone); all of them when none is given")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--why", action="store_true", help="where the loop's longest holds went")
    args = parser.parse_args()
    chosen = [Mode(*m.split("=", 1)) for m in args.modes if "=" in m] or modes()
    if len(chosen) != len(args.modes or chosen):
        sys.exit("tcgtui.perf.key_waits: expected GAME=SPEC (GAME=- to play alone)")
    for mode in chosen:
        waits = asyncio.run(press_keys(mode, args.seconds, args.seed, args.why))
        longest, key, p99, work = _summary(waits)
        print(f"{mode.name:22} {len(waits.keys):4} keys   longest wait {1000 * longest:5.0f} ms ({key})   "
              f"p99 {1000 * p99:4.0f} ms   most loop work in one wait {1000 * work:4.0f} ms   "
              f"longest loop gap {1000 * waits.longest_gap():4.0f} ms", flush=True)
        if args.why:
            print("\n".join("    " + line for line in report_lines(waits)), flush=True)


if __name__ == "__main__":
    main()
