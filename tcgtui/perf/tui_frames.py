"""Does the board stay live while the opponent thinks?  The longest frame gap, measured.

The real app runs headless; a person's moves are key presses; a 60 Hz timer
records when the event loop gets to run it.  While the opponent is deciding
(``session.thinking``), every gap between two ticks is a moment the screen
could not redraw or take a key.  A well-behaved agent (search in a worker
thread or process) leaves gaps near the tick interval; one that computes on
the event loop shows its whole decision time as one gap.

    tcgtui perf --only tui_frames            # against mc:1000 where installed
    python -m tcgtui.perf.tui_frames --vs mc:1000 --decisions 20
    python -m tcgtui.perf.tui_frames --vs mc:100 --games 10   # one line per game
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from tcgtui.opponents.registry import BUILDERS
from tcgtui.opponents.spec import parse_spec
from tcgtui.games.tcg.packs import load_pack
from tcgtui.measure import Metric, PerfOptions
from tcgtui.tui.app import HUMAN, Settings, ArenaApp
from tcgtui.tui.driving import settle

NAME = "tui_frames"
ORDER = 60
DEFAULT_VS = "mc:1000"
TICK = 1 / 60
ENV_VAR = "TCGTUI_PERF_VS"
GAMES = 10                 # the many-games mode: games in one app session


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


@dataclass
class GameFigures:
    """One game of a session: what a person felt and what the process held after it."""
    longest_ms: float          # the longest frame gap while the opponent thought
    rss_mb: float              # resident memory once the game was over
    cpu_per_move_s: float      # process CPU time over the game, per decision of either seat
    moves: int


def rss_mb() -> float:
    """Resident memory now (Linux ``/proc``); the peak where that is missing."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        # POSIX-only fallback where /proc is missing
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _gaps(ticks: list[float], spans: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    """Gaps a person saw (any gap touching a decision) and the part of each inside one."""
    pairs = list(zip(ticks, ticks[1:]))
    seen = sorted(b - a for a, b in pairs if any(a < end and b > start for start, end in spans))
    inside = [max((min(b, end) - max(a, start) for start, end in spans), default=0.0) for a, b in pairs]
    return seen, inside


async def play(vs: str, seed: int, *, decisions: int | None = None, games: int | None = None,
               size: tuple[int, int] = (120, 40)) -> tuple[dict[str, float], list[GameFigures]]:
    """Play in one app session, with rematches, until ``vs`` has made ``decisions``
    decisions or ``games`` games are over; ticks are looked at only around decisions."""
    app = ArenaApp(Settings((HUMAN, vs), params={"pack": load_pack("community")}, seed=seed, pause=0.0))
    ticks: list[float] = []
    spans: list[tuple[float, float]] = []      # when the opponent's decide() ran
    per_game: list[GameFigures] = []
    thinking_s = 0.0

    def more() -> bool:
        return len(spans) < decisions if decisions is not None else len(per_game) < (games or 1)

    async with app.run_test(size=size) as pilot:
        app.set_interval(TICK, lambda: ticks.append(time.perf_counter()))
        while more():
            board = app.board
            assert board is not None
            first_tick, first_span, cpu = len(ticks), len(spans), time.process_time()
            _time_decisions(board.session.seats[1].agent, spans)
            await settle(pilot, app)
            while board.session.result is None and (decisions is None or len(spans) < decisions):
                await pilot.press("enter")
                await settle(pilot, app)
            thinking_s += sum(d.seconds for d in board.session.decisions if d.seat == 1)
            if board.session.result is not None:
                seen, _ = _gaps(ticks[first_tick:], spans[first_span:])
                moves = len(board.session.decisions)
                per_game.append(GameFigures(1000 * seen[-1] if seen else math.nan, rss_mb(),
                                            (time.process_time() - cpu) / max(1, moves), moves))
            if board.session.result is not None and more():
                await pilot.press("r")             # a rematch: the next seed
                await pilot.pause()
    seen, inside = _gaps(ticks, spans)
    summary = {"longest_ms": 1000 * seen[-1] if seen else math.nan,
               "p99_ms": 1000 * seen[min(len(seen) - 1, int(0.99 * len(seen)))] if seen else math.nan,
               "median_ms": 1000 * seen[len(seen) // 2] if seen else math.nan,
               "inside_ms": 1000 * max(inside, default=math.nan),
               "ticks": float(len(seen)), "decisions": float(len(spans)), "thinking_s": thinking_s}
    return summary, per_game


async def measure(vs: str, decisions: int, seed: int, size: tuple[int, int] = (120, 40)) -> dict[str, float]:
    """Frame gaps over ``decisions`` decisions of ``vs`` (with as many rematches as it takes)."""
    return (await play(vs, seed, decisions=decisions, size=size))[0]


def _many_games(figures: list[GameFigures], note: str) -> list[Metric]:
    """The first game against the last: a TUI that keeps what it no longer needs slows and grows."""
    first, last = figures[0], figures[-1]
    worst = max(f.longest_ms for f in figures)
    games = f"{note}; {len(figures)} games in one session"
    return [Metric("first_game_longest_gap_ms", first.longest_ms, "ms", games),
            Metric("last_game_longest_gap_ms", last.longest_ms, "ms", games),
            Metric("worst_game_longest_gap_ms", worst, "ms", games),
            Metric("first_game_rss_mb", first.rss_mb, "MB", f"{games}; after the game"),
            Metric("last_game_rss_mb", last.rss_mb, "MB", f"{games}; after the game"),
            Metric("first_game_cpu_per_move_ms", 1000 * first.cpu_per_move_s, "ms", f"{games}; both seats' moves"),
            Metric("last_game_cpu_per_move_ms", 1000 * last.cpu_per_move_s, "ms", f"{games}; both seats' moves")]


def run(options: PerfOptions) -> list[Metric]:
    vs = str(options.extra.get("vs") or os.environ.get(ENV_VAR) or DEFAULT_VS)
    note = f"while {vs} thinks"
    if parse_spec(vs).kind not in BUILDERS:
        note = f"while random thinks ({vs} is not installed; set {ENV_VAR} or install it)"
        vs = "random"
    r = asyncio.run(measure(vs, 3 if options.quick else 20, options.seed))
    detail = f"{note}; {int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking, {int(r['ticks'])} ticks"
    gaps = [Metric("longest_frame_gap_ms", r["longest_ms"], "ms", detail),
            Metric("p99_frame_gap_ms", r["p99_ms"], "ms", note),
            Metric("median_frame_gap_ms", r["median_ms"], "ms", f"{note}; the timer asks for {TICK * 1000:.1f} ms"),
            Metric("longest_blocked_while_thinking_ms", r["inside_ms"], "ms",
                   f"{note}: the part of a gap inside a decision (redraws after a move excluded)")]
    games = int(options.extra.get("games") or (2 if options.quick else GAMES))
    _, figures = asyncio.run(play(vs, options.seed, games=games))
    return gaps + _many_games(figures, note)


def main() -> None:
    parser = argparse.ArgumentParser(description="Longest frame gap of the TUI while an opponent thinks.")
    parser.add_argument("--vs", default=DEFAULT_VS)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--games", type=int, default=0, help="play this many games in one session instead, "
                        "and report each game's longest gap, memory and CPU per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.games > 0:
        _, figures = asyncio.run(play(args.vs, args.seed, games=args.games))
        for n, f in enumerate(figures, 1):
            print(f"game {n}: longest gap {f.longest_ms:.1f} ms, RSS {f.rss_mb:.1f} MB, "
                  f"CPU {1000 * f.cpu_per_move_s:.1f} ms per move over {f.moves} moves")
        return
    r = asyncio.run(measure(args.vs, args.decisions, args.seed))
    print(f"{args.vs}: longest gap {r['longest_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
          f"median {r['median_ms']:.1f} ms over {int(r['ticks'])} ticks; longest inside a decision "
          f"{r['inside_ms']:.1f} ms; {int(r['decisions'])} decisions, {r['thinking_s']:.1f} s thinking")


if __name__ == "__main__":
    main()
