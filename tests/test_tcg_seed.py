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
from tcgtui.games.tcg.packs import load_pack
from tests.scenario import rule

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


@rule("tcg.seed_rules.decks")
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


# The same under src/main.py's loop (the LLM runs), with random in the model's seat and the search
# handed a pickled copy of the state, as that loop does (the released engine's objects, one stream).
RECORDED_BENCHMARK = {("rollout", 42): (1, 0, 16, 14), ("rollout", 43): (1, 0, 8, 6),
                      ("rollout", 44): (1, 0, 6, 26), ("rollout", 45): (1, 0, 8, 10),
                      ("rollout", 46): (1, 0, 4, 12), ("rollout", 47): (1, 0, 10, 12),
                      ("mcts", 42): (1, 0, 16, 36), ("mcts", 43): (1, 0, 7, 12), ("mcts", 44): (0, 10, 0, 13),
                      ("mcts", 45): (0, 15, 0, 15), ("mcts", 46): (1, 0, 8, 10), ("mcts", 47): (0, 20, 0, 19)}


@pytest.mark.parametrize("opponent,seed", sorted(RECORDED_BENCHMARK))
def test_under_the_benchmark_loop_too(opponent, seed):
    state = SeedState.new(PACK, BENCHMARK, seed)
    rng = state.rng
    policy = search.mcts(1) if opponent == "mcts" else search.rollout(1)
    while not state.is_terminal():
        move = rng.choice(state.sides[0].hand).id if state.current == 0 else policy(state.clone(rng), rng)
        state.apply(move)
    winner = state.outcome.winner
    got = (-1 if winner is None else winner, state.sides[0].lp, state.sides[1].lp, state.turn)
    assert got == RECORDED_BENCHMARK[(opponent, seed)]


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


@rule("tcg.seed_rules.benchmark.combat")
@rule("tcg.seed_rules.baseline.combat")
def test_benchmark_loop_has_no_combat_in_a_turn_with_a_spell_and_baseline_has():
    for loop, hit in ((BENCHMARK, False), (BASELINE, True)):
        state = fresh(loop)
        board(state, 0, "swift_scout")
        give(state, 0, "draw_power")
        give(state, 0, "stone_golem")
        state.apply("draw_power")
        assert (state.sides[1].lp < 10) is hit


@rule("tcg.seed_rules.damage")
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


@rule("tcg.seed_rules.attackers")
def test_twin_blade_fighter_attacks_once_per_combat():
    state = fresh()
    board(state, 0, "twin_blade_fighter")
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.apply("stone_golem")
    assert state.sides[1].lp == 8


@rule("tcg.seed_rules.attackers")
def test_a_zero_power_healbot_attacks_and_dies_on_any_blocker():
    state = fresh()
    board(state, 0, "healbot_assistant")
    board(state, 1, "swift_scout")
    give(state, 0, "draw_power")
    give(state, 1, "draw_power")
    state.apply("draw_power")
    assert [c.id for c in state.sides[0].board] == []


@rule("tcg.seed_rules.benchmark.end")
@rule("tcg.seed_rules.baseline.end")
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


@rule("tcg.seed_rules.baseline.end")
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
        agent.start(SeatContext(1, 0, "en", seed_game()))
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
    for spec in ("rollout:1", "mcts-seed:1"):        # both: a bench refuses in one line, none errors
        with pytest.raises(OptionError, match="--protocol seed only"):
            make_agent(spec).start(SeatContext(1, 0, "en", own))
    with pytest.raises(OptionError, match="rollout:K and mcts-seed:K"):
        make_agent("mc:1").start(SeatContext(1, 0, "en", seed_game()))


def test_seed_protocol_refuses_decks_and_other_packs():
    with pytest.raises(ValueError, match="no --deck"):
        registry.get("tcg").game({"pack": PACK, "protocol": "seed", "deck": {"stone_golem": 1}})
    with pytest.raises(ValueError, match="community pack only"):
        registry.get("tcg").game({"pack": load_pack("starter"), "protocol": "seed"})


@rule("tcg.seed_rules.about")
def test_the_rules_text_is_the_loops_own():
    from tcgtui import locales
    cat = locales.load("en")
    for loop, other in (("benchmark", "baseline"), ("baseline", "benchmark")):
        keys = [k for k, _ in registry.get("tcg").rules_text(seed_game(loop), cat)]
        assert keys[0] == "tcg.seed_rules.about"
        assert f"tcg.seed_rules.{loop}.end" in keys and f"tcg.seed_rules.{other}.end" not in keys


@rule("tcg.seed_rules.lp")
@rule("tcg.seed_rules.turn")
def test_ten_lp_three_cards_and_a_draw_each_turn():
    state = SeedState.new(PACK, BENCHMARK, 5)
    assert [s.lp for s in state.sides] == [10, 10]
    assert len(state.sides[0].hand) == 4 and len(state.sides[1].hand) == 3
    state.apply(state.legal_moves()[0])
    assert len(state.sides[0].hand) == 3 and len(state.sides[1].hand) == 4
    empty = fresh()
    give(empty, 0, "stone_golem")
    give(empty, 0, "draw_power")
    empty.apply("stone_golem")                 # player 2: an empty deck and hand, so no move at all
    assert empty.current == 0 and empty.turn == 3 and len(empty.sides[0].hand) == 1


@rule("tcg.seed_rules.attackers")
def test_stone_golem_never_attacks_and_swift_scout_attacks_at_once():
    state = fresh()
    board(state, 0, "stone_golem")
    give(state, 0, "swift_scout")
    give(state, 1, "draw_power")
    state.apply("swift_scout")
    assert state.sides[1].lp == 8


@rule("tcg.seed_rules.block")
@rule("tcg.seed_rules.resolve")
def test_the_highest_guard_blocks_and_excess_goes_through():
    state = fresh()
    attacker = board(state, 0, "frost_mage")
    attacker.power = 6
    board(state, 1, "swift_scout")            # Guard 1
    board(state, 1, "healbot_assistant")      # Guard 3: blocks
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.apply("stone_golem")
    assert [c.id for c in state.sides[1].board] == ["swift_scout"] and state.sides[1].lp == 7
    state = fresh()
    board(state, 0, "frost_mage")
    board(state, 1, "swift_scout")
    board(state, 1, "healbot_assistant")
    state.sides[1].tricks.append(state._make("double_block"))
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    events = state.apply("stone_golem")       # 2 Power against 3 + 1 Guard: the attacker dies
    assert state.sides[0].board[0].id == "stone_golem" and len(state.sides[1].board) == 2
    assert [e.data["blockers"] for e in events if e.kind == "block"] == [["healbot_assistant", "swift_scout"]]


@rule("tcg.seed_rules.frost")
def test_frost_mages_blockers_miss_their_next_attack():
    state = fresh()
    board(state, 0, "frost_mage")
    blocker = board(state, 1, "stone_golem")
    blocker.id = "swift_scout"                # a 1/4 that may attack
    blocker.cannot_attack, blocker.haste = False, True
    give(state, 0, "draw_power")
    give(state, 1, "draw_power")
    state.apply("draw_power")
    assert blocker.frozen_until == 3
    state.sides[0].hand.append(state._make("draw_power"))
    state.apply("draw_power")                 # player 2's turn 2: the frozen blocker stays home
    assert state.sides[0].lp == 10


@rule("tcg.seed_rules.targets")
def test_shield_boost_picks_its_champion_at_random():
    picked = set()
    for seed in range(20):
        state = fresh()
        state.rng = random.Random(seed)
        board(state, 0, "stone_golem")
        board(state, 0, "healbot_assistant")
        give(state, 0, "shield_boost")
        give(state, 1, "draw_power")
        state.apply("shield_boost")
        picked |= {c.id for c in state.sides[0].board if c.guard > state.pack.card(c.id).guard}
    assert picked == {"stone_golem", "healbot_assistant"}


@rule("tcg.seed_rules.echo")
def test_spell_echo_repeats_a_spell_but_not_reset_hand():
    state = fresh()
    state.sides[0].tricks.append(state._make("spell_echo"))
    give(state, 0, "direct_strike")
    give(state, 1, "draw_power")
    state.apply("direct_strike")
    assert state.sides[1].lp == 4
    state = fresh()
    state.sides[0].tricks.append(state._make("spell_echo"))
    give(state, 0, "reset_hand")
    give(state, 0, "stone_golem")
    for card_id in ("swift_scout", "frost_mage", "draw_power", "direct_strike"):
        state.sides[0].deck.append(state._make(card_id))
    give(state, 1, "draw_power")
    state.apply("reset_hand")
    assert len(state.sides[0].hand) == 3 and state.sides[0].tricks == []


@rule("tcg.seed_rules.heal")
def test_healbot_heals_past_the_starting_lp():
    state = fresh()
    board(state, 0, "healbot_assistant").cannot_attack = True
    give(state, 0, "stone_golem")
    give(state, 1, "stone_golem")
    state.apply("stone_golem")
    assert state.sides[0].lp == 11
