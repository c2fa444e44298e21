"""Pictures of the home screen and the replay viewer at 80×24 and 120×40 (home also at 200×50: a first
visit stands centred, no empty half-screen), in English and Arabic.

Home without a store (nothing to list: the pictures do not depend on the clock); the replay on a
tic-tac-toe game built here with a fixed id, a model's decision with a refused attempt and its
reasoning, and a missed block at move 4.  Review changed SVGs in tests/tui/__snapshots__ first."""

from __future__ import annotations

import pytest

from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.opponents.human import HUMAN
from tcgtui.replay.load import positions
from tcgtui.replay.moments import mark
from tcgtui.store import DecisionRow
from tcgtui.store.rows import pending_row
from tcgtui.tui.app import ArenaApp, Settings

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]
MOVES = ["2,2", "1,1", "3,3", "1,2", "2,1"]        # O threatens 1,3 after move 4; X's move 5 does not block it


def stored_game():  # type: ignore[no-untyped-def]
    game = registry.get("tictactoe").game({})
    match = Match(game, 11)
    for text in MOVES:
        match.play(game.move_from_text(text))
    row = pending_row(game, seed=11, agent="llm:demo-model", opponent="human:ann", lang="en", game_index=0,
                      agent_seat=0, run_id=None, started_at="2026-01-02T03:04:05")
    row.id, row.record, row.status, row.moves = "0123abcd-0000-4000-8000-000000000001", match.record().to_json(), \
        "abandoned", len(MOVES)
    decisions = [DecisionRow(i, i + 1, i % 2, row.seats[i % 2], m, None, 1.5, {}) for i, m in enumerate(MOVES)]
    decisions[4] = DecisionRow(4, 5, 0, "llm:demo-model", "2,1", None, 3.25, {"attempts": [
        {"reply": '{"row": 2, "column": 2}', "reasoning": "The centre is strong.", "error": "taken"},
        {"reply": '{"row": 2, "column": 1}', "reasoning": "Then the left edge, next to my centre.", "error": None}]})
    replay = positions(row, decisions)
    mark(replay)
    return replay


@pytest.mark.parametrize("size", [*SIZES, (200, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_home(snap_compare, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = ArenaApp(Settings(home=True, lang=lang, seed=7, pause=0.0, seats=(HUMAN, "mc:100")))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_replay(snap_compare, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    replay = stored_game()
    assert [s.index for s in replay.steps if s.moment] == [5]
    app = ArenaApp(Settings(lang=lang, replay=replay))

    async def to_the_missed_block(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        await pilot.press("n")                    # the next marked moment
        await pilot.pause()
    assert snap_compare(app, terminal_size=size, run_before=to_the_missed_block)
