"""A game's worst moments in the replay (issue 40): a stored Tic-Tac-Toe game analyzed by ``perfect``
marks its blunders, and N in the viewer lands on one the game's own marks (missed wins and blocks)
do not show; a game without stored values gets no such mark."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.quality import worst
from tcgtui.quality.table import BLUNDER
from tcgtui.replay.load import load
from tcgtui.replay.moments import marked
from tcgtui.store import Store
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import screen_text
from tcgtui.tui.screens.replay import ReplayScreen


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("blunders") / "t.sqlite3"
    assert main(["bench", "--db", str(db), "--game", "tictactoe", "--agent", "random", "--vs", "perfect",
                 "--games", "8", "--seed", "2", "--run", "blunders"]) == 0
    assert main(["analyze", "--run", "blunders", "--db", str(db)]) == 0
    return db


def _quiet_blunder(db: Path) -> tuple[str, int, dict]:
    """A game, and the first step that is a stored blunder the game's own marks leave unmarked."""
    with Store(db, create=False, read_only=True) as store:
        for row in store.games():
            replay = load(store, row.id)
            worst.mark(store, replay)
            for step in replay.steps:
                if step.judged is not None and step.moment is None:
                    return row.id, step.index, step.judged[1]
    raise AssertionError("no blunder apart from a missed win or block in 8 games")


def test_only_stored_blunders_are_marked(analyzed) -> None:
    with Store(analyzed, create=False, read_only=True) as store:
        regrets = {(gid, idx + 1): regret for gid, idx, regret in
                   store.conn.execute("SELECT game_id, idx, regret FROM decision_values")}
        for row in store.games():
            replay = load(store, row.id)
            own = marked(replay.steps)
            worst.mark(store, replay)
            judged = {s.index for s in replay.steps if s.judged}
            assert judged == {i for (gid, i), r in regrets.items() if gid == row.id and r > BLUNDER}
            assert set(marked(replay.steps)) == set(own) | judged
    bare = analyzed.with_name("bare.sqlite3")
    assert main(["bench", "--db", str(bare), "--game", "tictactoe", "--agent", "random", "--vs", "perfect",
                 "--games", "1", "--seed", "2"]) == 0
    with Store(bare, create=False, read_only=True) as store:        # nothing analyzed: nothing computed here
        replay = load(store, store.games()[0].id)
        worst.mark(store, replay)
        assert all(s.judged is None for s in replay.steps)
    conn = sqlite3.connect(bare)                  # a store before version 7 has no table of values
    conn.execute("DROP TABLE decision_values")
    conn.commit()
    conn.close()
    with Store(bare, create=False, read_only=True) as store:
        replay = load(store, store.games()[0].id)
        worst.mark(store, replay)
        assert all(s.judged is None for s in replay.steps)


@pytest.mark.anyio
async def test_n_lands_on_the_blunder(analyzed) -> None:
    game_id, index, params = _quiet_blunder(analyzed)
    with Store(analyzed, create=False, read_only=True) as store:
        replay = load(store, game_id)
        assert index not in marked(replay.steps)         # the game's own marks do not reach it
        worst.mark(store, replay)
    moments = marked(replay.steps)
    app = ArenaApp(Settings(lang="en", replay=replay))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for _ in range(moments.index(index) + 1):
            await pilot.press("n")
            await pilot.pause()
        assert screen.index == index
        text = " ".join(screen_text(app).split())          # the pane may wrap the line: its parts
        assert f"Blunder by perfect's values: regret {params['regret']}; best was {params['best'][0]}" in text
        assert params["regret"] in ("1", "2") and all(move in text for move in params["best"])
        at = moments.index(index)
        await pilot.press("p")
        await pilot.pause()
        assert screen.index == (moments[at - 1] if at else index)
