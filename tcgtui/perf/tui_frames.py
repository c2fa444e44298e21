"""Does the board stay live while the opponent thinks?  The longest frame gap, measured.

The real app runs headless; a person's moves are key presses; a 60 Hz timer
records when the event loop gets to run it.  While the opponent is deciding
(``session.thinking``), every gap between two ticks is a moment the screen
could not redraw or take a key.  A well-behaved agent (search in a worker
thread or process) leaves gaps near the tick interval; one that computes on
the event loop shows its whole decision time as one gap.

    tcgtui perf --only tui_frames            # against mc:1000 where installed
    python -m tcgtui.perf.tui_frames --vs mc:1000 --decisions 20
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time

from tcgtui.opponents.registry import BUILDERS
from tcgtui.opponents.spec import parse_spec
from tcgtui.packs import load_pack
from tcgtui.perf import Metric, PerfOptions
from tcgtui.tui.app import HUMAN, Settings, TcgApp
from tcgtui.tui.driving import settle

NAME = "tui_frames"
ORDER = 60
DEFAULT_VS = "mc:1000"
TICK = 1 / 60
ENV_VAR = "TCGTUI_PERF_VS"


def _time_decisions(agent: object, spans: list[tuple[float, float]]) -> None:
    """Record when ``agent.decide`` runs, from outside the agent."""
    decide = agent.decide  # type: ignore[attr-defined]

    async def timed(obs, events):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return await decide(obs, events)
        finally:
            spans.append((start, time.perf_counter()))

    agent.decide = timed  # type: ignore[attr-defined]


async def measure(vs: str, decisions: int, seed: int, size: tuple[int, int] = (120, 40)) -> dict[str, float]:
    """Play (with rematches) until ``vs`` has made ``decisions`` decisions; ticks are
    looked at only around them."""
    app = TcgApp(Settings((HUMAN, vs), params={"pack": load_pack("community")}, seed=seed, pause=0.0))
    ticks: list[float] = []
    spans: list[tuple[float, float]] = []      # when the opponent's decide() ran
    thinking_s = 0.0
    async with app.run_test(size=size) as pilot:
        app.set_interval(TICK, lambda: ticks.append(time.perf_counter()))
        while len(spans) < decisions:
            board = app.board
            assert board is not None
            _time_decisions(board.session.seats[1].agent, spans)
            await settle(pilot, app)
            while board.session.result is None and len(spans) < decisions:
                await pilot.press("enter")
                await settle(pilot, app)
            thinking_s += sum(d.seconds for d in board.session.decisions if d.seat == 1)
            if board.session.result is not None and len(spans) < decisions:
                await pilot.press("r")             # a rematch: the next seed
                await pilot.pause()
    pairs = list(zip(ticks, ticks[1:]))
    # What a person sees: any gap while the opponent was thinking at some moment of it.
    seen = sorted(b - a for a, b in pairs if any(a < end and b > start for start, end in spans))
    # What the thinking itself cost: the part of each gap inside a decision.
    inside = [max((min(b, end) - max(a, start) for start, end in spans), default=0.0) for a, b in pairs]
    return {"longest_ms": 1000 * seen[-1] if seen else math.nan,
            "p99_ms": 1000 * seen[min(len(seen) - 1, int(0.99 * len(seen)))] if seen else math.nan,
            "median_ms": 1000 * seen[len(seen) // 2] if seen else math.nan,
            "inside_ms": 1000 * max(inside, default=math.nan),
            "ticks": float(len(seen)), "decisions": float(len(spans)), "thinking_s": thinking_s}


def run(options: PerfOptions) -> list[Metric]:
    vs = str(options.extra.get("vs") or os.environ.get(ENV_VAR) or DEFAULT_VS)
    note = f"while {vs} thinks"
    if parse_spec(vs).kind not in BUILDERS:
        note = f"while random thinks ({vs} is not installed; set {ENV_VAR} or install it)"
        vs = "random"
    r = asyncio.run(measure(vs, 3 if options.quick else 20, options.seed))
    detail = f"{note}; {int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking, {int(r['ticks'])} ticks"
    return [Metric("longest_frame_gap_ms", r["longest_ms"], "ms", detail),
            Metric("p99_frame_gap_ms", r["p99_ms"], "ms", note),
            Metric("median_frame_gap_ms", r["median_ms"], "ms", f"{note}; the timer asks for {TICK * 1000:.1f} ms"),
            Metric("longest_blocked_while_thinking_ms", r["inside_ms"], "ms",
                   f"{note}: the part of a gap inside a decision (redraws after a move excluded)")]


def main() -> None:
    parser = argparse.ArgumentParser(description="Longest frame gap of the TUI while an opponent thinks.")
    parser.add_argument("--vs", default=DEFAULT_VS)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    r = asyncio.run(measure(args.vs, args.decisions, args.seed))
    print(f"{args.vs}: longest gap {r['longest_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
          f"median {r['median_ms']:.1f} ms over {int(r['ticks'])} ticks; longest inside a decision "
          f"{r['inside_ms']:.1f} ms; {int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking")


if __name__ == "__main__":
    main()
