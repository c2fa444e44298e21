"""Pictures of Eleusis's key screens in English and Arabic: the table after a few plays and a
wrong guess, the rule editor with a refused rule, and the game-over summary with the true rule.

Seeded (rule 0, seed 3), no pause.  Review changed SVGs in tests/eleusis/__snapshots__ before accepting them.
"""

from __future__ import annotations

import pytest

from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tests.tui.helpers import settle

LANGS = ["en", "ar"]
PLAYS = ("1", "enter", "right", "enter", "5", "enter")   # the same three cards as one grammar plays them


def scene(*, editor: str = "", guess: str = ""):  # type: ignore[no-untyped-def]
    async def run(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        await settle(pilot, app)
        for key in PLAYS:
            await pilot.press(key)
            await settle(pilot, app)
        for text in ("return card.rank > 5", guess):
            if text:
                await pilot.press("g")
                await pilot.pause()
                await pilot.press(*text, "ctrl+s")
                await settle(pilot, app)
        if editor:
            await pilot.press("g")
            await pilot.pause()
            await pilot.press(*editor)
            await pilot.pause()
        if app.board.session.result is not None:     # a person's seconds per move are the clock's: pinned
            for rec in app.board.session.decisions:
                rec.seconds = 1.0
            app.screen.query_one("#summary").refresh()
            await pilot.pause()
    return run


def app(lang: str) -> ArenaApp:
    return ArenaApp(Settings((HUMAN,), game_id="eleusis", params={"rule": 0}, lang=lang, seed=3, pause=0.0))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_eleusis_table(snap_compare, lang: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app(lang), terminal_size=size, run_before=scene())


@pytest.mark.parametrize("lang", LANGS)
def test_eleusis_rule_editor(snap_compare, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app(lang), terminal_size=(120, 40), run_before=scene(editor="return open(card)"))


@pytest.mark.parametrize("lang", LANGS)
def test_eleusis_game_over(snap_compare, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(app(lang), terminal_size=(120, 40),
                        run_before=scene(guess="return card.rank % 2 == 0"))
