"""How long a person's key waits, in every mode of the app: every game against every search player,
watching, replaying, and the home screen.

Each mode is the real app as its command opens it (headless, 120×40, a store of its own): ``tcgtui
play`` of a two-seat game against each search or reference player home offers (the puzzle duel
against its puzzler, a one-seat game alone); ``tcgtui watch`` of the card game and of Connect Four;
``tcgtui replay`` of a stored card game and Connect Four game; and ``tcgtui`` (home) over a store
with those games, where a game started and left returns home.  A person presses the keys the
screen in front of them binds, drawn at random (seeded), at a quick person's pace (150–400 ms
apart; typing in a code or rule editor, 60–200 ms): moves, cards, answers, the rules, the
language, pause and step, the game-over dialog's rematch and board, the replay's steps, home's
lists.  Only the keys that would close the app are never pressed.  Each key is timed as
``tcgtui.perf._keys`` says: its wait from sent to taken, and the event loop's own processor time
within it (the wait on a machine with a core to spare).  Race mode has its own benchmark
(``race_keys``).

    tcgtui perf --only key_waits
    python -m tcgtui.perf.key_waits --seconds 20 --why connect4=mc:1000 duel=puzzler home
    python -m tcgtui.perf.key_waits watch:tcg=mc:100,mc:100 replay:connect4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.measure import Metric, PerfOptions
from tcgtui.perf._keys import KeyClock, Waits, played, report_lines

NAME = "key_waits"
ORDER = 63
ALONE = "-"
PLAY, WATCH, REPLAY, HOME = "play", "watch", "replay", "home"
CLOSING = {"ask_quit", "quit", "suspend_process"}     # the app's own quit, from any screen
CLOSING_KEYS = {"ctrl+c", "ctrl+q"}                   # ... whatever a screen binds them to
# Leaving a game, a replay or a watch closes the app opened for it; a game started from home returns there.
LEAVING = {"quit_game", "leave", "choose('quit')", "answer(True)"}
TYPED = "abcxyz 0123=+()<>.:\n"      # what a person types into an editor, a key at a time
PACE_S = (0.15, 0.4)                  # between two keys a person chooses
TYPING_S = (0.06, 0.2)                # between two keys typed
WATCHED = (("tcg", "mc:100,mc:100"), ("connect4", "mc:1000,mcts:1000"))
REPLAYED = ("tcg", "connect4")


@dataclass(frozen=True)
class Mode:
    kind: str               # PLAY, WATCH, REPLAY or HOME
    game: str = ""
    vs: str = ""            # PLAY: a player spec, or ALONE; WATCH: the two players, "P1,P2"

    @property
    def name(self) -> str:
        return {PLAY: f"{self.game}={self.vs}", WATCH: f"watch:{self.game}={self.vs}",
                REPLAY: f"replay:{self.game}", HOME: HOME}[self.kind]

    @classmethod
    def parse(cls, text: str) -> Mode:
        """``GAME=SPEC`` (``GAME=-`` alone), ``watch:GAME=P1,P2``, ``replay:GAME`` or ``home``."""
        kind, _, rest = text.partition(":") if text.startswith((f"{WATCH}:", f"{REPLAY}:")) else ("", "", text)
        game, _, vs = rest.partition("=")
        if text == HOME:
            return cls(HOME)
        if kind == REPLAY and game and not vs:
            return cls(REPLAY, game)
        if game and vs and (kind == WATCH) == ("," in vs):
            return cls(kind or PLAY, game, vs)
        raise ValueError(text)


QUICK = (Mode(PLAY, "connect4", "mc:1000"), Mode(PLAY, "eleusis", ALONE), Mode(HOME))


def modes() -> list[Mode]:
    """Every game a person can play in the app: against each search or reference player
    (``first_answer.players``), or the first other player it offers, or alone; then watching,
    replaying and home."""
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
            out.append(Mode(PLAY, spec.id, ALONE))
        elif any(g == spec.id for g, _ in searched):
            out += [Mode(PLAY, g, s) for g, s in searched if g == spec.id]
        else:
            offered = [s for s in opponents_for(spec.id) if s.split(":")[0] not in ("llm", "human", "")]
            out += [Mode(PLAY, spec.id, offered[0])] if offered else []
    return out + [Mode(WATCH, g, vs) for g, vs in WATCHED] + [Mode(REPLAY, g) for g in REPLAYED] + [Mode(HOME)]


def _typing(app: Any) -> bool:
    # start-up time: perf's modules load for `tcgtui perf --help`
    from textual.widgets import Input, TextArea
    return isinstance(app.focused, (Input, TextArea))


def _closes_app(app: Any, action: str, key: str) -> bool:
    if key in CLOSING_KEYS or action in CLOSING:
        return True
    if app.settings.hub is None:                        # opened for one game, replay or watch
        return action in LEAVING
    return action == "leave" and type(app.screen).__name__ == "HomeScreen"


def _keys_for(app: Any, rng: random.Random) -> str:
    """One key a person might press now: a binding of the screen in front of them (one of each
    action, so a letter's Arabic-layout twin does not count twice), or text into a focused editor."""
    if _typing(app) and rng.random() < 0.85:
        char = rng.choice(TYPED)
        return "enter" if char == "\n" else "space" if char == " " else char
    actions: dict[str, str] = {}
    for key, active in app.screen.active_bindings.items():
        if active.enabled and not _closes_app(app, active.binding.action, key):
            actions.setdefault(active.binding.action, key)
    if app.screen is not app.board and "escape" in actions.values() and rng.random() < 0.3:
        return "escape"          # back from the rules or a dialog, as a person soon does
    for key in ("left", "right", "up", "down", "enter"):
        actions.setdefault(f"({key})", key)      # focus moves and presses where no binding claims them
    return actions[rng.choice(sorted(actions))]


def _store_games(db: Path, seed: int) -> None:
    """One stored game of each replayed kind (``tcgtui bench``, random players), for replay and home."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.cli import main
    for game in REPLAYED:
        argv = ["bench", "--game", game, "--agent", "random", "--vs", "random", "--games", "1", "--seed", str(seed),
                "--db", str(db), "--run", f"perf-{game}", "--concurrency", "1"]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            if main(argv) != 0:
                raise RuntimeError(f"tcgtui {' '.join(argv)} failed")


def _app(mode: Mode, store: Any, seed: int) -> Any:
    """The app as the mode's command opens it."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.cli import build_parser
    from tcgtui.commands import watch as watch_command
    from tcgtui.commands.home import DEFAULT_VS, Hub
    from tcgtui.opponents.human import HUMAN
    from tcgtui.replay.load import load
    from tcgtui.tui.app import ArenaApp, Settings
    if mode.kind == PLAY:
        return played(["--game", mode.game, "--seed", str(seed), *(["--vs", mode.vs] if mode.vs != ALONE else [])],
                      store)
    if mode.kind == WATCH:
        p1, p2 = mode.vs.split(",")
        args = build_parser().parse_args(["watch", "--game", mode.game, "--p1", p1, "--p2", p2, "--seed", str(seed)])
        return ArenaApp(watch_command.prepare(args, store))
    if mode.kind == REPLAY:
        game_id = next(g.id for g in store.games() if g.game == mode.game)
        return ArenaApp(Settings(replay=load(store, game_id)))
    return ArenaApp(Settings(home=True, seed=seed, handle="perf", ask_handle=False, seats=(HUMAN, DEFAULT_VS),
                             hub=Hub(store, seed)))


async def press_keys(mode: Mode, seconds: float, seed: int, why: bool = False) -> Waits:
    """Keys for ``seconds`` into the app the mode's command opens, each one timed."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.store import Store
    from tcgtui.tui.driving import settle
    rng, waits = random.Random(seed), Waits()
    with tempfile.TemporaryDirectory(prefix="tcgtui-keys-") as folder:
        db = Path(folder) / "games.db"
        if mode.kind in (REPLAY, HOME):
            await asyncio.to_thread(_store_games, db, seed)     # bench runs its own event loop
        with Store(db) as store:
            app = _app(mode, store, seed)
            async with app.run_test(size=(120, 40)) as pilot:
                if app.board is not None:
                    await settle(pilot, app)
                for _ in range(3):
                    await pilot.pause(0.1)
                clock = KeyClock(app, waits, why)
                started = time.perf_counter()
                while time.perf_counter() - started < seconds and app.is_running:
                    key = _keys_for(app, rng)
                    clock.send(key)
                    await asyncio.sleep(rng.uniform(*(TYPING_S if len(key) == 1 and _typing(app) else PACE_S)))
                clock.stop()
    return waits


def _metric_name(mode: Mode) -> str:
    return "".join(c if c.isalnum() else "_" for c in mode.name.replace(":", "").replace("=-", "_alone"))


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    out: list[Metric] = []
    everything: list[float] = []
    chosen = list(QUICK) if options.quick else modes()
    for mode in chosen:
        waits = asyncio.run(press_keys(mode, 2.0 if options.quick else 10.0, options.seed))
        longest, key, _, work = waits.summary()
        everything += waits.keys
        name = _metric_name(mode)
        out.append(Metric(f"key_wait_{name}_ms", 1000 * longest, "ms",
                          text.t("perf_opponents.key_waits", mode=mode.name, keys=len(waits.keys), key=key)))
        out.append(Metric(f"key_wait_work_{name}_ms", 1000 * work, "ms", text.t("perf_opponents.key_waits_work")))
    out.append(Metric("key_wait_longest_ms", 1000 * max(everything, default=0.0), "ms",
                      text.t("perf_opponents.key_waits_all", modes=len(chosen), keys=len(everything))))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="The longest key wait in every mode of the app.")
    parser.add_argument("modes", nargs="*", help="GAME=SPEC (GAME=- alone), watch:GAME=P1,P2, replay:GAME or "
                        "home; all of them when none is given")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--why", action="store_true", help="where the loop's longest holds went")
    args = parser.parse_args()
    try:
        chosen = [Mode.parse(m) for m in args.modes] or modes()
    except ValueError as exc:
        sys.exit(f"tcgtui.perf.key_waits: {exc}: expected GAME=SPEC, GAME=-, watch:GAME=P1,P2, replay:GAME or home")
    for mode in chosen:
        waits = asyncio.run(press_keys(mode, args.seconds, args.seed, args.why))
        longest, key, p99, work = waits.summary()
        print(f"{mode.name:32} {len(waits.keys):4} keys   longest wait {1000 * longest:5.0f} ms ({key})   "
              f"p99 {1000 * p99:4.0f} ms   most loop work in one wait {1000 * work:4.0f} ms   "
              f"longest loop gap {1000 * waits.longest_gap():4.0f} ms", flush=True)
        if args.why:
            print("\n".join("    " + line for line in report_lines(waits)), flush=True)


if __name__ == "__main__":
    main()
