"""A full hand is readable: with eight cards every card shows its whole name, at 80x24 and
at 120x40, and the seed stays on the top bar (issue 12 §4: "Dir…", "Spe…")."""

from __future__ import annotations

import pytest

from tcgtui.tui.games.tcg.cards import CardFace
from tests.tui.helpers import make_app, screen_text, settle

pytestmark = pytest.mark.anyio


async def _eight_cards(pilot, app) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    for key in ("1", "1", "4"):             # seed 2: the person then holds eight cards
        await pilot.press(key, "enter")
        await settle(pilot, app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_eight_cards_in_hand_show_their_whole_names(size: tuple[int, int]) -> None:
    app = make_app(seed=2)
    async with app.run_test(size=size) as pilot:
        await _eight_cards(pilot, app)
        await pilot.pause()
        board = app.board
        assert len(board.hand) == 8
        rows = screen_text(app).splitlines()
        assert "seed 2" in rows[0]
        faces = list(board.query_one("#hand").query(CardFace))
        assert len(faces) == 8
        for face in faces:
            r = face.region
            seen = " ".join(row[r.x:r.x + r.width] for row in rows[r.y:r.y + r.height])
            words = "".join(" " if "\u2500" <= c <= "\u257f" else c for c in seen).split()   # no borders
            name = board.pack.card(face.slot.card).name("en").split()
            assert all(word in words for word in name), (name, seen)
            stubs = [w[:-1] for w in words if w.endswith("…") and len(w) > 1]     # a cut card text may end so; a name not
            assert not any(n.startswith(stub) for stub in stubs for n in name), (name, seen)


async def test_an_empty_champion_row_takes_one_line() -> None:
    app = make_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.board.query_one("#top-row").region.height == 1
