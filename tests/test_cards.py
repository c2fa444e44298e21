"""Each shipped card does what its rendered text says (the card text is a spec too)."""

from __future__ import annotations

import pytest

from tcgtui.engine.tcg.describe import card_text
from tests.scenario import all_cards_pack, board_ids, champ, of, position


@pytest.fixture(scope="module")
def pack():
    return all_cards_pack()


def ids(state, cards):
    return [state.cards[i].id for i in cards]


def test_rendered_text_of_every_card(community, starter, en):
    texts = {c.id: card_text(c, en) for c in community.cards + starter.cards}
    assert texts == {
        "stone_golem": "Cannot attack.",
        "swift_scout": "Can attack the turn it is summoned.",
        "healbot_assistant": "At the end of each of your turns: gain 1 LP.",
        "twin_blade_fighter": "Attacks twice in each combat.",
        "frost_mage": "When this champion is blocked: freeze the champions that block it.",
        "draw_power": "Draw 2 cards.",
        "direct_strike": "Deal 3 damage to your opponent.",
        "shield_boost": "Give your champion with the lowest Guard +3 Guard.",
        "reset_hand": "Shuffle your hand into your deck, then draw 3 cards.",
        "sacrifice_ritual": "Destroy your champion with the lowest Power. If you do, gain 4 LP.",
        "revenge_strike": "When you take damage: deal 2 damage to your opponent.",
        "emergency_summon": "When damage leaves you with less than 3 LP: draw 3 cards.",
        "double_block": "When an enemy champion attacks you: up to 2 of your champions block that attack.",
        "spell_echo": "When you cast a spell: that spell takes effect again.",
        "final_stand": ("When damage leaves you with exactly 1 LP: give all your champions +2 Power "
                        "until end of turn."),
        "mighty_warrior": "When this champion is summoned: gain 1 LP.",
        "fireball": "Deal 2 damage to your opponent.",
        "counterattack": "When an enemy champion attacks you and nothing blocks it: stop that attack, "
                         "then deal 1 damage to your opponent.",
    }


def test_stone_golem_cannot_attack(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["stone_golem"], []))
    assert not of(s.apply("fireball"), "attack")


def test_swift_scout_attacks_the_turn_it_arrives(pack):
    s = position(pack, hands=(["swift_scout"], []))
    s.apply("swift_scout")
    assert s.lp[1] == 8


def test_healbot_heals_at_end_of_each_own_turn_only(pack):
    s = position(pack, hands=(["fireball", "draw_power"], ["direct_strike"]), boards=(["healbot_assistant"], []))
    s.apply("fireball")
    assert s.lp[0] == 11
    s.apply("direct_strike")
    assert s.lp[0] == 8            # no heal on the opponent's turn


def test_twin_blade_attacks_twice(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["twin_blade_fighter"], []))
    s.apply("fireball")
    assert s.lp[1] == 10 - 2 - 2 - 2


def test_frost_mage_freezes_its_blockers(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["frost_mage"], ["stone_golem"]))
    events = s.apply("fireball")
    assert [e.data["card"] for e in of(events, "freeze")] == ["stone_golem"]


def test_draw_power_draws_two(pack):
    s = position(pack, hands=(["draw_power"], []))
    s.apply("draw_power")
    assert len(s.hands[0]) == 2


def test_direct_strike_deals_three(pack):
    s = position(pack, hands=(["direct_strike"], []))
    s.apply("direct_strike")
    assert s.lp[1] == 7


def test_shield_boost_gives_lowest_guard_three_permanently(pack):
    s = position(pack, hands=(["shield_boost", "draw_power"], ["fireball"]),
                 boards=(["stone_golem", "swift_scout"], []))
    s.apply("shield_boost")
    s.apply("fireball")
    assert [c.cur_guard for c in s.boards[0]] == [4, 4]


def test_reset_hand_reshuffles_and_draws_three(pack):
    s = position(pack, hands=(["reset_hand", "stone_golem", "fireball", "draw_power"], []))
    deck_before = len(s.decks[0])
    s.apply("reset_hand")
    assert len(s.hands[0]) == 3 and len(s.decks[0]) == deck_before + 3 - 3
    assert "reset_hand" in ids(s, s.graves[0])


def test_reset_hand_shuffle_depends_on_the_game_seed(pack):
    hands = set()
    for seed in range(8):
        s = position(pack, hands=(["reset_hand", "stone_golem", "fireball"], []), seed=seed)
        s.apply("reset_hand")
        hands.add(tuple(sorted(ids(s, s.hands[0]))))
    assert len(hands) > 1


def test_sacrifice_ritual_destroys_lowest_power_then_heals(pack):
    s = position(pack, hands=(["sacrifice_ritual"], []), boards=(["mighty_warrior", "stone_golem"], []))
    s.apply("sacrifice_ritual")
    assert board_ids(s, 0) == ["mighty_warrior"] and s.lp[0] == 14


def test_revenge_strike_damage_sets_off_the_opponents_damage_tricks(pack):
    # The public engine's Revenge Strike skipped damage triggers; ours does not.
    s = position(pack, hands=(["direct_strike"], []), tricks=(["revenge_strike"], ["revenge_strike"]))
    s.apply("direct_strike")
    assert s.lp == [8, 5]         # 3 to player 2, its revenge 2 to player 1, whose revenge 2 back


def test_emergency_summon_draws_three_below_three(pack):
    s = position(pack, hands=(["direct_strike"], []), lp=(10, 5), tricks=([], ["emergency_summon"]))
    s.apply("direct_strike")
    assert len(s.hands[1]) == 3 + 1   # three from the trick, one for its turn


def test_emergency_summon_waits_while_lp_stays_at_three_or_more(pack):
    s = position(pack, hands=(["fireball"], []), lp=(10, 5), tricks=([], ["emergency_summon"]))
    s.apply("fireball")
    assert ids(s, s.tricks[1]) == ["emergency_summon"]


def test_double_block(pack):
    s = position(pack, hands=(["fireball"], []), boards=([champ("swift_scout", power=4)], ["mighty_warrior", "stone_golem"]),
                 tricks=([], ["double_block"]))
    s.apply("fireball")
    assert board_ids(s, 0) == [] and board_ids(s, 1) == ["mighty_warrior", "stone_golem"]


def test_spell_echo_repeats_the_spell(pack):
    s = position(pack, hands=(["direct_strike"], []), tricks=(["spell_echo"], []))
    s.apply("direct_strike")
    assert s.lp[1] == 4


def test_final_stand_at_exactly_one(pack):
    s = position(pack, current=1, hands=(["fireball"], ["direct_strike"]), lp=(4, 10),
                 boards=(["swift_scout"], []), tricks=(["final_stand"], []))
    events = s.apply("direct_strike")
    assert [e.data["power"] for e in of(events, "buff")] == [4]
    assert s.boards[0][0].cur_power == 2


def test_mighty_warrior_heals_on_summon(pack):
    s = position(pack, hands=(["mighty_warrior"], []))
    s.apply("mighty_warrior")
    assert s.lp[0] == 11


def test_fireball(pack):
    s = position(pack, hands=(["fireball"], []))
    s.apply("fireball")
    assert s.lp[1] == 8


def test_counterattack_stops_an_unblocked_attack_and_hits_back(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["mighty_warrior"], []), tricks=([], ["counterattack"]))
    events = s.apply("fireball")
    assert s.lp == [9, 8] and of(events, "attack_stopped")


def test_counterattack_waits_when_a_blocker_exists(pack):
    s = position(pack, hands=(["fireball"], []), boards=(["mighty_warrior"], ["stone_golem"]),
                 tricks=([], ["counterattack"]))
    s.apply("fireball")
    assert ids(s, s.tricks[1]) == ["counterattack"]
