"""Every registered game keeps the engine API, checked the same way for each (OpenSpiel-style).

Legal moves, apply, clone independence, replay from the seed, observations that
carry only what their seat may see (a state rebuilt from a seat's observation
looks the same to that seat), returns per seat, and every game ends.
"""

from __future__ import annotations

import json
import random

import pytest

from tcgtui.arena import load_resources
from tcgtui.engine import registry
from tcgtui.engine.core import Match, replay
from tcgtui.engine.registry import LIST, SCORE, TEXT, WDL

GAMES = [spec.id for spec in registry.games()]
SEEDS = (0, 1, 7)
MAX_MOVES = 5_000


def make(game_id: str):
    spec = registry.get(game_id)
    return spec, spec.make(load_resources(spec, spec.info.resolve()))


def random_match(game, seed: int) -> Match:
    match = Match(game, seed)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if match.state.is_terminal():
            break
        match.play(rng.choice(match.state.legal_moves()))
    return match


def as_json(obj) -> str:
    return json.dumps(obj.to_json(), sort_keys=True, default=str)


def test_the_registry_holds_the_default_game_and_lists_it_first():
    assert GAMES[0] == registry.DEFAULT
    with pytest.raises(registry.UnknownGame, match="expected one of"):
        registry.get("no-such-game")


@pytest.mark.parametrize("game_id", GAMES)
def test_info_is_consistent(game_id):
    spec, game = make(game_id)
    info = spec.info
    assert info.seats in (1, 2) and info.outcome in (WDL, SCORE)
    assert game.name == game_id
    state = game.new_state(0)
    assert state.num_seats == info.seats
    assert json.loads(json.dumps(game.setup(), default=str)) is not None


@pytest.mark.parametrize("game_id", [g for g in GAMES if registry.get(g).info.moves == LIST])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_and_replay_from_their_seed(game_id, seed):
    spec, game = make(game_id)
    match = random_match(game, seed)
    assert match.state.is_terminal(), f"{game_id} did not end within {MAX_MOVES} moves"
    assert match.state.legal_moves() == [] and match.state.current_player == -1
    again = replay(game, match.record())
    assert as_json(again.state) == as_json(match.state)
    assert again.record().to_json() == match.record().to_json()
    returns = match.state.returns()
    assert len(returns) == spec.info.seats
    if spec.info.outcome == WDL and spec.info.seats == 2:
        assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
    if spec.info.right_wrong:           # the report gives its mean an exact binomial interval
        assert spec.info.outcome == SCORE and set(returns) <= {0.0, 1.0}


@pytest.mark.parametrize("game_id", [g for g in GAMES if registry.get(g).info.moves == LIST])
def test_legal_moves_apply_and_clones_are_independent(game_id):
    spec, game = make(game_id)
    state = game.new_state(3)
    rng = random.Random(3)
    steps = 0
    while not state.is_terminal() and steps < 40:
        moves = state.legal_moves()
        assert moves, "a game that goes on has a legal move"
        for m in moves:
            assert state.validate(m) is None
            assert game.move_from_text(game.move_to_text(m)) == m
        before = as_json(state)
        twin = state.clone()
        twin.apply(rng.choice(twin.legal_moves()))
        assert as_json(state) == before, "playing on a clone changed the original"
        state.apply(rng.choice(moves))
        steps += 1


@pytest.mark.parametrize("game_id", [g for g in GAMES if registry.get(g).info.moves == LIST])
def test_observations_carry_only_what_their_seat_may_see(game_id):
    """A state rebuilt from a seat's observation (re-dealing all it cannot see) must look
    the same to that seat, whatever the re-deal: so the observation holds no hidden truth
    that a re-deal would not also produce."""
    spec, game = make(game_id)
    for seed in SEEDS:
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(12):
            if state.is_terminal():
                break
            seat = state.current_player
            obs = state.observation(seat)
            assert obs.seat == seat and tuple(obs.legal_moves) == tuple(state.legal_moves())
            for k in range(3):
                rebuilt = game.resample(obs, random.Random(f"{seed}:{k}"))
                assert rebuilt.observation(seat) == obs
            state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("game_id", [g for g in GAMES if registry.get(g).info.moves == TEXT])
@pytest.mark.parametrize("seed", SEEDS)
def test_text_games_end_replay_and_clone_with_their_random_move(game_id, seed):
    """Free-text games have no move list to draw from: they give ``referee.random_move(state, rng)``,
    any valid move for whoever moves now (a referee's verdict included, so no sandbox or model is needed)."""
    spec, game = make(game_id)
    random_move = spec.referee.random_move
    if random_move is None:
        pytest.skip(f"{game_id} gives no referee.random_move")
    match = Match(game, seed)
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if match.state.is_terminal():
            break
        move = random_move(match.state, rng)
        assert match.state.validate(move) is None
        assert game.move_from_text(game.move_to_text(move)) == move
        before = as_json(match.state)
        match.state.clone().apply(move)
        assert as_json(match.state) == before, "playing on a clone changed the original"
        match.play(move)
    assert match.state.is_terminal(), f"{game_id} did not end within {MAX_MOVES} moves"
    assert match.state.current_player == -1 and len(match.state.returns()) == spec.info.seats
    if spec.info.right_wrong:
        assert spec.info.outcome == SCORE and set(match.state.returns()) <= {0.0, 1.0}
    again = replay(game, match.record())
    assert as_json(again.state) == as_json(match.state)
    assert again.record().to_json() == match.record().to_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_judged_values_see_only_what_the_decider_sees(game_id):
    """Issue 40: an evaluator of stored decisions values a position from the decider's information, so two
    states its seat cannot tell apart (the true one and a re-deal from its observation) get the same values."""
    from tcgtui.quality.evaluators import by_playouts, judged, resolve
    spec, game = make(game_id)
    if not judged(spec):
        pytest.skip(f"{game_id}: no evaluator judges its decisions")
    rng = random.Random(3)
    state = game.new_state(3)
    for _ in range(6):              # into the game, but not past its last decision (the quiz has one)
        after = state.clone()
        after.apply(rng.choice(after.legal_moves()))
        if after.is_terminal():
            break
        state = after
    seat = state.current_player
    twin = game.resample(state.observation(seat), random.Random(4))
    evaluators = ["mc:30"] if by_playouts(spec) else []
    try:
        evaluators.append(resolve(spec, game, None).key)
    except ValueError:              # the game's own evaluator does not take this board (Gomoku)
        pass
    for key in evaluators:
        name, _, k = key.partition(":")
        key = f"{name}:{min(int(k), 40)}" if k.isdigit() else key       # a test's budget: oracle:400 is seconds
        evaluator = resolve(spec, game, key)
        assert evaluator.values(state, 9) == evaluator.values(twin, 9), key


REFERENCES = [(g, r.name) for g in GAMES for r in registry.get(g).references if not r.sees_state]


@pytest.mark.parametrize(("game_id", "name"), REFERENCES)
def test_reference_players_decide_from_their_seats_observation(game_id, name):
    """Every reference player that is not declared omniscient (``sees_state``) picks the same move,
    from the same seed, in the true state and in a re-deal of everything its seat cannot see
    (the card game's ``nmc``, the grid games' ``ab`` and ``perfect``...).  A small budget: the
    property is the policy's, not its depth's."""
    spec, game = make(game_id)
    ref = spec.reference(name)
    arg = min(ref.default_arg or 1, 4) if ref.takes_arg else None
    choose = ref.policy(game, arg)
    state = game.new_state(5)
    rng = random.Random(5)
    decided = 0
    text = spec.info.moves == TEXT   # moves typed, not listed (the puzzle duels): the opening position
    for step in range(1 if text else 10):
        if state.is_terminal():
            break
        seat = state.current_player
        twin = game.resample(state.observation(seat), random.Random(step))
        if text or len(state.legal_moves()) > 1:
            assert choose(state, random.Random(step)) == choose(twin, random.Random(step)), step
            decided += 1
        if not text:
            state.apply(rng.choice(state.legal_moves()))
    assert decided, f"{game_id}: no decision between two moves in 10 plies"
