"""Eleusis under --protocol seed: the seed's deals card for card, its judge timing, no bankruptcy.

With ``TCGTUI_ELEUSIS_UPSTREAM`` naming a checkout of the seed's repository, the
expected deals of its 26 rules x 3 rounds are made by running the seed's own
code from that checkout (``seed_code.py``), and tcgtui's library is checked
rule by rule against the seed's rules; without it those tests skip.  The
fixture tests always run: ``fixtures/seed_rules.json`` is a rule file in the
seed's shape written for these tests (its three rules are tcgtui's library
rules 0, 5 and 15 in other words), and ``fixtures/seed_deals.json`` the deals
the seed's code made from it (seed_code.py, 2 rounds, base 42).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.engine.core import Match
from tcgtui.engine.eleusis import seed_deals
from tcgtui.engine.eleusis.cards import DISTINCT, parse_card
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.judge import accepts
from tcgtui.engine.eleusis.library import COUNT, compiled
from tcgtui.engine.eleusis.state import BANKRUPT, TURNS
from tcgtui.errors import UserError
from tcgtui.upstream import load
from tests.scenario import rule

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
CHECKOUT = os.environ.get("TCGTUI_ELEUSIS_UPSTREAM", "")
needs_checkout = pytest.mark.skipif(not (CHECKOUT and (Path(CHECKOUT) / "src" / "eleusis").is_dir()),
                                    reason="TCGTUI_ELEUSIS_UPSTREAM: no checkout of the seed's repository")


def _fixture_checkout(tmp_path: Path) -> Path:
    (tmp_path / "rules.json").write_text((FIXTURES / "seed_rules.json").read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def _deal(upstream, rule: int, round_index: int) -> dict:
    game = EleusisGame.from_params({"rule": rule, "protocol": "seed", "upstream": upstream, "seed_round": round_index})
    state = game.new_state(12345)                 # tcgtui's own seed plays no part in the seed's deal
    return {"seed": game.deck_seed(12345), "hand": [c.text() for c in state.hand],
            "starter": [c.text() for c in state.mainline()], "deck": [c.text() for c in state.deck]}


def test_the_fixture_deals_are_the_seeds_card_for_card(tmp_path):
    upstream = load("--upstream", str(_fixture_checkout(tmp_path)))
    expected = json.loads((FIXTURES / "seed_deals.json").read_text(encoding="utf-8"))
    for rule, rounds in expected.items():
        for index, want in enumerate(rounds):
            got = _deal(upstream, int(rule), index)
            assert got["seed"] == want["seed"]
            assert (got["hand"], got["starter"], got["deck"][:len(want["next"])]) == \
                (want["hand"], want["starter"], want["next"]), (rule, index)


def test_the_round_seed_is_base_plus_the_codes_md5_plus_the_round():
    code = "return card.rank > 3"
    low = int.from_bytes(__import__("hashlib").md5(code.encode()).digest()[-4:], "big")
    assert seed_deals.round_seed(code, 0) == (42 + low) % 2 ** 32
    assert seed_deals.round_seed(code, 2, base=7) == (7 + low + 2) % 2 ** 32


def test_tcgtuis_own_deal_is_unchanged_and_differs_from_the_seeds(tmp_path):
    upstream = load("--upstream", str(_fixture_checkout(tmp_path)))
    own = EleusisGame.from_params({"rule": 0}).new_state(12345)
    seed = EleusisGame.from_params({"rule": 0, "protocol": "seed", "upstream": upstream}).new_state(12345)
    assert [c.text() for c in own.hand] != [c.text() for c in seed.hand]
    assert own.protocol == "tcgtui" and seed.protocol == "seed"


def test_seed_protocol_without_a_checkout_is_one_line():
    with pytest.raises(ValueError, match="--protocol seed .* --upstream"):
        EleusisGame.from_params({"rule": 0, "protocol": "seed"})


def test_a_bad_rules_file_is_one_line(tmp_path):
    (tmp_path / "rules.json").write_text('{"rules": 3}', encoding="utf-8")
    with pytest.raises(ValueError, match="--upstream: rules.json: expected an object with a 'rules' list"):
        EleusisGame.from_params({"rule": 0, "protocol": "seed", "upstream": load("--upstream", str(tmp_path))})


def test_the_command_line_says_what_is_missing(tmp_path):
    from tcgtui.arena import build_game
    from tcgtui.engine import registry
    with pytest.raises(UserError, match="--upstream: .* has no rules.json"):
        build_game(registry.get("eleusis"), {"rule": 0, "protocol": "seed", "upstream": str(tmp_path)})


def test_the_setup_records_the_protocol_and_the_deck_seed_so_a_replay_needs_no_checkout(tmp_path):
    upstream = load("--upstream", str(_fixture_checkout(tmp_path)))
    game = EleusisGame.from_params({"rule": 5, "protocol": "seed", "upstream": upstream, "seed_round": 1})
    setup = game.deal_setup(99)
    assert setup["protocol"] == "seed" and setup["seed_round"] == 1 and setup["upstream"]["path"] == str(tmp_path)
    again = EleusisGame.from_params(setup)             # no checkout: the recorded deck seed deals it
    assert [c.text() for c in again.new_state(99).hand] == [c.text() for c in game.new_state(99).hand]
    assert EleusisGame.from_params({"rule": 5}).setup()["protocol"] == "tcgtui"


@rule("eleusis.rules.guess_seed")
def test_a_guess_is_judged_after_the_turns_card_under_the_seed(tmp_path):
    """Secret rule 16 (alternating colours); the guess "any card" is wrong at once either way, and its
    counterexample shows the mainline it was judged on: with the card just accepted under the seed's
    protocol, without it under tcgtui's."""
    upstream = load("--upstream", str(_fixture_checkout(tmp_path)))
    for protocol in ("seed", "tcgtui"):
        game = EleusisGame.from_params({"rule": 16, "protocol": protocol, "upstream": upstream})
        match = Match(game, 3)
        state = match.state
        before = [c.text() for c in state.mainline()]
        card = next(c for c in state.hand if accepts(state.rule, c, state.mainline()))
        move = json.dumps({"card": card.text(), "guess": True, "rule": "any", "code": "return True"})
        events = match.play(game.move_from_text(move))
        guess = next(e for e in events if e.kind == "guess")
        judged = guess.data["counterexample"]["mainline"]
        assert judged == (before + [card.text()] if protocol == "seed" else before), protocol


def test_no_bankruptcy_under_the_seed(tmp_path):
    """Fifteen wrong guesses bankrupt a tcgtui round early; the seed plays on to turn 30."""
    upstream = load("--upstream", str(_fixture_checkout(tmp_path)))
    ends = {}
    for protocol in ("seed", "tcgtui"):
        game = EleusisGame.from_params({"rule": 0, "protocol": protocol, "upstream": upstream})
        match = Match(game, 1)
        while not match.state.is_terminal():
            card = match.state.hand[0]
            move = json.dumps({"card": card.text(), "guess": True, "rule": "all", "code": "return True"})
            match.play(game.move_from_text(move))
        ends[protocol] = (match.state.outcome.reason, match.state.turns, match.state.score)
    assert ends["seed"] == (TURNS, 30, -60)
    assert ends["tcgtui"][0] == BANKRUPT and ends["tcgtui"][1] < 30


def test_the_bench_plan_gives_each_deal_its_seed_round():
    from tcgtui.engine.eleusis.bench import plan
    rounds, round_of, _ = plan({"eleusis_rules": "0-1", "eleusis_seeds": 3}, {"protocol": "seed"})
    assert rounds == 6 and [round_of(i)[0]["seed_round"] for i in range(6)] == [0, 1, 2, 0, 1, 2]
    assert "seed_round" not in plan({"eleusis_rules": "0", "eleusis_seeds": 3}, {})[1](0)[0]


def _seed(*args: str, stdin: str | None = None) -> object:
    out = subprocess.run([sys.executable, str(HERE / "seed_code.py"), CHECKOUT, *args], input=stdin,
                         capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


@needs_checkout
def test_the_seeds_26_rules_by_3_rounds_are_dealt_card_for_card():
    rules = str(Path(CHECKOUT) / "rules.json")
    expected = _seed(rules, "3", "42")
    upstream = load("--upstream", CHECKOUT)
    assert len(expected) == COUNT
    for rule in range(COUNT):
        for index in range(3):
            want = expected[rule][index]
            assert _deal(upstream, rule, index) == want, (rule, index)


@needs_checkout
def test_tcgtuis_library_answers_as_the_seeds_rules():
    rng = random.Random(7)
    cases = []
    for _ in range(40):
        mainline = [rng.choice(DISTINCT).text() for _ in range(rng.randrange(9))]
        cases += [(mainline, c.text()) for c in DISTINCT]
    answers = _seed(str(Path(CHECKOUT) / "rules.json"), "verdicts", stdin=json.dumps(cases))
    for number in range(COUNT):
        rule = compiled(number)
        mine = [accepts(rule, parse_card(c), [parse_card(x) for x in m]) for m, c in cases]
        assert mine == answers[number], number


def test_the_rules_players_read_say_what_the_seeds_protocol_does():
    from tcgtui import locales
    from tcgtui.engine.eleusis.narrator import rules_text
    for lang in ("en", "ar"):
        catalog = locales.load(lang)
        own = dict(rules_text(EleusisGame.from_params({"rule": 0}), catalog))
        seed = dict(rules_text(EleusisGame.from_params({"rule": 0, "protocol": "seed", "seed_deal": 7}).public(), catalog))
        assert "eleusis.rules.bankrupt" in own and "eleusis.rules.bankrupt" not in seed
        assert seed["eleusis.rules.guess_seed"] != own["eleusis.rules.guess"]
