"""Driving the app headless with Textual's Pilot: tests, the frame-gap benchmark and
the screenshot script all play through the same keys a person would press."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.pilot import Pilot

if TYPE_CHECKING:
    from tcgtui.tui.app import TcgApp


def screen_text(app: TcgApp) -> str:
    """The screen as plain text, one line per row (what a person would read)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: Pilot, app: TcgApp) -> None:
    """Wait until the game needs a person (or is over) and the screen has caught up."""
    assert app.board is not None
    for _ in range(2):
        await app.board.session.settled()
        await pilot.pause()
        while app.board is not None and app.board.busy:
            await pilot.pause(0.05)
            await app.board.session.settled()


async def play_moves(pilot: Pilot, app: TcgApp, keys: tuple[str, ...] = ("enter",),
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
