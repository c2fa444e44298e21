"""Does the board stay live while the opponent thinks?  The longest frame gap, measured.

The real app runs headless; a person's moves are key presses; a 60 Hz timer
records when the event loop gets to run it.  While the opponent is deciding
(``session.thinking``), every gap between two ticks is a moment the screen
could not redraw or take a key.  A well-behaved agent (search in a worker
thread or process) leaves gaps near the tick interval; one that computes on
the event loop shows its whole decision time as one gap.

    tcgtui perf --only tui_frames            # against mc:1000 where installed
    python -m tcgtui.perf.tui_frames --vs mc:1000 --moves 5
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time

from opponents.registry import BUILDERS
from opponents.spec import parse_spec
from tcgtui.packs import load_pack
from tcgtui.perf import Metric, PerfOptions
from tcgtui.tui.app import HUMAN, Settings, TcgApp
from tcgtui.tui.driving import settle

NAME = "tui_frames"
ORDER = 60
DEFAULT_VS = "mc:1000"
TICK = 1 / 60
ENV_VAR = "TCGTUI_PERF_VS"


async def measure(vs: str, moves: int, seed: int, size: tuple[int, int] = (120, 40)) -> dict[str, float]:
    """Play up to ``moves`` of the person's moves against ``vs``; gaps are taken only
    while ``vs`` is thinking (its ``decide`` is timed from outside)."""
    app = TcgApp(Settings(load_pack("community"), (HUMAN, vs), seed=seed, pause=0.0))
    ticks: list[float] = []
    spans: list[tuple[float, float]] = []      # when the opponent's decide() ran
    async with app.run_test(size=size) as pilot:
        assert app.board is not None
        session = app.board.session
        agent = session.seats[1].agent
        decide = agent.decide

        async def timed(obs, events):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            try:
                return await decide(obs, events)
            finally:
                spans.append((start, time.perf_counter()))

        agent.decide = timed  # type: ignore[method-assign]
        app.set_interval(TICK, lambda: ticks.append(time.perf_counter()))
        await settle(pilot, app)
        for _ in range(moves):
            if session.result is not None:
                break
            await pilot.press("enter")
            await settle(pilot, app)
        decisions = sum(1 for d in session.decisions if d.seat == 1)
        thinking_s = sum(d.seconds for d in session.decisions if d.seat == 1)
    # A gap counts if the opponent was thinking at any moment of it.
    gaps = [b - a for a, b in zip(ticks, ticks[1:]) if any(a < end and b > start for start, end in spans)]
    gaps.sort()
    return {"longest_ms": 1000 * gaps[-1] if gaps else math.nan,
            "p99_ms": 1000 * gaps[min(len(gaps) - 1, int(0.99 * len(gaps)))] if gaps else math.nan,
            "median_ms": 1000 * gaps[len(gaps) // 2] if gaps else math.nan,
            "ticks": float(len(gaps)), "decisions": float(decisions), "thinking_s": thinking_s}


def run(options: PerfOptions) -> list[Metric]:
    vs = str(options.extra.get("vs") or os.environ.get(ENV_VAR) or DEFAULT_VS)
    note = f"while {vs} thinks"
    if parse_spec(vs).kind not in BUILDERS:
        note = f"while random thinks ({vs} is not installed; set {ENV_VAR} or install it)"
        vs = "random"
    moves = 3 if options.quick else 8
    r = asyncio.run(measure(vs, moves, options.seed))
    detail = f"{note}; {int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking, {int(r['ticks'])} ticks"
    return [Metric("longest_frame_gap_ms", r["longest_ms"], "ms", detail),
            Metric("p99_frame_gap_ms", r["p99_ms"], "ms", note),
            Metric("median_frame_gap_ms", r["median_ms"], "ms", f"{note}; the timer asks for {TICK * 1000:.1f} ms")]


def main() -> None:
    parser = argparse.ArgumentParser(description="Longest frame gap of the TUI while an opponent thinks.")
    parser.add_argument("--vs", default=DEFAULT_VS)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    r = asyncio.run(measure(args.vs, args.moves, args.seed))
    print(f"{args.vs}: longest gap {r['longest_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
          f"median {r['median_ms']:.1f} ms over {int(r['ticks'])} ticks, "
          f"{int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking")


if __name__ == "__main__":
    main()
