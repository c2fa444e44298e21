"""The interim path's time budget (issue 26 item 4): while the compiled search compiles, a person's
search opponent stops at its budget and plays the best move after the work done, and says so in the
decision; the bench (no budget, no compile event) always does the whole K or N.

The clock is a counter the tests advance, so when a budget runs out is exact: no test here times anything.
"""

from __future__ import annotations

import asyncio
import itertools
import threading

import pytest

from tcgtui.engine import registry
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.search import BATCH_PLAYOUTS, BUDGET_UNITS, Budget, Progress, growing, run_batches


def ticking(per_call: float = 1.0):
    """A clock that moves ``per_call`` seconds each time it is read."""
    counter = itertools.count()
    return lambda: next(counter) * per_call


def cut_after(batches: int) -> Budget:
    """A budget spent at the check after ``batches`` batches (start reads 0; check j reads j)."""
    return Budget(batches - 0.5, clock=ticking())


def test_batches_stop_once_the_budget_is_spent_and_the_first_always_runs() -> None:
    ran: list[int] = []

    def work(task: int) -> int:
        ran.append(task)
        return task * 10

    budget = cut_after(3)
    budget.start()
    progress = Progress()
    out = asyncio.run(run_batches(work, list(range(8)), None, progress, [2] * 8, budget=budget))
    assert out == [0, 10, 20] and ran == [0, 1, 2] and progress.done == 6 and progress.total == 16
    spent = Budget(0.0, clock=ticking())
    spent.start()
    assert asyncio.run(run_batches(work, [5, 6], None, Progress(), [1, 1], budget=spent)) == [50]
    assert asyncio.run(run_batches(work, [1, 2], None, Progress(), [1, 1])) == [10, 20]    # no budget: all


def test_batches_under_a_budget_double_up_to_the_usual_size_and_cover_the_total() -> None:
    assert growing(100, 8, 32) == [(0, 8), (8, 16), (24, 32), (56, 32), (88, 12)]
    assert growing(5, 0, 0) == [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1)]       # at least one unit each
    assert growing(3, 64, 256) == [(0, 3)]


def test_a_budget_says_whether_it_cut_the_search() -> None:
    budget = Budget(1.0)
    assert budget.describe(40, 100) == {"budget_s": 1.0, "budget_cut": True, "done": 40, "asked": 100}
    assert budget.describe(100, 100)["budget_cut"] is False


def position(gid: str, moves: int, seed: int):
    import random
    g = registry.get(gid).game({})
    s = g.new_state(0)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_moves()))
    return g, s


async def _decide(gid: str, spec: str, compiled: threading.Event | None, budget: Budget | None,
                  moves: int = 2):
    g, s = position(gid, moves, 4)
    agent = make_agent(spec, game=g, compiled=compiled)
    agent.interim_budget = budget
    agent.start(SeatContext(s.to_move, 9, game=g))
    agent.begin_turn(moves)
    return await agent.decide(s.observation(s.to_move), [])


def test_mc_cut_by_its_budget_plays_what_mc_with_the_playouts_done_plays() -> None:
    """Each batch plays as many playouts of every move, from the same streams as mc:K's first
    ones: cut after 2 batches, the scores are exactly mc:n's for the n playouts done."""
    compiling = threading.Event()
    cut = asyncio.run(_decide("connect4", "mc:1000", compiling, cut_after(2)))
    first = BUDGET_UNITS // 7                      # connect4's 7 columns; the second batch is twice the first
    done = first + 2 * first
    assert cut.info["interim"] is True and cut.info["budget_cut"] is True
    assert (cut.info["done"], cut.info["asked"], cut.info["budget_s"]) == (done, 1000, 1.5)
    assert cut.info["playouts"] == done * 7
    same = asyncio.run(_decide("connect4", f"mc:{done}", compiling, None))
    assert cut.move == same.move and cut.info["scores"] == same.info["scores"]


def test_mc_within_its_budget_does_the_whole_k() -> None:
    whole = asyncio.run(_decide("tictactoe", "mc:40", threading.Event(), Budget(1e9, clock=ticking())))
    unbudgeted = asyncio.run(_decide("tictactoe", "mc:40", threading.Event(), None))
    assert whole.info["budget_cut"] is False and whole.info["done"] == 40
    assert whole.info["scores"] == unbudgeted.info["scores"] and whole.move == unbudgeted.move


@pytest.mark.parametrize("spec", ["mc:300", "mcts:300"])
def test_the_compiled_path_never_uses_the_budget(spec: str) -> None:
    """The bench builds agents with no compile event (and no budget): even a spent budget is not
    looked at once the compiled path may be used, so the bench's results never depend on speed."""
    spent = Budget(0.0, clock=ticking())
    bench = asyncio.run(_decide("connect4", spec, None, spent))
    ready = threading.Event()
    ready.set()
    compiled = asyncio.run(_decide("connect4", spec, ready, spent))
    for decision in (bench, compiled):
        assert "interim" not in decision.info and "budget_s" not in decision.info
    assert bench.info["scores"] == compiled.info["scores"]
    if spec.startswith("mc:"):
        assert bench.info["playouts"] == 300 * 7
    else:
        assert bench.info["iterations"] == 300 and sum(bench.info["visits"].values()) == 300


def test_mcts_cut_by_its_budget_plays_the_most_visited_move_of_the_smaller_tree() -> None:
    compiling = threading.Event()
    cut = asyncio.run(_decide("connect4", "mcts:1024", compiling, cut_after(3)))
    assert cut.info["interim"] is True and cut.info["budget_cut"] is True
    done = sum(min(BUDGET_UNITS * 2 ** j, BATCH_PLAYOUTS // 8) for j in range(3))
    assert cut.info["done"] == cut.info["iterations"] == done == 448
    assert sum(cut.info["visits"].values()) == done
    same = asyncio.run(_decide("connect4", f"mcts:{done}", compiling, None))
    assert cut.move == same.move and cut.info["visits"] == same.info["visits"]


def test_the_tui_gives_search_players_a_budget_and_the_bench_does_not() -> None:
    from tcgtui.opponents.search import INTERIM_BUDGET_S
    tui = make_agent("mcts:100", compiled=threading.Event(), interim_budget=INTERIM_BUDGET_S)
    assert tui.interim_budget is not None and tui.interim_budget.seconds == INTERIM_BUDGET_S
    assert make_agent("mc:100", executor=None, log_prompts=False).interim_budget is None


@pytest.mark.parametrize("spec", ["mc:30", "mcts:200"])
def test_through_the_rules_a_budget_cuts_a_few_python_playouts_at_a_time(spec: str, community) -> None:
    """The card game has no interim kernel: its interim search plays Python playouts through the
    rules, milliseconds each, so a batch under a budget is a few of them (BUDGET_CORE_UNITS), and
    batches do not grow."""
    from tcgtui.opponents.search import BUDGET_CORE_UNITS
    from tests.test_opponents_agents import decide, lethal
    state = lethal(community)                    # three legal moves; Direct Strike wins at once
    agent = make_agent(spec, compiled=threading.Event())
    agent.interim_budget = cut_after(2)
    cut = decide(agent, state)
    assert cut.info["interim"] is True and cut.info["budget_cut"] is True
    if spec.startswith("mc:"):
        per_move = 2 * max(1, BUDGET_CORE_UNITS // 3)
        assert cut.info["done"] == per_move and cut.info["playouts"] == 3 * per_move
        assert cut.move == "direct_strike" and cut.info["scores"]["direct_strike"] == 1.0
    else:
        assert cut.info["done"] == sum(cut.info["visits"].values()) == 2 * BUDGET_CORE_UNITS
