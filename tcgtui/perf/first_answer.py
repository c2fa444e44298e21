"""How long a person waits for the opponent's first answer on a new install.

For each game and search player, a fresh interpreter opens the real app headless
with an empty numba cache; once the board waits for the person, the first move
is played with Enter (the card game's first card, the grid cursor's cell), and
the time runs until the opponent's answer is recorded.  The compile the empty
cache sets off runs meanwhile; the figure is what a person meets once.  The
longest gap of a 60 Hz timer over that wait says whether the screen stayed live.

    tcgtui perf --only first_answer
    python -m tcgtui.perf.first_answer gomoku=mc:100 tcg=mcts:1000
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from tcgtui import locales
from tcgtui.perf import Metric, PerfOptions

NAME = "first_answer"
ORDER = 31
# Every search player on every game that has one, at the levels a person is offered.
PLAYERS = (("tictactoe", "mc:1000"), ("tictactoe", "mcts:1000"), ("connect4", "mc:1000"),
           ("connect4", "mcts:1000"), ("connect4", "ab:8"), ("gomoku", "mc:100"), ("gomoku", "mcts:1000"),
           ("tcg", "mc:100"), ("tcg", "mc:1000"), ("tcg", "mcts:1000"))
QUICK = (("tictactoe", "mc:1000"), ("tcg", "mc:100"))
SCRIPT = """
import asyncio, sys, time
from tcgtui.tui.app import HUMAN, Settings, ArenaApp

async def main():
    app = ArenaApp(Settings((HUMAN, sys.argv[2]), game_id=sys.argv[1], seed=0, pause=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        while app.board is None or not app.board.is_mounted or app.board.session.human_waiting() is None:
            await asyncio.sleep(0.005)
        await pilot.pause()
        session, gaps = app.board.session, []
        async def tick():
            last = time.perf_counter()
            while True:
                await asyncio.sleep(1 / 60)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now
        ticker = asyncio.create_task(tick())
        moved, cpu = time.perf_counter(), time.process_time()
        await pilot.press("enter")
        while not any(d.seat == 1 for d in session.decisions):
            await asyncio.sleep(0.002)
        answered, cpu = time.perf_counter(), time.process_time() - cpu
        ticker.cancel()
        print("answer", answered - moved, flush=True)
        print("cpu", cpu, flush=True)
        print("gap", max(gaps, default=0.0), flush=True)

asyncio.run(main())
"""


def first_answer(game: str, spec: str, cache: str, env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """(seconds from the person's first move to the answer, the app's processor seconds over that
    wait (the compiling child's not counted), the longest frame gap meanwhile)."""
    run_env = {**os.environ, **(env or {}), "NUMBA_CACHE_DIR": cache}
    done = subprocess.run([sys.executable, "-c", SCRIPT, game, spec], env=run_env, check=True,
                          capture_output=True, text=True, timeout=600)
    out = dict(line.split() for line in done.stdout.splitlines() if line.startswith(("answer", "cpu", "gap")))
    return float(out["answer"]), float(out["cpu"]), float(out["gap"])


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    out = []
    for game, spec in QUICK if options.quick else PLAYERS:
        with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
            answer, cpu, gap = first_answer(game, spec, cache)
        key = f"{game}_{spec.replace(':', '')}"
        out.append(Metric(f"first_answer_{key}", answer, "s", text.t("perf_opponents.first_answer", game=game, spec=spec)))
        out.append(Metric(f"first_answer_cpu_{key}", cpu, "s", text.t("perf_opponents.first_answer_cpu")))
        out.append(Metric(f"first_answer_gap_{key}", gap * 1000, "ms", text.t("perf_opponents.first_answer_gap")))
    return out


if __name__ == "__main__":
    for item in sys.argv[1:] or [f"{g}={s}" for g, s in PLAYERS]:
        game, spec = item.split("=")
        with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
            answer, cpu, gap = first_answer(game, spec, cache)
        print(f"{game:10} {spec:10} first answer {answer:6.2f} s (processor {cpu:5.2f} s)   "
              f"longest frame gap {gap * 1000:6.0f} ms", flush=True)
