"""On a new install (an empty compile cache) the first screen comes before any compiling,
with a notice saying what happens and that it happens once (issue 12 §2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import asyncio, sys
from tcgtui.games.tcg.packs import load_pack
from tcgtui.tui.app import HUMAN, Settings, ArenaApp

async def main():
    app = ArenaApp(Settings((HUMAN, "mc:100"), params={"pack": load_pack("community")}, seed=0, pause=0.0,
                          lang=sys.argv[1]))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.board is None or not app.board.is_mounted:
            await asyncio.sleep(0.005)
        await pilot.pause()
        print("kernel", "tcgtui.engine.tcg.fast.kernel" in sys.modules)
        print("notice", " ".join(n.said.replace(chr(10), " ") for n in app._notifications))
        for _ in range(200):                    # the child compile has started
            if app.compiling is not None:
                break
            await asyncio.sleep(0.01)
        child = app.compiling.process
    print("stopped", child.poll() is not None)
    print("ready", app.search_ready.is_set())

asyncio.run(main())
"""


def _first_screen(tmp_path: Path, lang: str) -> dict[str, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-cache")}
    done = subprocess.run([sys.executable, "-c", SCRIPT, lang], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


def test_an_empty_cache_shows_the_board_and_a_notice_before_compiling(tmp_path: Path) -> None:
    out = _first_screen(tmp_path, "en")
    assert out["kernel"] == "False", "the compiled search was imported before the first screen"
    assert "compiling" in out["notice"].lower() and "once" in out["notice"], out["notice"]
    # How long it takes is measured by tcgtui perf --only cold_start (target 2 s), not here: what a
    # test can hold is that nothing compiled came before the first screen (above).
    # Leaving during the compile stops it, and no decision was let through unprepared.
    assert out["stopped"] == "True" and out["ready"] == "False"
    assert not (tmp_path / "empty-cache" / "compiled-tcg").exists()


def test_the_notice_is_in_arabic_too(tmp_path: Path) -> None:
    out = _first_screen(tmp_path, "ar")
    assert "مرة واحدة" in out["notice"], out["notice"]


ANSWER = """
import asyncio, sys
from tcgtui.tui.app import HUMAN, Settings, ArenaApp

async def main():
    app = ArenaApp(Settings((HUMAN, sys.argv[2]), game_id=sys.argv[1], seed=0, pause=0.0))
    async with app.run_test(size=(100, 30)) as pilot:
        while app.board is None or not app.board.is_mounted or app.board.session.human_waiting() is None:
            await asyncio.sleep(0.005)
        await pilot.press("enter")
        session = app.board.session
        while not any(d.seat == 1 for d in session.decisions):
            await asyncio.sleep(0.005)
        answer = next(d for d in session.decisions if d.seat == 1)
        print("compiling", app.compiling is not None and app.compiling.process.poll() is None)
        print("interim", answer.info.get("interim"))
        print("playouts", answer.info.get("playouts"))
        print("budget", answer.info.get("budget_s"), answer.info.get("budget_cut"), answer.info.get("done"),
              answer.info.get("asked"), len(answer.info.get("scores", ())))

asyncio.run(main())
"""


def test_an_empty_cache_does_not_hold_the_first_answer(tmp_path: Path) -> None:
    """The person's first move is answered while the compile still runs (the card game's takes
    20 s and more), by the same player on the interim path within the TUI's time budget, which
    the decision records (issue 26 item 4; the time is tcgtui perf's: --only first_answer)."""
    from tcgtui.opponents.search import INTERIM_BUDGET_S
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "empty-cache")}
    done = subprocess.run([sys.executable, "-c", ANSWER, "tcg", "mc:100"], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=300)
    out = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert out["compiling"] == "True" and out["interim"] == "True", out
    seconds, cut, done, asked, moves = out["budget"].split()
    assert float(seconds) == INTERIM_BUDGET_S and asked == "100" and int(moves) >= 2, out
    assert 1 <= int(done) <= 100 and (cut == "True") == (int(done) < 100), out
    assert int(out["playouts"]) == int(done) * int(moves), out        # as many playouts of every move
