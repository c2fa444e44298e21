"""Every entry of the rules text (locales/*/tcg/card_rules.toml) checked against the engine.

The rules text is what people and models are told; if the engine did anything
else, the benchmark would be measuring the wrong game.
"""

from __future__ import annotations

import pytest

from tcgtui.engine.core import IllegalMove
from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.cards import MAX_CHAIN
from tests.scenario import all_cards_pack, board_ids, champ, kinds, of, pack_from, position, rule


@pytest.fixture(scope="module")
def pack():
    return all_cards_pack()


# --- goal and setup --------------------------------------------------------------------------

@rule("goal.lp")
def test_players_start_with_the_packs_lp(community):
    assert TcgGame(community).new_state(1).lp == [10, 10]
    seven = pack_from([{"id": "x", "type": "spell", "effects": [{"do": "draw", "amount": 1}]}],
                      starting_lp=7)
    assert TcgGame(seven).new_state(1).lp == [7, 7]


@rule("setup.decks")
def test_each_player_has_one_copy_of_every_card_shuffled(community):
    n = len(community.cards)
    orders, independent = set(), 0
    for seed in range(20):
        s = TcgGame(community).new_state(seed)
        for p in (0, 1):
            assert sorted(s.decks[p] + s.hands[p]) == list(range(n))
        orders.add(tuple(s.decks[0]))
        independent += s.decks[0] != s.decks[1]
    assert len(orders) == 20 and independent == 20   # shuffled per seed and per player


@rule("setup.hands")
def test_opening_hands_and_player_one_starts(community, starter):
    s = TcgGame(community).new_state(3)
    assert (s.turn, s.current_player) == (1, 0)
    assert len(s.hands[0]) == 3 + 1      # opening hand plus the first turn's draw
    assert len(s.hands[1]) == 3
    toy = TcgGame(starter).new_state(3)
    assert len(toy.hands[1]) == 2 and len(toy.hands[0]) == 3


# --- card types ------------------------------------------------------------------------------

@rule("cards.champion")
def test_champions_stay_with_printed_stats(pack):
    s = position(pack, hands=(["stone_golem", "fireball"], ["draw_power"]))
    s.apply("stone_golem")
    assert board_ids(s, 0) == ["stone_golem"]
    g = s.boards[0][0]
    assert (g.cur_power, g.cur_guard) == (1, 4)
    s.apply("draw_power")
    s.apply("fireball")
    assert board_ids(s, 0) == ["stone_golem"]


@rule("cards.spell")
def test_spells_take_effect_once_then_discard(pack):
    s = position(pack, hands=(["direct_strike"], []))
    events = s.apply("direct_strike")
    assert s.lp[1] == 7
    assert len(of(events, "damage")) == 1
    assert [s.cards[i].id for i in s.graves[0]] == ["direct_strike"]
    assert s.boards[0] == [] and "direct_strike" not in [s.cards[i].id for i in s.hands[0]]


@rule("cards.trick")
def test_tricks_are_hidden_fire_once_even_on_the_turn_set(pack):
    s = position(pack, hands=(["revenge_strike", "swift_scout"], ["direct_strike", "fireball"]))
    events = s.apply("revenge_strike")
    seen_by_opp = s.observation(1)
    assert seen_by_opp.opp_trick_count == 1
    assert "revenge_strike" not in str(seen_by_opp.to_json())
    assert all("card" not in e.for_seat(1).data for e in of(events, "set_trick"))
    s.apply("direct_strike")                  # player 1 takes 3, trick fires: player 2 takes 2
    assert s.lp == [7, 8]
    assert s.tricks[0] == [] and s.cards[s.graves[0][-1]].id == "revenge_strike"
    s.apply("swift_scout")                    # haste scout hits for 2; no trick reacts any more
    s.apply("fireball")
    assert s.lp == [5, 6]
    # Fires on the very turn it is set: a Counterattack hits player 1 during its own combat.
    t = position(pack, hands=(["revenge_strike"], []), boards=(["swift_scout"], []),
                 tricks=([], ["counterattack"]))
    events = t.apply("revenge_strike")
    assert [e.data["card"] for e in of(events, "trick")] == ["counterattack", "revenge_strike"]
    assert t.lp == [9, 8]


# --- the turn --------------------------------------------------------------------------------

@rule("turn.draw")
def test_a_turn_starts_with_one_draw_and_an_empty_deck_gives_nothing(pack):
    s = position(pack, hands=(["stone_golem"], ["fireball"]), decks=(None, ["draw_power"]))
    events = s.apply("stone_golem")
    draws = [e for e in of(events, "draw") if e.player == 1]
    assert len(draws) == 1 and sorted(s.cards[i].id for i in s.hands[1]) == ["draw_power", "fireball"]
    assert s.decks[1] == []
    s.apply(s.legal_moves()[0])               # player 2's move; then player 1 draws as usual
    t = position(pack, hands=(["stone_golem"], ["fireball"]), decks=(None, []))
    events = t.apply("stone_golem")
    assert [e.player for e in of(events, "deck_empty")] == [1]
    assert [t.cards[i].id for i in t.hands[1]] == ["fireball"]


@rule("turn.play")
def test_exactly_one_card_no_passing_and_empty_hands_skip(pack):
    s = position(pack, hands=(["stone_golem", "fireball"], ["draw_power"]))
    assert sorted(s.legal_moves()) == ["fireball", "stone_golem"]
    with pytest.raises(IllegalMove):
        s.apply("pass")
    with pytest.raises(IllegalMove):
        s.apply("draw_power")                 # in the other player's hand
    events = s.apply("stone_golem")
    assert len(of(events, "summon")) + len(of(events, "cast")) + len(of(events, "set_trick")) == 1
    # Player 2 holds nothing and draws nothing: its turn passes with no play, back to player 1.
    t = position(pack, hands=(["stone_golem", "fireball"], []), decks=(None, []))
    events = t.apply("stone_golem")
    assert [e.player for e in of(events, "no_cards")] == [1]
    assert (t.current_player, t.turn) == (0, 7)


@rule("turn.combat")
def test_combat_happens_on_spell_turns_too(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["mighty_warrior"], []))
    events = s.apply("fireball")
    assert "attack" in kinds(events)
    assert s.lp[1] == 10 - 2 - 3


@rule("turn.attackers")
def test_who_attacks_and_in_what_order(pack):
    s = position(pack, hands=(["swift_scout", "fireball"], ["draw_power"]), boards=([
        "mighty_warrior", champ("frost_mage", frozen_through=5), "stone_golem",
        "healbot_assistant", "twin_blade_fighter"], []))
    events = s.apply("swift_scout")          # summoned this turn, but haste
    attackers = [e.data["card"] for e in of(events, "attack")]
    assert attackers == ["mighty_warrior", "twin_blade_fighter", "twin_blade_fighter", "swift_scout"]
    t = position(pack, hands=(["twin_blade_fighter"], []))
    assert "attack" not in kinds(t.apply("twin_blade_fighter"))   # summoned this turn


@rule("turn.block")
def test_highest_guard_blocks_once_per_turn_ties_to_earliest(pack):
    s = position(pack, hands=(["fireball"], []), boards=(
        ["twin_blade_fighter"], ["mighty_warrior", "swift_scout", champ("frost_mage", guard=2)]))
    events = s.apply("fireball")
    blocks = [e.data["blockers"] for e in of(events, "block")]
    assert blocks == [["mighty_warrior"]]    # 2/2 attacker dies against Guard 2; earliest of the ties
    u = position(pack, hands=(["fireball"], []), boards=(
        [champ("twin_blade_fighter", power=5)], ["swift_scout", "stone_golem"]))
    events = u.apply("fireball")
    assert [e.data["blockers"] for e in of(events, "block")] == [["stone_golem"], ["swift_scout"]]
    v = position(pack, hands=(["fireball"], []), boards=(["mighty_warrior"], ["swift_scout", "stone_golem"]),
                 tricks=([], ["double_block"]))
    events = v.apply("fireball")
    assert [e.data["blockers"] for e in of(events, "block")] == [["stone_golem", "swift_scout"]]


@rule("turn.resolve")
def test_power_above_total_guard_breaks_through_otherwise_attacker_dies(pack):
    s = position(pack, hands=(["fireball"], []), boards=([champ("mighty_warrior", power=5)], ["stone_golem"]))
    s.apply("fireball")
    assert board_ids(s, 1) == [] and board_ids(s, 0) == ["mighty_warrior"]
    assert s.lp[1] == 10 - 2 - 1
    t = position(pack, hands=(["fireball"], []), boards=([champ("mighty_warrior", power=4)], ["stone_golem"]))
    t.apply("fireball")
    assert board_ids(t, 1) == ["stone_golem"] and board_ids(t, 0) == []
    assert t.lp[1] == 8                       # only the fireball
    u = position(pack, hands=(["fireball"], []), boards=(["mighty_warrior"], ["stone_golem"]))
    u.apply("fireball")
    assert board_ids(u, 1) == ["stone_golem"] and board_ids(u, 0) == []


@rule("turn.unblocked")
def test_unblocked_attack_deals_full_power(pack):
    s = position(pack, hands=(["draw_power"], []), boards=([champ("mighty_warrior", power=6)], []))
    s.apply("draw_power")
    assert s.lp[1] == 4


# --- effects ---------------------------------------------------------------------------------

@rule("effects.targets")
def test_targets_are_printed_ties_to_earliest_missing_targets_do_nothing(pack):
    results = set()
    for seed in range(10):                    # the RNG never picks a target
        s = position(pack, hands=(["shield_boost"], []),
                     boards=(["swift_scout", "twin_blade_fighter", champ("frost_mage", guard=1)], []), seed=seed)
        s.apply("shield_boost")
        results.add(tuple(c.guard for c in s.boards[0]))
    assert results == {(4, 2, 1)}
    t = position(pack, hands=(["sacrifice_ritual"], []))
    events = t.apply("sacrifice_ritual")
    assert t.lp[0] == 10 and not of(events, "heal") and not of(events, "destroy")


@rule("effects.until_end")
def test_until_end_of_turn_bonus_expires_with_the_turn(pack):
    s = position(pack, hands=(["fireball"], []), lp=(10, 3), boards=([], ["mighty_warrior"]),
                 tricks=([], ["final_stand"]))
    events = s.apply("fireball")              # player 2 drops to exactly 1 LP: +2 Power this turn
    buffs = of(events, "buff")
    assert buffs and buffs[0].data["power"] == 5
    assert s.boards[1][0].cur_power == 3      # gone at the end of player 1's turn


@rule("effects.freeze")
def test_frozen_blockers_miss_their_owners_next_turn_only(pack):
    s = position(pack, current=0, turn=5, hands=(["fireball", "draw_power"], ["direct_strike", "reset_hand"]),
                 boards=(["frost_mage"], ["mighty_warrior"]), lp=(20, 20))
    s.apply("fireball")                       # turn 5: frost mage is blocked by mighty warrior
    warrior = s.boards[1][0]
    assert board_ids(s, 1) == ["mighty_warrior"] and warrior.frozen_through == 6
    events = s.apply("direct_strike")         # turn 6: the warrior may not attack
    assert not [e for e in of(events, "attack") if e.player == 1]
    s.apply(s.legal_moves()[0])               # turn 7
    events = s.apply("reset_hand")            # turn 8: it attacks again
    assert [e.data["card"] for e in of(events, "attack") if e.player == 1] == ["mighty_warrior"]


@rule("effects.stats")
def test_stats_never_count_below_zero():
    p = pack_from([
        {"id": "brute", "type": "champion", "power": 2, "guard": 1},
        {"id": "wither", "type": "spell", "effects": [
            {"do": "buff", "stat": "power", "amount": -5, "target": "enemy_oldest"},
            {"do": "buff", "stat": "guard", "amount": -5, "target": "enemy_oldest"}]},
        {"id": "nothing", "type": "spell", "effects": [{"do": "draw", "amount": 1}]},
    ])
    s = position(p, hands=(["wither"], ["nothing"]), boards=([], ["brute"]))
    s.apply("wither")
    b = s.boards[1][0]
    assert (b.power, b.guard) == (-3, -4)
    assert (b.cur_power, b.cur_guard) == (0, 0)
    view = s.observation(1).boards[1][0]
    assert (view.power, view.guard) == (0, 0)
    events = s.apply("nothing")
    assert "attack" not in kinds(events)     # Power 0 does not attack


@rule("effects.heal")
def test_no_maximum_lp(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["healbot_assistant"], []))
    s.apply("fireball")
    assert s.lp[0] == 11


@rule("effects.order")
def test_champion_abilities_then_tricks_in_order_set():
    p = pack_from([
        {"id": "sentinel", "type": "champion", "power": 0, "guard": 1, "abilities": [
            {"when": "you_take_damage", "effects": [{"do": "heal", "amount": 1}]}]},
        {"id": "watcher", "type": "champion", "power": 0, "guard": 1, "abilities": [
            {"when": "you_take_damage", "effects": [{"do": "heal", "amount": 1}]}]},
        {"id": "trap_a", "type": "trick", "when": "you_take_damage", "effects": [{"do": "draw", "amount": 1}]},
        {"id": "trap_b", "type": "trick", "when": "you_take_damage", "effects": [{"do": "draw", "amount": 1}]},
        {"id": "zap", "type": "spell", "effects": [{"do": "damage", "amount": 1}]},
    ])
    s = position(p, hands=(["zap"], []), boards=([], ["watcher", "sentinel"]), tricks=([], ["trap_b", "trap_a"]))
    events = s.apply("zap")
    order = [(e.kind, e.data["card"]) for e in events if e.kind in ("ability", "trick")]
    assert order == [("ability", "watcher"), ("ability", "sentinel"), ("trick", "trap_b"), ("trick", "trap_a")]


@rule("effects.chain")
def test_reaction_chains_stop_after_max_chain_links():
    p = pack_from([
        {"id": "thorn", "type": "champion", "power": 0, "guard": 1, "abilities": [
            {"when": "you_take_damage", "effects": [{"do": "damage", "amount": 1}]}]},
        {"id": "spike", "type": "champion", "power": 0, "guard": 1, "abilities": [
            {"when": "you_take_damage", "effects": [{"do": "damage", "amount": 1}]}]},
        {"id": "zap", "type": "spell", "effects": [{"do": "damage", "amount": 1}]},
    ])
    s = position(p, hands=(["zap"], []), boards=(["thorn"], ["spike"]), lp=(50, 50))
    events = s.apply("zap")
    assert len(of(events, "damage")) == 1 + MAX_CHAIN
    assert len(of(events, "ability")) == MAX_CHAIN


@rule("effects.visible")
def test_observation_shows_exactly_the_public_and_own_information(pack):
    s = position(pack, hands=(["fireball", "stone_golem"], ["draw_power", "reset_hand"]),
                 tricks=(["double_block"], ["counterattack"]), boards=(["swift_scout"], ["frost_mage"]),
                 graves=(["direct_strike"], ["shield_boost"]))
    o = s.observation(0)
    assert o.hand == ("fireball", "stone_golem") and o.my_tricks == ("double_block",)
    assert (o.opp_hand_size, o.opp_trick_count) == (2, 1)
    assert o.deck_sizes == (len(s.decks[0]), len(s.decks[1])) and o.lp == (10, 10)
    assert [v.card for v in o.boards[0]] == ["swift_scout"] and [v.card for v in o.boards[1]] == ["frost_mage"]
    assert o.graves == (("direct_strike",), ("shield_boost",))
    text = str(o.to_json())
    for secret in ("draw_power", "reset_hand", "counterattack"):
        assert secret not in text


# --- the end ---------------------------------------------------------------------------------

@rule("end.lp")
def test_the_game_ends_at_once_at_zero_lp(pack):
    s = position(pack, hands=(["direct_strike"], []), lp=(10, 3), boards=(["mighty_warrior"], []))
    events = s.apply("direct_strike")
    assert s.is_terminal() and s.winner == 0 and s.outcome.reason == "lp"
    assert "attack" not in kinds(events) and events[-1].kind == "game_over"
    assert s.legal_moves() == [] and s.current_player == -1
    with pytest.raises(IllegalMove):
        s.apply("mighty_warrior")


@rule("end.limit")
def test_turn_limit_higher_lp_wins_equal_is_a_draw(pack):
    limit = pack.rules.turn_limit
    s = position(pack, turn=limit, current=1, lp=(4, 6), hands=([], ["draw_power"]))
    s.apply("draw_power")
    assert s.outcome.winner == 1 and s.outcome.reason == "turn_limit"
    t = position(pack, turn=limit, current=1, lp=(5, 5), hands=([], ["draw_power"]))
    t.apply("draw_power")
    assert t.is_terminal() and t.outcome.winner is None
    u = position(pack, turn=limit - 1, current=0, lp=(5, 5), hands=(["draw_power"], ["fireball"]))
    u.apply("draw_power")
    assert not u.is_terminal() and u.turn == limit
