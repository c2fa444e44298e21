"""A run's identity: what may change when a sweep is resumed under the same name, and what may not."""

from __future__ import annotations

from pathlib import Path

import pytest

from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.bench.plan import Cell, build_config, deal_seed, default_run_name, identity, open_run
from tcgtui.errors import UserError
from tcgtui.store import Store

DESCRIBED = {"spec": "llm:m", "model": "m", "base_url": "http://a:1/v1", "prompt_version": "v1-en-abc"}
LLM = {"llm:m": {"en": DESCRIBED}}


def _config(game: TcgGame, cells: list[Cell], games: int, players: dict | None = None, seed: int = 0) -> dict:
    return build_config(identity(game, seed), cells, players or {}, games, {"concurrency": 4})


def test_deal_seeds_are_fixed_by_the_run_seed_and_index_alone() -> None:
    assert deal_seed(0, 5) == deal_seed(0, 5)
    assert len({deal_seed(0, i) for i in range(1000)}) == 1000
    assert all(0 <= deal_seed(s, i) < 2 ** 63 for s in (0, -1, 10 ** 12) for i in (0, 99))


def test_default_names_follow_the_pack_content_and_seed(community: Pack, starter: Pack) -> None:
    a = default_run_name(identity(TcgGame(community), 0))
    assert a == default_run_name(identity(TcgGame(community), 0)) and a.startswith("community-seed0-")
    assert a != default_run_name(identity(TcgGame(community), 1))
    assert default_run_name(identity(TcgGame(starter), 0)).startswith("starter-seed0-")


def test_resuming_adds_cells_and_games_to_the_run(tmp_path: Path, community: Pack) -> None:
    game = TcgGame(community)
    with Store(tmp_path / "t.sqlite3") as store:
        first = open_run(store, "r", _config(game, [Cell("random", "random", "en")], 10, LLM))
        again = open_run(store, "r", _config(game, [Cell("random", "random", "ar")], 5))
        assert again.id == first.id
        stored = store.run("r").config
        assert stored["cells"] == [["random", "random", "ar"], ["random", "random", "en"]]
        assert stored["games"] == 10 and stored["langs"] == ["ar", "en"]
        assert stored["players"] == LLM          # a player described before is kept


def test_a_player_described_differently_is_refused_but_its_address_may_move(tmp_path: Path,
                                                                            community: Pack) -> None:
    game = TcgGame(community)
    cells = [Cell("llm:m", "random", "en")]
    moved = {"llm:m": {"en": {**DESCRIBED, "base_url": "http://b:2/v1"}}}
    changed = {"llm:m": {"en": {**DESCRIBED, "prompt_version": "v2-en-def"}, "ar": {"prompt_version": "v2-ar"}}}
    with Store(tmp_path / "t.sqlite3") as store:
        open_run(store, "r", _config(game, cells, 4, LLM))
        open_run(store, "r", _config(game, cells, 4, moved))
        with pytest.raises(UserError, match=r"players\.llm:m\.en\.prompt_version is \"v2-en-def\" but the run "
                                            r"was made with \"v1-en-abc\""):
            open_run(store, "r", _config(game, cells, 4, changed))
        with pytest.raises(UserError, match="identity.seed"):
            open_run(store, "r", _config(game, cells, 4, LLM, seed=9))
