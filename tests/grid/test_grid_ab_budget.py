"""``ab:D`` under the TUI's time budget (issue 26 items 4 and 6).

While a person waits, Connect Four's alpha-beta deepens one depth at a time and answers from the
deepest depth it completed once the budget is spent, recording the cut; within the depth it reached
it still takes the fastest win and holds out longest against a loss; given the time to finish, it
plays exactly the full-depth move; the bench's ab has no budget.  Budgets here run on clocks that a
look advances, so where a search stops is exact: nothing is timed (speed is ``tcgtui perf``'s).
"""

from __future__ import annotations

import asyncio
import itertools
import random

from tcgtui.engine import registry
from tcgtui.engine.grid import players
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.search import INTERIM_BUDGET_S, Budget
from tests.grid.test_grid_soonest import after, key, reachable


def ticking():
    """A clock that moves a second each time it is read."""
    counter = itertools.count()
    return lambda: float(next(counter))


def looks(n: int):
    """A stop() that says stop from its ``n``-th look on."""
    seen = itertools.count(1)
    return lambda: next(seen) >= n


def played(moves: int, seed: int):
    g = registry.get("connect4").game()
    s = g.new_state(0)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_moves()))
    return g, s


async def decide(spec: str, budget: Budget | None, moves: int = 2, seed: int = 4):
    g, s = played(moves, seed)
    agent = make_agent(spec, game=g)
    agent.budget = budget
    agent.start(SeatContext(s.to_move, 9, game=g))
    agent.begin_turn(moves)
    return s, await agent.decide(s.observation(s.to_move), [])


def test_cut_by_its_budget_ab_answers_from_the_deepest_depth_it_completed():
    """ab:14 with a budget spent after 40 looks stops well short of 14, plays a legal move, says it
    was cut, and plays what a full search to the depth it reached plays (same seat, same stream)."""
    s, cut = asyncio.run(decide("ab:14", Budget(39.5, clock=ticking())))
    done = cut.info["done"]
    assert cut.info["budget_cut"] is True and cut.info["asked"] == 14 and cut.info["budget_s"] == 39.5
    assert 1 <= done < 14 and cut.move in s.legal_moves()
    _, same = asyncio.run(decide(f"ab:{done}", None))
    assert cut.move == same.move and "budget_s" not in same.info


def test_on_the_real_clock_a_short_budget_stops_a_deep_search_short():
    """On the opening, depth 14 costs seconds of pure Python (about a million positions): a 50 ms budget
    ends with a shallower depth and a legal move, whatever the machine's speed."""
    s, cut = asyncio.run(decide("ab:14", Budget(0.05), moves=0))
    assert cut.info["budget_cut"] is True and 1 <= cut.info["done"] < cut.info["asked"] == 14
    assert cut.move in s.legal_moves()


def test_given_the_time_to_finish_the_budgeted_ab_plays_the_full_depth_move():
    for moves, seed in ((0, 1), (3, 2), (6, 3), (9, 4), (12, 5)):
        s, whole = asyncio.run(decide("ab:6", Budget(1e9, clock=ticking()), moves, seed))
        _, full = asyncio.run(decide("ab:6", None, moves, seed))
        assert whole.info["budget_cut"] is False and whole.info["done"] == whole.info["asked"] == 6
        assert whole.move == full.move, (moves, seed)


def test_the_bench_builds_ab_without_a_budget_and_plays_full_depth():
    s, bench = asyncio.run(decide("ab:6", None))
    assert set(bench.info) == {"cpu_s"}
    assert make_agent("ab:6").budget is None
    assert make_agent("ab:6", interim_budget=INTERIM_BUDGET_S).budget.seconds == INTERIM_BUDGET_S


def test_deepening_keeps_the_parity_of_its_depth_and_stopped_at_once_still_has_an_answer():
    g, s = played(0, 0)
    for depth, first in ((14, 2), (9, 1), (2, 2), (1, 1)):
        values, reached = players.deepening(s, depth, lambda: True)
        assert reached == first and set(values) == set(s.legal_moves())
    assert players.deepening(s, 7, lambda: False) == (players.ab_values(s, 7), 7)


def test_deepening_cut_at_any_depth_hurries_a_win_and_holds_out_a_loss_within_its_reach():
    """Positions near the end, cut after 1 to 7 looks at the stop (one before each depth after the
    first, and every POLL_NODES positions): whenever best play ends within the depth reached, the move reaches it,
    checked against the brute-force solver of test_grid_soonest.  Among them: a win at once taken
    over a slower one, a quicker win over a slower one, and a loss put off rather than met sooner."""
    at_once, hurried, held_out, checked = 0, 0, 0, 0
    for s in reachable("connect4", 200, 34, 2):          # test_grid_soonest's positions
        if s.is_terminal():
            continue
        options = {m: key(*after(s, m, "connect4")) for m in s.legal_moves()}
        best = max(options.values())
        plies = -best[1] if best[0] > 0 else best[1]
        for n in range(1, 8):
            values, reached = players.deepening(s, 14, looks(n))
            move = players._pick(values, random.Random(n))
            assert move in options
            if reached == 14 or best[0] == 0 or plies > reached:
                continue                   # not cut, or no end within the depth reached
            assert options[move] == best, (s.observation(s.to_move).board, n, reached, move, options)
            checked += 1
            same = {v for v in options.values() if v[0] == best[0]}
            at_once += best == (1, -1) and (1, -3) in same
            hurried += best[0] > 0 and best != (1, -1) and len(same) > 1
            held_out += best[0] < 0 and len(same) > 1
    assert checked > 100 and at_once > 0 and hurried > 0 and held_out > 0, (checked, at_once, hurried, held_out)


def test_the_tui_gives_a_deep_reference_the_budget_only_while_a_person_waits():
    from tcgtui.tui.app import ArenaApp, Settings       # Textual loads only for this test
    app = ArenaApp(Settings(("human", "ab:14"), game_id="connect4"))
    app.game = registry.get("connect4").game()
    assert app._agent("ab:14", 1, ("human", "ab:14")).budget.seconds == INTERIM_BUDGET_S
    assert app._agent("ab:14", 1, ("mc:100", "ab:14")).budget is None     # watch: nobody waiting
