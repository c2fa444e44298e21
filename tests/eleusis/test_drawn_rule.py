"""A secret rule per deal: without ``rule=N`` each deal draws its library rule from its seed, and
the record names the rule it played (reports group by it; rebuilding from the record deals the same round)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from tcgtui import config
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import GameRecord, Match, replay
from tcgtui.engine.eleusis.analysis import round_facts, sections as sections_of
from tcgtui.engine.eleusis.game import DRAWN, drawn_rule
from tcgtui.engine.eleusis.library import compiled
from tcgtui.engine.registry import ParamError
from tcgtui.store import Store
from tests.tui.helpers import settle
from tests.tui.test_recorded_play import app_for, quit_by_keys

SPEC = registry.get("eleusis")


def test_the_default_rule_is_drawn_from_each_deals_seed() -> None:
    game = SPEC.game({})
    assert SPEC.info.resolve({})["rule"] == DRAWN and game.setup()["rule"] == DRAWN
    rules = {seed: Match(game, seed).state.rule.source for seed in range(12)}
    assert len(set(rules.values())) > 3                              # not one rule for every deal
    for seed, source in rules.items():
        assert source == compiled(drawn_rule(seed)).source            # each deal's own, from its seed
        assert Match(SPEC.game({}), seed).state.rule.source == source  # and the same every time


def test_the_record_names_the_drawn_rule_and_rebuilds_the_same_round() -> None:
    game = SPEC.game({"guess_format": "code"})
    match = Match(game, 3)
    rng = random.Random(0)
    while not match.state.is_terminal() and len(match.moves) < 8:
        match.play(rng.choice(match.state.legal_moves()))
    record = match.record().to_json()
    assert record["setup"]["rule"] == drawn_rule(3) != DRAWN
    explicit = SPEC.game(SPEC.info.resolve({k: v for k, v in record["setup"].items() if k != "max_turns"}))
    again = replay(explicit, GameRecord.from_json(record))
    assert again.state.to_json() == match.state.to_json()


def test_an_explicit_rule_keeps_its_record_unchanged() -> None:
    game = SPEC.game({"rule": 7})
    assert game.setup() == {"rule": 7, "rule_code": "", "guess_format": "text", "max_turns": 30, "protocol": "tcgtui"}
    assert Match(game, 3).record().setup == {**game.setup(), "rule_from": "7"}     # given, not drawn
    assert Match(game, 11).state.rule is compiled(7)


def test_drawn_is_a_word_of_the_rule_parameter_and_games_shows_it(capsys: pytest.CaptureFixture[str]) -> None:
    param = SPEC.info.param("rule")
    assert param.parse("drawn") == DRAWN and param.parse("DRAWN") == DRAWN and param.parse("7") == 7
    assert param.check(DRAWN) == DRAWN                               # a resume hands the stored value back
    with pytest.raises(ParamError, match=r"rule=26: expected an integer from 0 to 25, or drawn"):
        param.parse("26")
    with pytest.raises(ParamError, match="or drawn"):
        param.parse("-2")
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "rule=drawn" in out and "rule=-1" not in out


def test_the_players_copy_of_a_drawn_game_holds_no_rule() -> None:
    public = SPEC.game({}).public()
    assert public.rule is None and public.rule_number is None and "rule" not in public.setup()
    assert "rule" not in public.deal_setup(3)
    with pytest.raises(ValueError, match="no rule"):
        public.new_state(3)


def test_reports_group_a_drawn_round_by_the_rule_it_played() -> None:
    match = Match(SPEC.game({}), 5)
    while not match.state.is_terminal():
        match.play(match.state.legal_moves()[0])
    facts = round_facts(match.record().to_json())
    assert facts is not None and facts["rule"] == drawn_rule(5)


def test_bench_without_rules_draws_a_rule_per_deal(tmp_path: Path) -> None:
    db = tmp_path / "b.sqlite3"
    assert main(["bench", "--game", "eleusis", "--agent", "random", "--games", "4", "--db", str(db)]) == 0
    with sqlite3.connect(db) as c:
        rows = [(seed, json.loads(params)["rule"]) for seed, params in c.execute("select seed, game_params from games")]
    assert len(rows) == 4 and all(rule == drawn_rule(seed) for seed, rule in rows)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


@pytest.mark.anyio
async def test_a_persons_round_resumes_on_its_drawn_rule_and_a_rematch_draws_anew(db: Path) -> None:
    with Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--name", "ada", "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for key in "12":
                await pilot.press(key, "enter")        # a digit selects a card, Enter plays it (docs/keys.md)
                await settle(pilot, app)
            rule = app.board.session.match.state.rule.source
            await quit_by_keys(pilot, app)
        assert rule == compiled(drawn_rule(3)).source
        [saved] = store.games()
        assert saved.game_params["rule"] == drawn_rule(3)
        assert saved.record["setup"]["rule"] == drawn_rule(3)

        app = app_for(store, "--resume", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.board.session.match.state.rule.source == rule
            assert len(app.board.session.match.moves) == 2
            dealer = app.settings.dealer_for(app.settings)
            first = dealer.deal(None, "en")
            rematch = dealer.deal(first, "en")                       # the next seed, its own rule
            assert rematch.seed == 4 and rematch.resume.state.rule.source == compiled(drawn_rule(4)).source
            assert drawn_rule(4) != drawn_rule(3)


def test_a_dealers_own_rule_is_not_drawn_and_stays_out_of_the_library_groups() -> None:
    game = SPEC.game({"rule_code": "return card.color == 'red'"})
    match = Match(game, 3)
    assert match.state.rule.source == "return card.color == 'red'" and game.rule_number_of(3) is None
    while not match.state.is_terminal():
        match.play(match.state.legal_moves()[0])
    record = match.record().to_json()
    assert record["setup"]["rule"] == DRAWN and record["setup"]["rule_code"]      # no library rule was drawn
    out = sections_of([SimpleNamespace(agent="scientist", lang="en", record=record),
                       SimpleNamespace(agent="random", lang="en", record=record)])
    assert [r["rounds"] for r in out["science"]] == [1, 1]
    assert out["by_rule"] == [] and out["by_quartile"] == [] and out["reference"] == []
