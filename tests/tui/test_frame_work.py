"""What a move costs the screen (issue 12 §3: each opponent move cost ~100 ms of
main-thread work in Textual's layout and render, and a new game's first move
waited for a full garbage pass).  Speed itself is measured by ``tcgtui perf
--only tui_frames``; these tests pin down the work each fix removed."""

from __future__ import annotations

import gc
import weakref
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pytest
from textual.screen import Screen
from textual.worker import active_worker

from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.session import GameSession
from tcgtui.tui.games.tcg.cards import CardFace
from tcgtui.tui.widgets.log import BattleLog
from tests.tui.helpers import make_app, play_moves, screen_text, settle

pytestmark = pytest.mark.anyio


def count_layouts(monkeypatch: pytest.MonkeyPatch) -> list[Screen]:
    """Every full layout of a screen from now on."""
    done: list[Screen] = []
    layout = Screen._refresh_layout

    def counted(self: Screen, *args: object, **kwargs: object) -> None:
        done.append(self)
        layout(self, *args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return done


@asynccontextmanager
async def log_after_moves(lang: str = "en", moves: int = 3) -> AsyncIterator[tuple[Any, Any, BattleLog]]:
    """A board after the person's first few moves, and its log."""
    app = make_app(seed=3, lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        for _ in range(moves):
            await pilot.press("enter")
            await settle(pilot, app)
        yield app, pilot, app.board.query_one(BattleLog)


async def test_the_log_is_one_widget_that_grows_without_laying_out_the_screen(monkeypatch) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        log = app.board.query_one(BattleLog)
        for _ in range(3):
            await pilot.press("enter")
            await settle(pilot, app)
        assert not log.children, "no widget per entry"
        assert log.virtual_size.height > log.scrollable_content_region.height     # the scrollbar is shown
        layouts = count_layouts(monkeypatch)
        before = len(log.entries)
        await log.add(log.entries[-1].events, log.entries[-1].seat)
        await pilot.pause()
        await pilot.pause()
        assert len(log.entries) == before + 1
        assert layouts == [], "an entry added to a scrolled log lays out nothing"
        assert log.scroll_y == log.max_scroll_y > 0                # and the newest entry is in view


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_the_log_shows_the_same_sentences_after_a_language_switch(lang: str) -> None:
    app = make_app(seed=3, lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        first = screen_text(app)
        await pilot.press("l")
        await settle(pilot, app)
        await pilot.press("l")
        await settle(pilot, app)
        assert screen_text(app) == first, "rows laid out again in the other language, then back"


async def test_a_card_that_looks_the_same_next_turn_is_not_repainted() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        face = app.board.query_one("#hand").query(CardFace).first()
        await pilot.pause()
        assert not face._repaint_required
        slot = face.slot
        face.show(type(slot)(slot.card, slot.zone, slot.index, turn=slot.turn + 1),
                  face.has_class("-selected"))
        assert face.slot.turn == slot.turn + 1         # a click reports the newest slot
        assert not face._repaint_required and not face._layout_required


@pytest.mark.parametrize("keys", [("r",), ("escape", "r")], ids=["from-the-dialog", "from-the-board"])
async def test_the_full_pass_after_a_rematch_runs_before_the_new_game_starts(monkeypatch, keys) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_moves(pilot, app)
        old, dialog = weakref.ref(app.board), weakref.ref(app.screen)
        assert isinstance(dialog(), GameOverScreen)
        seen: list[tuple[bool, bool, int]] = []
        run = GameSession.run

        async def watched(self: GameSession) -> object:
            seen.append((old() is None, dialog() is None, gc.get_freeze_count()))
            return await run(self)
        monkeypatch.setattr(GameSession, "run", watched)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await settle(pilot, app)
        assert seen, "the new game started"
        board_gone, dialog_gone, frozen = seen[0]
        assert board_gone, "the old board is collected before the new game's first decision"
        assert dialog_gone, "and its game-over dialog (kept while the board was looked at)"
        assert frozen > 0, "what survived the pass is kept out of the passes during the game"
        assert not any(isinstance(s, GameOverScreen) for s in app._installed_screens.values())


async def test_closing_the_game_over_dialog_to_look_at_the_board_lays_out_nothing(monkeypatch) -> None:
    """The dialog is kept, not removed, when the person looks at the final position: removing a
    screen lays out the one under it again, on top of its repaint, twice the loop's work for Escape."""
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_moves(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        layouts = count_layouts(monkeypatch)
        await pilot.press("escape")
        await pilot.pause(0.3)
        assert app.screen is app.board
        assert layouts == [], "no layout of the board"


async def test_the_game_over_dialog_does_not_run_in_the_game_workers_context(monkeypatch) -> None:
    """A screen's task copies the context it was opened from; opened from the game's worker it
    held the worker, and so the old board, until its task was let go of, and a rematch's pass
    sometimes ran before that (the test above failed 1 run in about 10 on a loaded machine)."""
    opened_in: list[object] = []
    assert "on_mount" not in vars(GameOverScreen)      # Textual still runs its bases' handlers

    def on_mount(self: GameOverScreen) -> None:
        opened_in.append(active_worker.get(None))      # the context of the dialog's own task
    monkeypatch.setattr(GameOverScreen, "on_mount", on_mount, raising=False)
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_moves(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        assert opened_in == [None], "no worker's context"


async def test_the_oldest_entries_leave_the_log_with_their_rows(monkeypatch) -> None:
    monkeypatch.setattr("tcgtui.tui.widgets.log.MAX_ENTRIES", 3)
    async with log_after_moves() as (app, pilot, log):
        kept = list(log._rows)
        assert len(log.entries) == 3
        log._lay_out()                      # the three entries wrapped from scratch
        assert log._rows == kept


async def test_a_card_with_a_new_look_is_restyled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setting its classes one by one restyled a selected or compact card up to four times
    per move (each restyle matches the whole stylesheet against the card)."""
    app = make_app(seed=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        face = app.board.query_one("#hand").query(CardFace)[1]     # not the selected one
        assert not face.has_class("-selected")
        face.add_class("-compact")
        slot = face.slot
        restyled: list[object] = []
        monkeypatch.setattr(CardFace, "update_node_styles", lambda self, animate=True: restyled.append(self))
        face.show(type(slot)(slot.card, slot.zone, slot.index + 1), selected=True)
        assert restyled == [face]
        assert {"-compact", "-selected", slot.zone} <= face.classes
        restyled.clear()
        face.show(type(slot)(slot.card, slot.zone, slot.index + 2), selected=True)
        assert restyled == [], "the same classes: no restyle at all"


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_log_rows_are_painted_as_rich_would_paint_them(lang: str) -> None:
    """The log paints its wrapped rows itself (one segment each); the cells and styles
    must be those Rich gives a justified line of the same text."""
    from rich.style import Style
    from rich.text import Text

    async with log_after_moves(lang) as (app, pilot, log):
        width = log.scrollable_content_region.width
        console = app.console
        styles = {style for _, style, _ in log._rows}
        assert {"", "bold reverse", "cyan"} <= styles, styles    # own moves, turns, the other side
        for y, (text, style, justify) in enumerate(log._rows):
            line = Text(text, style=Style.parse(style) if style else "", justify=justify,  # type: ignore[arg-type]
                        no_wrap=True, overflow="crop", end="")
            (rich_row,) = console.render_lines(line, console.options.update_width(width), style=log.rich_style,
                                               pad=True)
            ours = log._strip(y, width)
            assert ours.text == "".join(s.text for s in rich_row), (y, text)
            assert [(s.text, s.style) for s in ours if s.text] == \
                [(t, s) for t, s in _merged(rich_row)], (y, text)


def _merged(segments: list) -> list[tuple[str, object]]:
    """Rich's segments with neighbours of one style joined (the log keeps a row whole)."""
    out: list[list] = []
    for seg in segments:
        if not seg.text:
            continue
        if out and out[-1][1] == seg.style:
            out[-1][0] += seg.text
        else:
            out.append([seg.text, seg.style])
    return [(t, s) for t, s in out]


async def test_the_log_checks_its_width_once_per_paint(monkeypatch: pytest.MonkeyPatch) -> None:
    async with log_after_moves() as (app, pilot, log):
        checked: list[object] = []
        key = BattleLog._key
        monkeypatch.setattr(BattleLog, "_key", lambda self: checked.append(self) or key(self))
        log.refresh()
        strips = log.render_lines(log.region.reset_offset)
        assert len(strips) == log.outer_size.height > 10
        assert checked == [log], "once for the paint, not once per row"


async def test_no_frame_paints_a_whole_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a move the log (with the top bar), the board and the hand each wait for a frame
    of their own: one frame painting all of them was most of the longest gap between frames."""
    from tcgtui.tui.games.tcg.cards import CardRow
    done: list[str] = []
    add, show, wait = BattleLog.add, CardRow.show, Screen.wait_for_refresh

    async def added(self: BattleLog, *args: Any) -> None:
        done.append("log")
        await add(self, *args)

    async def shown(self: CardRow, *args: Any) -> None:
        done.append(self.id or "")
        await show(self, *args)

    async def waited(self: Screen) -> bool:
        done.append("frame")
        return await wait(self)
    async with log_after_moves(moves=2) as (app, pilot, log):
        monkeypatch.setattr(BattleLog, "add", added)
        monkeypatch.setattr(CardRow, "show", shown)
        monkeypatch.setattr(Screen, "wait_for_refresh", waited)
        await pilot.press("enter")
        await settle(pilot, app)
    moves = " ".join(done).replace("top-row bottom-row", "board").replace("trick-row hand", "hand")
    assert moves.count("log frame board frame hand") >= 2, moves     # the person's move, the opponent's
    assert "log board" not in moves and "board hand" not in moves, moves
