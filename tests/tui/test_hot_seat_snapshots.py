"""Pictures of the curtain between two people's turns at one keyboard (the card game, ``--vs human``),
in English and Arabic, small and large terminals: the first person has played a card and the turn
passes to the second.  Review changed SVGs in tests/tui/__snapshots__ before accepting them."""

from __future__ import annotations

import pytest

from tcgtui.tui.app import HUMAN
from tcgtui.tui.screens.curtain import CurtainScreen
from tests.tui.helpers import make_app, settle

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]


async def passed_to_the_second(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await settle(pilot, app)
    await pilot.pause(CurtainScreen.GUARD_S)
    await pilot.press("enter")          # the first person looks: their seat shows
    await settle(pilot, app)
    await pilot.press("enter")          # and plays; the curtain comes down for the second
    await settle(pilot, app)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_curtain(snap_compare, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = make_app((HUMAN, HUMAN), lang=lang, seed=7, handle="ann")
    assert snap_compare(app, terminal_size=size, run_before=passed_to_the_second)
