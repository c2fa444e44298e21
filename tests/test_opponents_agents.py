"""The search agents: specs, sound choices, seeded ties, cancellation, reproducibility."""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from tcgtui.engine.tcg import TcgGame, TcgState
from tcgtui.engine.tcg.state import Champion
from tcgtui.opponents.base import AgentError, SeatContext
from tcgtui.opponents.ismcts import ISMCTSAgent
from tcgtui.opponents.montecarlo import MonteCarloAgent
from tcgtui.opponents.registry import make_agent
from tcgtui.opponents.spec import AgentSpec, SpecError, expand_specs, parse_spec
from tcgtui.match import run_match


def position(pack, hands, boards, lp, turn=9, current=0) -> TcgState:
    """A hand-made position: the named cards in hand and on board (summoned on turn 1),
    every other card in its owner's deck; no tricks, empty graves."""
    s = TcgState.new(pack, 0)
    ids = pack.index
    for p in (0, 1):
        used = [ids[c] for c in hands[p] + boards[p]]
        s.hands[p] = [ids[c] for c in hands[p]]
        s.boards[p] = [Champion(ids[c], pack.card(c).power, pack.card(c).guard, 1) for c in boards[p]]
        s.decks[p] = [i for i in range(len(pack.cards)) if i not in used]
        s.tricks[p], s.graves[p] = [], []
    s.lp, s.turn, s.current = list(lp), turn, current
    return s


def decide(agent, state: TcgState, seed: int = 0):
    seat = state.current
    agent.start(SeatContext(seat, seed, game=TcgGame(state.pack)))
    if agent.omniscient:
        agent.see_state(state.clone())
    return asyncio.run(agent.decide(state.observation(seat), []))


# --- specs --------------------------------------------------------------------------------

def test_specs_parse_and_build():
    assert parse_spec("mc:5") == AgentSpec("mc", 5)
    assert parse_spec("mc:1000:peek") == AgentSpec("mc", 1000, peek=True)
    assert parse_spec("mcts:400") == AgentSpec("mcts", 400)
    assert [str(s) for s in expand_specs("mc:1,2,5")] == ["mc:1", "mc:2", "mc:5"]
    for bad in ("mc:0", "mc:5:look", "mcts:", "mcts:3:peek", "mc:x"):
        with pytest.raises(SpecError):
            parse_spec(bad)
    mc, peek, mcts = make_agent("mc:7"), make_agent("mc:7:peek"), make_agent("mcts:9")
    assert isinstance(mc, MonteCarloAgent) and isinstance(mcts, ISMCTSAgent)
    assert (mc.spec, peek.spec, mcts.spec) == ("mc:7", "mc:7:peek", "mcts:9")
    assert mc.describe()["redeal"] and not mc.describe()["omniscient"] and not mc.omniscient
    assert peek.omniscient and peek.describe()["omniscient"] and not peek.describe()["redeal"]
    assert mcts.describe()["iterations"] == 9 and mcts.describe()["redeal"]


# --- choices ------------------------------------------------------------------------------

def lethal(pack) -> TcgState:
    """Seat 0 at 1 LP facing two attackers; Direct Strike ends it now, anything else loses
    to the attack next turn (or at best draws it out)."""
    return position(pack, hands=[["direct_strike", "draw_power", "healbot_assistant"], ["stone_golem"]],
                    boards=[[], ["twin_blade_fighter", "swift_scout"]], lp=(1, 3))


@pytest.mark.parametrize("spec", ["mc:30", "mc:30:peek", "mcts:200"])
def test_search_finds_the_lethal_strike(spec, community):
    decision = decide(make_agent(spec), lethal(community))
    assert decision.move == "direct_strike"
    if spec.startswith("mc"):
        assert decision.info["scores"]["direct_strike"] == 1.0
        assert max(v for m, v in decision.info["scores"].items() if m != "direct_strike") < 0.5



@pytest.mark.parametrize("spec", ["mc:30", "mcts:200"])
def test_while_the_search_compiles_the_same_player_searches_through_the_rules(spec, community):
    """A new install: the compiled path is not ready, yet the answer comes at once, from the same
    number of playouts (iterations) on the reference rules, and finds the same lethal strike."""
    import threading
    waiting = threading.Event()
    decision = decide(make_agent(spec, compiled=waiting), lethal(community))
    assert decision.move == "direct_strike" and decision.info["interim"] is True
    if spec.startswith("mc:"):
        assert decision.info["playouts"] == 30 * 3 and decision.info["scores"]["direct_strike"] == 1.0
    else:
        assert sum(decision.info["visits"].values()) == 200


def test_peek_waits_for_the_compiled_path(community):
    """Only the compiled path can start from a true state: mc:K:peek does not search without it."""
    import threading
    compiled = threading.Event()
    agent = make_agent("mc:30:peek", compiled=compiled)
    state = lethal(community)

    async def run():
        agent.start(SeatContext(state.current, 0, game=TcgGame(state.pack)))
        agent.see_state(state.clone())
        task = asyncio.ensure_future(agent.decide(state.observation(state.current), []))
        await asyncio.sleep(0.2)
        assert not task.done()
        compiled.set()
        return await task
    decision = asyncio.run(run())
    assert decision.move == "direct_strike" and "interim" not in decision.info

def all_win(pack) -> TcgState:
    """Every move wins at once: the Twin Blade Fighter's attack finishes an opponent at 1 LP."""
    return position(pack, hands=[["stone_golem", "swift_scout", "healbot_assistant"], ["draw_power"]],
                    boards=[["twin_blade_fighter"], []], lp=(5, 1))


def test_ties_are_broken_by_the_seeded_rng(community):
    state = all_win(community)
    picks = {}
    for seed in range(16):
        first = decide(make_agent("mc:3"), state, seed)
        again = decide(make_agent("mc:3"), state, seed)
        assert first.info["tied"] == 3 and first.move == again.move
        picks[seed] = first.move
    assert len(set(picks.values())) > 1


def test_a_single_legal_move_needs_no_search(community):
    state = position(community, hands=[["draw_power"], ["stone_golem"]], boards=[[], []], lp=(5, 5))
    decision = decide(make_agent("mc:1000"), state)
    assert decision.move == "draw_power" and decision.info["playouts"] == 0


def test_peek_without_the_true_state_is_an_agent_error(community):
    agent = make_agent("mc:5:peek")
    state = lethal(community)
    agent.start(SeatContext(0, 0, game=TcgGame(community)))
    with pytest.raises(AgentError):
        asyncio.run(agent.decide(state.observation(0), []))


# --- the event loop and cancellation ------------------------------------------------------

async def cancel_midway(agent, obs):
    """Start a long search, let the loop tick while it runs, cancel it, and report."""
    ticks = 0
    task = asyncio.create_task(agent.decide(obs, []))
    while agent.progress.done == 0:
        await asyncio.sleep(0.002)
        ticks += 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    stopped_at = agent.progress.done
    await asyncio.sleep(0.3)
    return ticks, stopped_at, agent.progress.done, agent.progress.total


@pytest.mark.parametrize("spec,options", [("mc:200000", {}), ("mcts:300000", {}),
                                          ("mc:200000", {"workers": 2})])
def test_a_cancelled_search_stops_and_never_blocks_the_loop(spec, options, community):
    state = lethal(community)
    agent = make_agent(spec, **options)
    agent.start(SeatContext(0, 0, game=TcgGame(community)))
    ticks, stopped_at, later, total = asyncio.run(cancel_midway(agent, state.observation(0)))
    assert ticks > 0
    assert later < total
    if not options:     # one batch at a time: nothing runs after the cancel
        assert later == stopped_at
    asyncio.run(agent.aclose())


# --- reproducibility ------------------------------------------------------------------------

def play(game, seed, specs, **options):
    agents = tuple(make_agent(s, **options) for s in specs)
    result = asyncio.run(run_match(game, seed, agents))
    for a in agents:
        asyncio.run(a.aclose())
    return result


def test_games_replay_from_their_seed(community):
    game = TcgGame(community)
    a = play(game, 3, ("mc:20", "mcts:80"))
    b = play(game, 3, ("mc:20", "mcts:80"))
    assert a.record.moves == b.record.moves
    assert [d.info for d in a.decisions] == [d.info for d in b.decisions]
    c = play(game, 4, ("mc:20", "mcts:80"))
    assert c.record.moves != a.record.moves


def test_mc_gives_the_same_answer_however_the_work_is_split(community):
    game = TcgGame(community)
    one = play(game, 5, ("mc:300", "random"))
    with ThreadPoolExecutor(2) as pool:
        two = play(game, 5, ("mc:300", "random"), executor=pool, workers=2)
    assert one.record.moves == two.record.moves
    assert [d.info for d in one.decisions] == [d.info for d in two.decisions]


def test_a_process_pool_gives_the_same_decision(community):
    state = lethal(community)
    alone = decide(make_agent("mc:500"), state, seed=2)
    with ProcessPoolExecutor(2) as pool:
        pooled = decide(make_agent("mc:500", executor=pool), state, seed=2)
        tree = decide(make_agent("mcts:300", executor=pool, workers=2), state, seed=2)
    assert pooled.info == alone.info
    assert tree.move == "direct_strike" and sum(tree.info["visits"].values()) == 300


def test_peek_plays_through_the_match_runner(community):
    result = play(TcgGame(community), 1, ("mc:10:peek", "random"))
    assert result.status == "finished"
    assert any(d.info.get("playouts") for d in result.decisions if d.seat == 0)


def test_search_agents_play_private_packs(community):
    """Any valid pack runs on the fast path: random packs that use every primitive."""
    from opponents_support import random_pack
    for seed in (5, 12, 21):
        result = play(TcgGame(random_pack(seed)), seed, ("mc:10", "mcts:30"))
        assert result.status == "finished" and result.outcome is not None
