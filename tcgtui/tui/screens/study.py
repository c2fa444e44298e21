"""A study as its participant meets it: the consent text first (leaving records nothing), then a
screen of their progress that every game returns to, and the study's closing words at the end.

The researcher's texts (title, consent, completion) come from the study file: they are cleaned of
control sequences and drawn as plain text, through the one shaping and reordering path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from rich.console import Group, RenderableType
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget

from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.tui.bidi_text import Line, Para, Piece
from tcgtui.tui.keys import keys
from tcgtui.tui.screens.base import LocalizedScreen
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.title import TitleBar, game_text, titled

CSS = [Path(__file__).with_name("study.tcss")]
R = TypeVar("R")


def _researcher(text: str) -> str:
    return clean(text, newlines=True).strip()


class ConsentText(Localized, Widget):
    def __init__(self, joining: Any) -> None:
        super().__init__(id="study-text")
        self.joining = joining

    def render(self) -> RenderResult:
        d, study, lang = self.direction, self.joining.study, self.catalog.code
        rows: list[RenderableType] = []
        for para in _researcher(study.consent(lang)).split("\n"):
            rows.append(Para(para, d) if para.strip() else Line([Piece("")], d))
        rows += [Line([Piece("")], d), Para(self.tr("study.consent.recorded"), d, "italic"),
                 Line([Piece("")], d), Para(self.tr("study.consent.ask"), d, "bold")]
        return Group(*rows)


class StudyPage(LocalizedScreen[R]):
    """What both study screens share: the study's title on top, one bordered pane (its title a locale
    key, through the one shaping path), the keys below."""

    CSS_PATH = CSS
    AUTO_FOCUS = "#study-pane"
    PANE_TITLE = ""
    KEYS: list[tuple[str, str, str]] = []

    def __init__(self, joining: Any) -> None:
        super().__init__()
        self.joining = joining

    def body(self) -> Widget:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield TitleBar(lambda: _researcher(self.joining.study.title(self.catalog.code)), id="study-title")
        with VerticalScroll(id="study-pane"):
            yield self.body()
        yield KeyBar(self.KEYS, id="keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self.title_pane)

    def title_pane(self) -> None:
        titled(self.query_one("#study-pane"), self.tr(self.PANE_TITLE), self.direction)

    def on_resize(self) -> None:
        self.call_after_refresh(self.title_pane)

    async def localize(self) -> None:
        self.title_pane()
        await super().localize()


class ConsentScreen(StudyPage[bool]):
    """Dismisses with True (agreed) or False (left: nothing is recorded)."""

    PANE_TITLE = "study.consent.title"
    KEYS = [("Y", "study.keys.agree", "answer(True)"), ("Q", "study.keys.decline", "answer(False)"),
            ("L", "ui.keys.language", "language")]
    BINDINGS = [
        Binding(keys("y") + ",enter", "answer(True)", show=False),
        Binding(keys("q,escape"), "answer(False)", show=False),
        Binding(keys("l"), "language", show=False),
    ]

    def body(self) -> Widget:
        return ConsentText(self.joining)

    def action_answer(self, agreed: bool) -> None:
        self.dismiss(agreed)


class Progress(Localized, Widget):
    """Where the participant stands: practice, each block of games, what comes next."""

    def __init__(self, joining: Any) -> None:
        super().__init__(id="study-text")
        self.joining = joining

    def render(self) -> RenderResult:
        d, tr, joining = self.direction, self.tr, self.joining
        if not joining.consented:
            return Para("", d)
        standing = joining.standing()
        rows: list[RenderableType] = [Para(tr("study.progress.who", id=joining.person.id), d, "bold"),
                                      Para(tr("study.progress.saved"), d, "italic"), Line([Piece("")], d)]
        blocks: list[tuple[str, int, int]] = []
        for slot, game in zip(standing.slots, standing.games):
            name = "practice" if slot.practice else f"{slot.rung.game}|{slot.rung.opponent}|{slot.rung.params}"
            done = game is not None and game.status in ("finished", "errored")
            if blocks and blocks[-1][0] == name:
                blocks[-1] = (name, blocks[-1][1] + 1, blocks[-1][2] + done)
            else:
                blocks.append((name, 1, int(done)))
        number = 0
        for name, total, done in blocks:
            mark = "✓" if done == total else "·"
            if name == "practice":
                label = tr("study.progress.practice", done=done, total=total)
            else:
                number += 1
                game = game_text(self.catalog, name.split("|")[0], "name")
                label = tr("study.progress.block", n=number, game=game, done=done, total=total)
            rows.append(Line([Piece(mark + " ", "bold green" if done == total else "dim", shrink=False),
                              Piece(label, "" if done == total else "bold")], d))
        rows.append(Line([Piece("")], d))
        nxt = standing.next()
        if nxt is None:
            rows.append(Para(_researcher(joining.study.done(self.catalog.code)), d, "bold green"))
            rows.append(Line([Piece("")], d))
            rows.append(Para(tr("study.progress.finished"), d, "italic"))
        else:
            slot, game = nxt
            key = "study.progress.carry_on" if game is not None else (
                "study.progress.next_practice" if slot.practice else "study.progress.next")
            rows.append(Para(tr(key, n=slot.index + 1, total=len(standing.slots)), d, "bold"))
        return Group(*rows)


class StudyScreen(StudyPage[None]):
    """The study's home: every game starts here and comes back here."""

    HOME = True
    PANE_TITLE = "study.progress.title"
    KEYS = [("⏎", "study.keys.play", "play"), ("L", "ui.keys.language", "language"),
            ("Q", "study.keys.leave", "leave")]
    BINDINGS = [
        Binding("enter", "play", show=False),
        Binding(keys("q,escape"), "leave", show=False),
        Binding(keys("l"), "language", show=False),
    ]

    def body(self) -> Widget:
        return Progress(self.joining)

    def on_mount(self) -> None:
        super().on_mount()
        if not self.joining.consented:
            self.app.push_screen(ConsentScreen(self.joining), self._answered)

    def _answered(self, agreed: bool | None) -> None:
        if not agreed:
            self.app.exit()
            return
        self.joining.consent(self.catalog.code)
        self.reread()

    async def localize(self) -> None:
        if self.joining.consented:
            self.joining.language(self.catalog.code)
        await super().localize()

    def reread(self) -> None:
        self.query_one(Progress).refresh(layout=True)

    def action_play(self) -> None:
        if not self.joining.consented:
            return
        try:
            ready = self.joining.prepare(self.host.settings)
        except UserError as exc:          # a pack changed under a game left unfinished, say: one line, stay
            self.notify(clean(exc), severity="error", timeout=8)
            return
        if ready is not None:
            self.host.settings = ready
            self.host.start()  # type: ignore[attr-defined]

    def action_leave(self) -> None:
        self.app.exit()
