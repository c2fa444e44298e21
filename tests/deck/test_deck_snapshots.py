"""Pictures of the quiz's screen: the question (deck by type, six cards, the first selected) and
the reveal after a wrong answer (the answer, the choice, every win rate), in English and Arabic.

Deterministic: a fixed question (index 0 of frontier-sample), seed 0, no pause.  Review changed
SVGs in tests/deck/__snapshots__ before accepting them.
"""

from __future__ import annotations

import asyncio

import pytest

from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tests.tui.helpers import settle

LANGS = ["en", "ar"]


async def question(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)


async def reveal(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    await pilot.press("c", "enter")        # wrong: the answer is B
    for _ in range(100):
        if pilot.app.board.session.result is not None and pilot.app.board.reveal is not None:
            break
        await pilot.pause(0.05)
        await asyncio.sleep(0.01)
    await pilot.pause()


SCENES = {"question": question, "reveal": reveal}


def quiz_app(lang: str) -> ArenaApp:
    return ArenaApp(Settings((HUMAN,), game_id="deck", params={"index": 0}, lang=lang, seed=0, pause=0.0))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scene", list(SCENES))
def test_quiz_screen(snap_compare, scene: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(quiz_app(lang), terminal_size=(120, 40), run_before=SCENES[scene])


@pytest.mark.parametrize("lang", LANGS)
def test_quiz_screen_80x24(snap_compare, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(quiz_app(lang), terminal_size=(80, 24), run_before=question)
