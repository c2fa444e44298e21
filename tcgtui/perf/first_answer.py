"""How long a person waits for the opponent's first answer on a new install.

For each game and search player, a fresh interpreter opens the real app headless
with an empty numba cache; once the board waits for the person, the first move
is played with Enter (the card game's first card, the grid cursor's cell), and
the time runs until the opponent's answer is recorded.  The compile the empty
cache sets off runs meanwhile; the figure is what a person meets once.  The
longest gap of a 60 Hz timer over that wait says whether the screen stayed live.

Every player a person can pick is timed: the search levels and reference
players home offers for each two-seat game, and ``tcgtui play``'s default.  While
the compile runs, search players answer on the interim path within their budget
(``tcgtui.opponents.search.INTERIM_BUDGET_S``), and so does a reference player's deep
search (``ab:D`` deepens until it); the answer's ``interim`` and ``budget_cut`` are
printed with the time.

    tcgtui perf --only first_answer
    python -m tcgtui.perf.first_answer gomoku=mc:100 tcg=mcts:1000
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.measure import Metric, PerfOptions

NAME = "first_answer"
ORDER = 31
QUICK = (("tictactoe", "mc:1000"), ("tcg", "mc:100"))
NOT_TIMED = ("random", "llm", "human")      # no search to wait for (a model's time is its endpoint's)


def players() -> list[tuple[str, str]]:
    """(game, spec) for every player a person can pick against a two-seat game with search players:
    home's search levels and reference players, and ``tcgtui play``'s default."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.commands.play import DEFAULT_VS
    from tcgtui.engine import registry
    from tcgtui.opponents.spec import SpecError, check_supported, parse_spec
    from tcgtui.tui.screens.home import opponents_for
    def searched(game: registry.GameSpec) -> bool:
        try:
            check_supported(parse_spec("mc:1"), game)
        except SpecError:
            return False
        return game.info.seats == 2
    out = []
    for spec in filter(searched, registry.games()):
        for who in dict.fromkeys([DEFAULT_VS, *opponents_for(spec.id)]):
            try:
                parsed = parse_spec(who)
                check_supported(parsed, spec)
            except SpecError:
                continue               # the campaign, "llm:" (choose a model), a spec this game does not take
            if parsed.kind not in NOT_TIMED:
                out.append((spec.id, who))
    return out
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
        info = next(d for d in session.decisions if d.seat == 1).info or {}
        print("path", "interim" if info.get("interim") else "direct",
              "cut" if info.get("budget_cut") else "whole", flush=True)

asyncio.run(main())
"""


def first_answer(game: str, spec: str, cache: str, env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """(seconds from the person's first move to the answer, the app's processor seconds over that
    wait (the compiling child's not counted), the longest frame gap meanwhile, and how it answered:
    "interim whole" (all of its K or N on the interim path), "interim cut" (stopped by its budget), or
    "direct whole" (not on the interim path: compiled already, or a reference player, which compiles nothing),
    or "direct cut" (a reference player's search stopped by the budget))."""
    # start-up time: perf's modules load for `tcgtui perf --help`
    from tcgtui.engine import registry
    from tcgtui.opponents.spec import SpecError, check_supported, parse_spec
    try:
        check_supported(parse_spec(spec), registry.get(game))
    except (SpecError, LookupError) as exc:        # checked here: the app would wait for a board that never comes
        raise UserError(f"{game}={spec}: {clean(str(exc))}") from None
    run_env = {**os.environ, **(env or {}), "NUMBA_CACHE_DIR": cache}
    done = subprocess.run([sys.executable, "-c", SCRIPT, game, spec], env=run_env,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise UserError(f"{game}={spec}: {clean(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else '')}")
    out = dict(line.split(maxsplit=1) for line in done.stdout.splitlines()
               if line.startswith(("answer", "cpu", "gap", "path")))
    return float(out["answer"]), float(out["cpu"]), float(out["gap"]), out["path"]


def run(options: PerfOptions) -> list[Metric]:
    text = locales.load()
    out = []
    for game, spec in QUICK if options.quick else players():
        with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
            answer, cpu, gap, path = first_answer(game, spec, cache)
        key = f"{game}_{spec.replace(':', '')}"
        out.append(Metric(f"first_answer_{key}", answer, "s",
                          text.t("perf_opponents.first_answer", game=game, spec=spec, path=path)))
        out.append(Metric(f"first_answer_cpu_{key}", cpu, "s", text.t("perf_opponents.first_answer_cpu")))
        out.append(Metric(f"first_answer_gap_{key}", gap * 1000, "ms", text.t("perf_opponents.first_answer_gap")))
    return out


def main() -> None:
    for item in sys.argv[1:] or [f"{g}={s}" for g, s in players()]:
        game, _, spec = item.partition("=")
        with tempfile.TemporaryDirectory(prefix="tcgtui-numba-") as cache:
            try:
                answer, cpu, gap, path = first_answer(game, spec, cache)
            except UserError as exc:
                raise SystemExit(f"tcgtui.perf.first_answer: {exc} (expected GAME=SPEC)") from None
        print(f"{game:10} {spec:10} first answer {answer:6.2f} s (processor {cpu:5.2f} s)   "
              f"longest frame gap {gap * 1000:6.0f} ms   {path}", flush=True)


if __name__ == "__main__":
    main()
