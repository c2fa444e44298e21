"""Pictures of the duel's screen: proposing, solving against the clock, the scoreboard with its
history, and the game over, in English and Arabic (code left to right in both).

Deterministic: seeded puzzler, no pause, every check's time fixed at 0.05 s (the real
sandbox still decides each verdict), the countdown's clock fixed, seconds per move zeroed
on the game-over table.  Review changed SVGs in tests/duel/__snapshots__ before accepting them.
"""

from __future__ import annotations

import asyncio

import pytest

from textual.widgets import TextArea

from tcgtui import referee
from tcgtui.engine.duel.moves import parse_verdict
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games.duel import DuelScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, Summary
from tests.tui.helpers import settle

LANGS = ["en", "ar"]
PUZZLE = "def mystery(x):\n    return x == 'ann'"


@pytest.fixture(autouse=True)
def fixed_times(monkeypatch):
    """Every check reports 0.05 s, and the countdown's clock stands still."""
    real = referee.SERVICES["python-check"]

    def service(options):
        check = real(options)

        async def settle_fixed(request):
            verdict = parse_verdict(await check(request))
            return request.settle(verdict.result, 0.05, verdict.detail)
        return settle_fixed
    monkeypatch.setitem(referee.SERVICES, "python-check", service)
    monkeypatch.setattr(DuelScreen, "clock", staticmethod(lambda: 500.0))


async def until(pilot, condition) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        if condition():
            return
        await pilot.pause(0.05)
        await asyncio.sleep(0.02)
    raise AssertionError("the screen did not get there")


async def write(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Typed as a person types it: after Enter the editor indents, so a line's own indent is not typed."""
    lines = text.split("\n")
    typed = "\n".join([lines[0], *(line.lstrip(" ") for line in lines[1:])])
    await pilot.press(*[{" ": "space", "\n": "enter"}.get(ch, ch) for ch in typed])


async def propose(pilot, send: bool = True) -> None:  # type: ignore[no-untyped-def]
    board = pilot.app.board
    await pilot.press("f7", "backspace")
    await write(pilot, PUZZLE)
    await pilot.press("f2")
    await write(pilot, "'ann'")
    assert board.query_one("#code").text == PUZZLE
    if send:
        before = len(board.session.decisions)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: len(board.session.decisions) > before)
        await settle(pilot, pilot.app)


async def solve(pilot, value: str) -> None:  # type: ignore[no-untyped-def]
    board = pilot.app.board
    before = len(board.session.decisions)
    await write(pilot, value)
    await pilot.press("enter")
    await until(pilot, lambda: len(board.session.decisions) > before)
    await settle(pilot, pilot.app)


async def proposing(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    await propose(pilot, send=False)


async def solving(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    await write(pilot, "12")


async def history(pilot) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, pilot.app)
    await propose(pilot)
    await solve(pilot, "0")
    await until(pilot, lambda: pilot.app.board.session.observation(0).phase == "propose")
    await settle(pilot, pilot.app)      # the editor's new text highlighted (under load it drew before)
    for editor in pilot.app.screen.query(TextArea):
        editor.cursor_blink = False     # the cursor drawn steadily: a blink caught mid-way changed the picture
    pilot.app.board.query_one("#code").focus()   # as the screen leaves it for a proposer; under load the focus came late
    await pilot.pause(0.2)


async def game_over(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await history(pilot)
    await propose(pilot)
    await solve(pilot, "'x'")
    await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
    for decision in app.board.session.decisions:
        decision.seconds = 0.0
    app.screen.query_one(Summary).refresh()
    await pilot.pause()


# scene, seats, parameters beyond rounds=4
SCENES = {"propose": (proposing, (HUMAN, "puzzler"), {}),
          "solve": (solving, ("puzzler", HUMAN), {"solve_time": 90}),
          "history": (history, (HUMAN, "puzzler"), {}),
          "over": (game_over, (HUMAN, "puzzler"), {})}


def duel_app(scene: str, lang: str) -> ArenaApp:
    _, seats, params = SCENES[scene]
    return ArenaApp(Settings(seats, game_id="duel", lang=lang, seed=3, pause=0.0,
                             params={"rounds": 4, "check_timeout": 5, **params}))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scene", list(SCENES))
def test_duel_screen(snap_compare, scene: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(duel_app(scene, lang), terminal_size=(120, 40), run_before=SCENES[scene][0])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scene", ["propose", "solve"])
def test_duel_screen_80x24(snap_compare, scene: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    """The small terminal: the editor, the field and the side panel all titled, the keys in one row."""
    assert snap_compare(duel_app(scene, lang), terminal_size=(80, 24), run_before=SCENES[scene][0])
