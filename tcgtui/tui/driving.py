"""Driving the app headless with Textual's Pilot: tests, the frame-gap benchmark and
the screenshot script all play through the same keys a person would press."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.pilot import Pilot

if TYPE_CHECKING:
    from tcgtui.tui.app import ArenaApp


def screen_text(app: ArenaApp) -> str:
    """The screen as plain text, one line per row (what a person would read)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: Pilot, app: ArenaApp) -> None:
    """Wait until the game needs a person (or is over) and the screen has caught up."""
    assert app.board is not None
    for _ in range(2):
        await app.board.session.settled()
        await pilot.pause()
        while app.board is not None and app.board.busy:
            await pilot.pause(0.05)
            await app.board.session.settled()


async def play_moves(pilot: Pilot, app: ArenaApp, keys: tuple[str, ...] = ("enter",),
                     moves: int = 10_000) -> int:
    """Press ``keys`` for each of up to ``moves`` moves, or until the game ends;
    returns how many moves the person has made in all."""
    board = app.board
    assert board is not None
    await settle(pilot, app)
    for _ in range(moves):
        if board.session.result is not None:
            break
        await pilot.press(*keys)
        await settle(pilot, app)
    await pilot.pause()
    return sum(1 for d in board.session.decisions if d.seat == board.session.viewer)


async def play_free_cells(pilot: Pilot, app: ArenaApp) -> None:
    """A grid game to its end by the keys a person uses: walk the cursor to the first free cell,
    Enter, until the game is over (the scenes of scripts/screenshots.py and the study tests)."""
    board = app.board
    assert board is not None
    await settle(pilot, app)
    while board.session.result is None:
        obs = board.session.observation(board.session.viewer)
        r, c = next((r, c) for r, row in enumerate(obs.board) for c, cell in enumerate(row) if cell == ".")
        while board.cursor != (r, c):
            dr = (r > board.cursor[0]) - (r < board.cursor[0])
            await pilot.press("down" if dr > 0 else "up" if dr < 0 else "right" if c > board.cursor[1] else "left")
        await pilot.press("enter")
        await settle(pilot, app)
