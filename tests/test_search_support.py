"""Search players are offered only where playouts from a re-deal can tell moves apart."""

from __future__ import annotations

import pytest

from tcgtui.engine import registry
from tcgtui.opponents.spec import SpecError, check_supported, parse_spec


@pytest.mark.parametrize("game_id", [g.info.id for g in registry.games() if not g.info.search])
@pytest.mark.parametrize("spec", ["mc:10", "mcts:50"])
def test_search_is_refused_where_the_result_hangs_on_a_secret(game_id: str, spec: str) -> None:
    with pytest.raises(SpecError, match=f"cannot play {game_id}"):
        check_supported(parse_spec(spec), registry.get(game_id))


def test_the_secret_games_are_the_ones_expected() -> None:
    assert {g.info.id for g in registry.games() if not g.info.search} == {"eleusis", "deck"}


@pytest.mark.parametrize("game_id", ["tcg", "connect4"])
def test_search_still_plays_games_of_positions(game_id: str) -> None:
    check_supported(parse_spec("mc:10"), registry.get(game_id))
