"""The card game under --protocol seed: the released TCG-Bench code's rules, loops and opponents.

The recorded facts below were measured on the released code itself (AdaMLLab/tcg-bench,
src/random_baseline.py, one global random stream seeded per game): its decks for two
seeds, and how 16 of its games against RolloutAgent-1 and MCTSAgent-1 ended.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from scipy.stats import binomtest

from tcgtui.bench.plan import identity
from tcgtui.engine import registry
from tcgtui.engine.core import IllegalMove
from tcgtui.engine.tcg.seed import search
from tcgtui.engine.tcg.seed.game import SeedGame
from tcgtui.engine.tcg.seed.rules import BASELINE, BENCHMARK, KEPT, STALE, SeedCard, SeedState
from tcgtui.match import run_match
from tcgtui.opponents.base import OptionError
from tcgtui.opponents.random_agent import RandomAgent
from tcgtui.opponents.registry import make_agent
from tcgtui.packs import load_pack

PACK = load_pack("community")


def seed_game(loop: str = "baseline") -> SeedGame:
    return registry.get("tcg").game({"pack": PACK, "protocol": "seed", "seed_loop": loop})


# --- the deal ------------------------------------------------------------------------------------

# The released code's first five cards of each deck for random.seed(42) and random.seed(7)
# (its ids healbot and twin_blade are the community pack's healbot_assistant and twin_blade_fighter).
DEALS = {42: (("reset_hand", "spell_echo", "shield_boost", "direct_strike", "final_stand"),
              ("healbot_assistant", "double_block", "sacrifice_ritual", "shield_boost", "frost_mage")),
         7: (("twin_blade_fighter", "double_block", "final_stand", "shield_boost", "emergency_summon"),
             ("emergency_summon", "draw_power", "healbot_assistant", "revenge_strike", "shield_boost"))}


@pytest.mark.parametrize("seed", sorted(DEALS))
def test_the_deal_is_the_released_codes(seed):
    state = SeedState.new(PACK, BASELINE, seed)
    for p in (0, 1):
        side = state.sides[p]
        dealt = [c.id for c in side.hand] + [c.id for c in side.deck]
        if p == 0:                      # player 1 has drawn its first turn's card already
            assert len(side.hand) == 4
        assert tuple(dealt[:5]) == DEALS[seed][p]


# --- whole games, one shared stream --------------------------------------------------------------

# (opponent, seed) -> (winner or -1 for a draw, player 1's LP, player 2's LP, final turn number),
# as src/random_baseline.py ended them with its RandomAgent as player 1.
RECORDED = {("rollout", 42): (1, 0, 10, 13), ("rollout", 43): (1, 0, 10, 9), ("rollout", 44): (1, 0, 6, 21),
            ("rollout", 45): (1, 0, 10, 22), ("rollout", 46): (1, 0, 7, 15), ("rollout", 47): (0, 6, 0, 18),
            ("rollout", 48): (1, 0, 9, 17), ("rollout", 49): (0, 10, 0, 20),
            ("mcts", 42): (1, 0, 17, 15), ("mcts", 43): (1, 0, 12, 37), ("mcts", 44): (0, 8, 0, 16),
            ("mcts", 45): (1, 0, 11, 15), ("mcts", 46): (1, 0, 8, 11), ("mcts", 47): (0, 12, 0, 18),
            ("mcts", 48): (-1, 13, 4, 51), ("mcts", 49): (1, 0, 6, 31)}


@pytest.mark.parametrize("opponent,seed", sorted(RECORDED))
def test_with_one_stream_every_game_ends_as_the_released_codes(opponent, seed):
    """Rules, search and every random draw in the released code's order: the same game, to the LP."""
    state = SeedState.new(PACK, BASELINE, seed)
    rng = state.rng
    policy = search.mcts(1) if opponent == "mcts" else search.rollout(1)
    while not state.is_terminal():
        move = rng.choice(state.sides[0].hand).id if state.current == 0 else policy(state.clone(rng), rng)
        state.apply(move)
    winner = state.outcome.winner
    got = (-1 if winner is None else winner, state.sides[0].lp, state.sides[1].lp, state.turn)
    assert got == RECORDED[(opponent, seed)]


# --- the side-by-side check, small ---------------------------------------------------------------

# src/random_baseline.py, 300 games (seeds 42-341): random's wins and draws against each opponent.
PUBLISHED = {"rollout:1": (73, 58, 300), "mcts-seed:1": (125, 63, 300)}


@pytest.mark.parametrize("opponent", sorted(PUBLISHED))
def test_random_wins_and_draws_as_often_as_against_the_released_code(opponent):
    """80 games through the match loop with tcgtui's own random player: the released code's
    rates must not be rejected (exact binomial test, 1%) for wins or for draws."""
    game = seed_game("baseline")
    wins = draws = 0
    n = 80
    for i in range(n):
        seed = game.run_seed(42, i)
        result = asyncio.run(run_match(game, seed, (RandomAgent(), make_agent(opponent))))
        wins += result.outcome.winner == game.measured_seat
        draws += result.outcome.winner is None
    w, d, total = PUBLISHED[opponent]
    assert binomtest(wins, n, w / total).pvalue > 0.01, (wins, n)
    assert binomtest(draws, n, d / total).pvalue > 0.01, (draws, n)


# --- the quirks, one by one ----------------------------------------------------------------------

def fresh(loop=BASELINE) -> SeedState:
    """Turn 1, player 1 to move, empty boards and tricks, known hands."""
    state = SeedState.new(PACK, loop, 1)
    for side in state.sides:
        side.hand.clear()
        side.deck.clear()
    return state


def give(state: SeedState, p: int, card_id: str) -> SeedCard:
    card = state._make(card_id)
    state.sides[p].own[card_id] = card
    state.sides[p].hand.append(card)
    return card


def board(state: SeedState, p: int, card_id: str, summoned: int = 0) -> SeedCard:
    card = state._make(card_id)
    state.sides[p].own[card_id] = card
    state.resolve(p, card)
    card.summon_turn = summoned
    return card


def test_benchmark_loop_has_no_combat_in_a_turn_with_a_spell_and_baseline_has():
    for loop, hit in ((BENCHMARK, False), (BASELINE, True)):
        state = fresh(loop)
        board(state, 0, "swift_scout")
        give(state, 0, "draw_power")
        give(state, 0, "stone_golem")
        state.apply("draw_power")
        assert (state.sides[1].lp < 10) is hit


def test_revenge_strike_skips_every_damage_trigger_and_can_go_below_zero():
    state = fresh()
    state.sides[0].lp = 1
    state.sides[0].tricks.append(state._make("revenge_strike"))
    state.sides[1].tricks.append(state._make("emergency_summon"))
    state.sides[1].lp = 1
    state.sides[1].tricks.append(state._make("revenge_strike"))
    state.damage(1, 3, "direct_strike")
    # player 2 hits back through its Revenge Strike: player 1 goes to -1, and player 1's own
    # Revenge Strike never fires, nor does player 2's Emergency Summon (it was at 1 already)
    assert state.sides[1].lp == 0 and state.sides[0].lp == -1
    assert [t.id for t in state.sides[0].tricks] == ["revenge_strike"]


def test_twin_blade_fighter_attacks_once_per_combat():
    state = fresh()
    board(state, 0, "twin_blade_fighter")
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.apply("stone_golem")
    assert state.sides[1].lp == 8


def test_a_zero_power_healbot_attacks_and_dies_on_any_blocker():
    state = fresh()
    board(state, 0, "healbot_assistant")
    board(state, 1, "swift_scout")
    give(state, 0, "draw_power")
    give(state, 1, "draw_power")
    state.apply("draw_power")
    assert [c.id for c in state.sides[0].board] == []


@pytest.mark.parametrize("a,b,loop,winner", [(7, 3, BASELINE, None), (7, 3, BENCHMARK, 0),
                                             (5, 5, BENCHMARK, None), (2, 9, BENCHMARK, 1)])
def test_at_the_turn_cap(a, b, loop, winner):
    """src/random_baseline.py: a draw whatever the LP; src/main.py: the higher LP wins, equal is a draw."""
    state = fresh(loop)
    state.sides[0].lp, state.sides[1].lp = a, b
    state.played_turns = 49
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.apply("stone_golem")
    assert state.is_terminal() and state.outcome.winner == winner and state.outcome.reason == "turn_limit"


def test_baseline_player_one_at_zero_loses_even_if_player_two_is_too():
    state = fresh(BASELINE)
    state.sides[1].tricks.append(state._make("revenge_strike"))
    state.sides[0].lp, state.sides[1].lp = 2, 3
    give(state, 0, "direct_strike")
    give(state, 1, "stone_golem")
    state.apply("direct_strike")
    assert state.outcome.winner == 1


def test_benchmark_search_card_stays_in_hand_and_baseline_plays_a_stale_one():
    state = fresh(BENCHMARK)
    give(state, 0, "direct_strike")
    give(state, 1, "stone_golem")
    state.apply("direct_strike" + KEPT)
    assert state.sides[1].lp == 7 and [c.id for c in state.sides[0].hand] == ["direct_strike"]
    with pytest.raises(IllegalMove):
        state.apply("direct_strike" + STALE)

    state = fresh(BASELINE)
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.sides[0].own["direct_strike"] = state._make("direct_strike")   # played earlier, in the discard
    assert state.validate("direct_strike" + KEPT) == "illegal"
    state.apply("direct_strike" + STALE)
    assert state.sides[1].lp == 7 and [c.id for c in state.sides[0].hand] == ["stone_golem"]


def test_the_seed_opponents_are_handed_the_true_state():
    from tcgtui.opponents.base import SeatContext
    for spec in ("rollout:1", "mcts-seed:1"):
        agent = make_agent(spec)
        agent.start(SeatContext(1, 0, PACK, "en", seed_game()))
        assert agent.omniscient and agent.describe()["omniscient"] is True


def test_rollout_keeps_the_first_of_equal_scores():
    """Lethal either way (the evaluated card stays in hand, and the playout's first turn is the
    same player's): both cards score alike, and the first in hand is played."""
    for first, second in (("stone_golem", "direct_strike"), ("direct_strike", "stone_golem")):
        state = fresh()
        state.sides[1].lp = 3
        give(state, 0, first)
        give(state, 0, second)
        rng = random.Random(0)
        assert search.rollout(1)(state.clone(rng), rng) == first


# --- how the protocol is set and recorded ----------------------------------------------------------

def test_protocol_and_loop_are_in_the_setup_and_the_run_identity():
    game = seed_game("benchmark")
    assert game.setup()["protocol"] == "seed" and game.setup()["seed_loop"] == "benchmark"
    ident = identity(game, 42)
    assert ident["protocol"] == "seed" and ident["seed_loop"] == "benchmark"
    own = registry.get("tcg").game({"pack": PACK})
    assert "protocol" not in identity(own, 42) and identity(own, 42) != identity(game, 42)
    assert game.run_seed(42, 3) == 45 and game.measured_seat == 0


def test_seed_opponents_refuse_tcgtuis_rules_and_tcgtuis_search_refuses_the_seeds():
    from tcgtui.opponents.base import SeatContext
    own = registry.get("tcg").game({"pack": PACK})
    with pytest.raises(OptionError, match="--protocol seed only"):
        make_agent("rollout:1").start(SeatContext(1, 0, PACK, "en", own))
    with pytest.raises(OptionError, match="rollout:K and mcts-seed:K"):
        make_agent("mc:1").start(SeatContext(1, 0, PACK, "en", seed_game()))


def test_seed_protocol_refuses_decks_and_other_packs():
    with pytest.raises(ValueError, match="no --deck"):
        registry.get("tcg").game({"pack": PACK, "protocol": "seed", "deck": {"stone_golem": 1}})
    with pytest.raises(ValueError, match="community pack only"):
        registry.get("tcg").game({"pack": load_pack("starter"), "protocol": "seed"})
