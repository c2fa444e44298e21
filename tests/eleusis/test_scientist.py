"""The reference scientist: a hypothesis space, elimination, the best split, a guess past 2/3."""

from __future__ import annotations

import asyncio
import random

from tcgtui.engine import registry
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.hypotheses import space
from tcgtui.engine.eleusis.library import library
from tcgtui.engine.eleusis.moves import parse_play
from tcgtui.engine.eleusis.players import THRESHOLD, decide, groups, survivors
from tcgtui.match import run_match
from tcgtui.opponents.registry import make_agent
from tests.eleusis.helpers import game, state


def test_the_space_holds_the_26_rules_and_their_variants():
    sources = [h.source for h in space()]
    assert sources[:26] == [r.code for r in library()]
    assert len(sources) == len(set(sources)) and len(sources) > 200
    assert "return card.suit == 'H'" in sources and "return 2 <= card.rank <= 6" in sources


def test_the_secret_rule_always_survives_and_contradicted_ones_do_not():
    for number in (3, 16, 22, 25):
        s = game(number).new_state(number)
        rng = random.Random(number)
        for _ in range(12):
            s.apply(rng.choice(s.legal_moves()))
        alive = {h.source for h in survivors(s.observation(0))}
        assert library()[number].code in alive
        if number == 16:
            assert "return card.color == 'red'" not in alive or all(a for _, a in s.plays)


def test_it_reads_only_the_observation():
    """Two rounds that look the same to the seat but hide different rules get the same move."""
    a = state(7, hand="2H 3C 4D 5S 9H 9C 10D JS QH KC AH 7S", mainline="8H", deck="")
    b = state(9, hand="2H 3C 4D 5S 9H 9C 10D JS QH KC AH 7S", mainline="8H", deck="")
    assert a.observation(0) == b.observation(0)
    assert decide(a.observation(0), random.Random(1)) == decide(b.observation(0), random.Random(1))


def test_it_plays_the_card_that_splits_the_survivors_and_guesses_past_two_thirds():
    s = state(7, hand="2H 2D", mainline="8H")
    first = decide(s.observation(0), random.Random(0))
    assert not first.guess and first.confidence < 7
    # after every red card accepted and every black one refused, red is the heaviest group
    s = state(7, hand="2H 3C 4D 5S 9H 9C 10D JS QH KC AH 7S", mainline="8H")
    for card in ("3C", "4D", "5S", "9H", "9C", "10D", "JS", "QH"):
        s.apply(card)
    obs = s.observation(0)
    play = decide(obs, random.Random(0))
    weights = groups(survivors(obs), [parse_card(c) for c in obs.mainline])
    share = weights[0][0] / sum(w for w, _ in weights)
    assert play.guess == (share > THRESHOLD) and play.code == weights[0][1].source
    assert play.card.text() in obs.legal_moves


def test_it_plays_a_round_through_the_arena_and_finds_a_simple_rule():
    g = registry.get("eleusis").game({"rule": 7, "guess_format": "code"})
    agent = make_agent("scientist")
    result = asyncio.run(run_match(g, 0, (agent,)))
    assert result.outcome.reason == "solved" and result.outcome.scores[0] >= 20
    moves = [parse_play(m) for m in result.record.moves]
    assert moves[-1].guess and all(m.confidence is not None for m in moves)
