"""Decision time of ``nmc:K`` (engine/tcg/nested.py) along whole games, as the bench and a person meet it.

Its playouts play ``mc:5`` at every turn, so a decision costs most in the
opening, when the playouts are longest: the figures are over every decision
between two cards or more in whole games against ``mc:100`` (seats
alternating), not over mid-game positions.  ``nmc:200`` under the TUI's time
budget is the wait a person has with the strongest player they meet (at home,
at the campaign's top).  One core; the compiled loop is loaded before the
clock starts.
"""

from __future__ import annotations

import asyncio

import numpy as np

from tcgtui import locales
from tcgtui.engine.tcg import TcgGame
from tcgtui.games.tcg.packs import load_pack
from tcgtui.match import run_match
from tcgtui.measure import Metric, PerfOptions
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.search import INTERIM_BUDGET_S

NAME = "nmc_decision"
ORDER = 21
SPECS = ("nmc:100", "nmc:150", "nmc:200", "nmc:300")
OPPONENT = "mc:100"
WAITED = "nmc:200"  # the player whose wait under the TUI's budget is timed


def _seconds(game: TcgGame, spec: str, games: int, seed: int, budget: float | None) -> list[float]:
    """Wall seconds of each of ``spec``'s decisions between two cards or more, over ``games`` games."""
    out: list[float] = []
    for g in range(games):
        options = {"interim_budget": budget} if budget else {}
        player = make_agent(spec, **options)
        agents = (player, make_agent(OPPONENT)) if g % 2 == 0 else (make_agent(OPPONENT), player)
        result = asyncio.run(run_match(game, seed + g, agents))
        state = game.new_state(seed + g)        # replayed, to know where there was a choice
        for d in result.decisions:
            if d.seat == g % 2 and len(state.legal_moves()) > 1:
                out.append(d.seconds)
            state.apply(d.move)
    return out


def _metrics(text, key: str, note_key: str, seconds: list[float], **params) -> list[Metric]:
    ms = np.array(seconds) * 1000
    note = text.t(note_key, decisions=len(ms), **params)
    return [Metric(f"{key}_p50", float(np.percentile(ms, 50)), "ms", note),
            Metric(f"{key}_p95", float(np.percentile(ms, 95)), "ms", note),
            Metric(f"{key}_max", float(ms.max()), "ms", note)]


def run(options: PerfOptions) -> list[Metric]:
    # the compiled kernel loads here, not when `tcgtui perf --help` lists this module
    from tcgtui.engine.tcg.fast.search import warm_up

    text = locales.load()
    game = TcgGame(load_pack("community"))
    warm_up(game)
    games = 2 if options.quick else 20
    metrics = []
    for spec in SPECS[:1] if options.quick else SPECS:
        seconds = _seconds(game, spec, games, options.seed, None)
        metrics += _metrics(text, spec.replace(":", "_"), "perf_opponents.nmc_games", seconds, spec=spec,
                            games=games, opponent=OPPONENT)
    seconds = _seconds(game, WAITED, games, options.seed, INTERIM_BUDGET_S)
    metrics += _metrics(text, f"{WAITED.replace(':', '_')}_tui_wait", "perf_opponents.nmc_wait", seconds,
                        spec=WAITED, games=games, opponent=OPPONENT, budget=INTERIM_BUDGET_S)
    return metrics
