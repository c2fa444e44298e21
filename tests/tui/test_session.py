"""The session: a move narrated in steps, and a game resumed with every move handed on."""

from __future__ import annotations

import random

import pytest

from tcgtui.engine.core import Event, Match
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.random_agent import RandomAgent
from tcgtui.match import FINISHED
from tcgtui.tui.games.tcg import split_stages
from tcgtui.tui.session import GameSession, SeatInfo

pytestmark = pytest.mark.anyio


async def test_a_move_is_narrated_in_play_combat_and_end_steps() -> None:
    events = [Event("cast", 0, {"card": "x"}), Event("damage", 1, {"amount": 3}),
              Event("attack", 0, {"card": "y"}), Event("block", 1), Event("attack", 0, {"card": "z"}),
              Event("end_turn", 0), Event("turn", 1), Event("draw", 1)]
    assert [[e.kind for e in s] for s in split_stages(events)] == [
        ["cast", "damage"], ["attack", "block", "attack"], ["end_turn", "turn", "draw"]]
    assert split_stages([Event("end_turn", 0)]) == [[Event("end_turn", 0)]]


async def test_a_resumed_game_goes_on_and_hands_every_move_on(community) -> None:  # type: ignore[no-untyped-def]
    game = TcgGame(community)
    under_way = Match(game, 12)
    rng = random.Random(1)
    for _ in range(5):
        under_way.play(rng.choice(under_way.state.legal_moves()))
    saved = []
    session = GameSession(game, 12, (SeatInfo(RandomAgent(), "random"), SeatInfo(RandomAgent(), "random")),
                          pause=0.0, resume=under_way, on_move=saved.append)
    result = await session.run()
    assert result.status == FINISHED and session.match is under_way
    assert result.record.moves[:5] == [game.move_to_text(m) for m in under_way.moves[:5]]
    assert [d.move for d in saved] == result.record.moves[5:]
