"""Eleusis's screen: a person plays the scientist against the dealer's secret rule.

The mainline runs left to right in every language, each accepted card with
the cards rejected after it stacked under it (its sideline); the hand of 12
lies below, numbered.  Arrows, digits (1 then 2 typed quickly: the twelfth) or a
click choose a card; Enter or a click on the chosen card plays it (docs/keys.md).
G opens the rule editor (``guess.py``), whose guess goes with the chosen card.  A person gives no tentative rule or
confidence each turn: only a guess is judged (see docs/eleusis.md).  The side
panel holds the turn, the score a right guess would earn now, the failed
guesses and the log.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.worker import WorkerCancelled, WorkerFailed, get_current_worker

from tcgtui.console_text import clean
from tcgtui.engine.core import Event
from tcgtui.engine.eleusis.cards import Card, parse_card
from tcgtui.engine.eleusis.library import library
from tcgtui.engine.eleusis.moves import Play
from tcgtui.engine.eleusis.narrator import PENALTY, shown
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.store.db import now
from tcgtui.tui.bidi_text import Direction, Line, Para, Piece
from tcgtui.tui.keys import DIGITS, TypedNumber, keys
from tcgtui.tui.games.base import SPECTATOR, BoardPanel, GameScreen
from tcgtui.tui.rival import Round, play_round
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog, Verbatim
from tcgtui.tui.widgets.stream import StreamPanel

CARD_W = 4                    # "10♣" and a gap
RED, BLACK = "bold #ff5f5f", "bold #e4e4e4 on #303030"
CURSOR = "reverse"
EXAMPLES = (0, 3, 13, 21)     # library rules shown on the rules screen as examples of the language

PLAY_KEYS = [("←→ 1-9", "eleusis.ui.keys.choose", "noop"), ("⏎", "ui.keys.play", "play"),
             ("G", "eleusis.ui.keys.guess", "guess"), ("?", "ui.keys.rules", "rules"),
             ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]
WATCH_KEYS = [("Space", "ui.keys.pause", "pause"), ("N", "ui.keys.step", "step"),
              ("+/-", "ui.keys.speed", "speed(1)"), ("?", "ui.keys.rules", "rules"),
              ("L", "ui.keys.language", "language"), ("Q", "ui.keys.quit", "quit_game")]


def card_text(card: str | Card, style_extra: str = "") -> Text:
    """A card as ``10♣`` in its suit's colour."""
    c = card if isinstance(card, Card) else parse_card(card)
    style = RED if c.color == "red" else BLACK
    return Text(c.symbol(), f"{style} {style_extra}".strip())


def card_cell(card: str | Card, extra: str = "") -> Text:
    text = card_text(card, extra)
    text.append(" " * (CARD_W - text.cell_len))
    return text


def rtl_pad(cells: int, width: int) -> int:
    """Columns before the first of ``cells`` card cells set against the right edge (one column spare)."""
    return max(0, width - cells * CARD_W - 1)


def row_of(cells: list[Text], width: int, rtl: bool) -> Text:
    """Card cells in reading order: left to right from the left edge, or right to left
    against the right edge (each card's code itself stays left to right)."""
    line = Text(" " * rtl_pad(len(cells), width) if rtl else " ")
    for cell in reversed(cells) if rtl else cells:
        line.append_text(cell)
    return line


class MainlineView(Localized, Widget):
    """The mainline, wrapped into blocks as wide as the widget; sidelines hang under their card."""

    def __init__(self, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.board: tuple[tuple[str | None, tuple[str, ...]], ...] = ()

    def show(self, board: Any) -> None:
        """Draw ``board`` (redrawn only when it changed: an arrow key moves the hand's cursor alone)."""
        board = tuple(board)
        if board != self.board:
            self.board = board
            self.refresh(layout=True)

    def per_row(self, width: int) -> int:
        return max(1, (width - 1) // CARD_W)

    def lines(self, width: int) -> list[Text]:
        """Rows of cards in reading order: from the right in a right-to-left language (each
        card's code itself stays left to right)."""
        out: list[Text] = []
        n = self.per_row(width)
        columns = list(self.board)
        rtl = self.direction.rtl
        for start in range(0, len(columns), n):
            block = columns[start:start + n]
            cells: list[Text] = []
            for i, (card, _) in enumerate(block):
                last = start + i == len(columns) - 1
                cells.append(card_cell(card, "underline" if last else "") if card is not None
                             else Text("·".ljust(CARD_W), "dim"))
            out.append(row_of(cells, width, rtl))
            for depth in range(max(len(r) for _, r in block)):
                out.append(row_of([card_cell(rejected[depth], "dim") if depth < len(rejected)
                                   else Text(" " * CARD_W) for _, rejected in block], width, rtl))
        return out or [Text(" ")]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> RenderResult:
        return Group(*self.lines(self.size.width))


class HandView(Localized, Widget):
    """The hand, numbered 1-12, the chosen card highlighted while it is the person's turn."""

    def __init__(self, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.hand: tuple[str, ...] = ()
        self.cursor = 0
        self.active = False

    def show(self, hand: Sequence[str], cursor: int, active: bool) -> None:
        """Draw the hand when it, the cursor or whose turn it is changed (its height never changes)."""
        shown = (tuple(hand), cursor, active)
        if shown != (self.hand, self.cursor, self.active):
            self.hand, self.cursor, self.active = shown
            self.refresh()

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return 2

    def render(self) -> RenderResult:
        numbers, cards = [], []
        for i, card in enumerate(self.hand):
            chosen = self.active and i == self.cursor
            numbers.append(Text(str(i + 1).ljust(CARD_W), "bold" if chosen else "dim"))
            cards.append(card_cell(card, CURSOR if chosen else ""))
        width, rtl = self.size.width, self.direction.rtl
        return Group(row_of(numbers, width, rtl), row_of(cards, width, rtl))

    def index_at(self, x: int) -> int | None:
        """The hand's card under column ``x`` (the first card is on the right in a right-to-left language)."""
        n = len(self.hand)
        if self.direction.rtl:
            pad = rtl_pad(n, self.size.width)
            j = (x - pad) // CARD_W
            return n - 1 - j if x >= pad and 0 <= j < n else None
        i = (x - 1) // CARD_W
        return i if x >= 1 and 0 <= i < n else None

    async def on_click(self, event: events.Click) -> None:
        i = self.index_at(event.x)
        if i is not None:
            await self.screen.clicked(i)  # type: ignore[attr-defined]


class EleusisPanel(BoardPanel):
    """Turn n/30, the score a right guess earns now, wrong guesses, and each failed guess."""

    shown: Any = None

    def show(self, obs: Any) -> None:
        """Redraw when the observation it draws from changed (not for a move of the hand's cursor)."""
        if obs != self.shown:
            self.shown = obs
            self.refresh(layout=True)

    def render(self) -> RenderResult:
        o, d, tr = self.board_screen.obs, self.direction, self.tr
        if o is None:
            return Text("")

        def pair(key: str, value: str) -> Line:
            return Line([Piece(tr(key)), Piece(" ", shrink=False), Piece(value, "bold", shrink=False)], d)

        lines: list[RenderableType] = []
        if o.outcome is not None:
            lines.append(Line([Piece(tr("ui.phase.over"), "bold yellow")], d))
        lines.append(pair("eleusis.ui.panel.turn", f"{min(o.turn, o.max_turns)}/{o.max_turns}"))
        if o.outcome is None:
            lines.append(pair("eleusis.ui.panel.potential", str(o.potential)))
        lines.append(pair("eleusis.ui.panel.wrong", str(o.wrong)))
        lines.append(pair("eleusis.ui.panel.deck", str(o.deck_left)))
        if o.failed_guesses:
            lines.append(Line([Piece(tr("eleusis.ui.panel.failed"), "bold")], d))
            for text in o.failed_guesses:       # each line of a guess as written, left to right
                for line in clean(text, newlines=True).splitlines():
                    lines.append(Text("  " + line, "italic", no_wrap=True, overflow="ellipsis"))
        return Group(*lines)


class RivalPanel(BoardPanel):
    """A race's rival: only "thinking, turn k" (or "done") until both rounds end, then its score."""

    def render(self) -> RenderResult:
        s, d, tr = self.board_screen, self.direction, self.tr
        who = clean(s.rival)
        if s.rival_error is not None:
            return Para(tr("eleusis.ui.race.failed", who=who, error=clean(s.rival_error)[:200]), d, "bold red")
        result = s.rival_result
        if result is None:
            return Line([Piece(tr("eleusis.ui.race.thinking", who=who, turn=s.rival_turns + 1), "bold cyan")], d)
        if s.session.result is None:         # the rival is done; its score waits for the person's round
            return Line([Piece(tr("eleusis.ui.race.done", who=who), "bold")], d)
        score = result.outcome.scores[0] if result.outcome is not None and result.outcome.scores else None
        return Para(tr("eleusis.ui.race.result", who=who, score=f"{score:g}" if score is not None else "-",
                       turns=result.turns), d, "bold magenta")


class EleusisScreen(GameScreen):
    RACES = True
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    PANE_TITLES = {"#mainline": "eleusis.ui.mainline", "#hand": "eleusis.ui.hand", "#panel": "eleusis.ui.panel.title",
                   "#race": "eleusis.ui.race.title", "#log": "eleusis.ui.log", "#stream": "ui.stream.title"}
    BINDINGS = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        *[Binding(d, f"pick({d})", show=False) for d in DIGITS],
        Binding("enter", "play", show=False),
        Binding(keys("g"), "guess", show=False),
    ]

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        self.obs: Any = None
        self.cursor = 0
        self.typed = TypedNumber()
        self._narrators: dict[tuple[str, int | None], Any] = {}
        self.rival_result: MatchResult | None = None     # a race's rival round, once over
        self.rival_turns = 0
        self.rival_error: str | None = None
        self.rival_worker: Any = None
        self.rival_board: Any = ()
        self.editor: Any = None         # the rule editor (GuessScreen): composed once, kept with the board

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(WATCH_KEYS if self.session.spectating else PLAY_KEYS, id="keys")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield MainlineView(id="mainline", classes="pane")
                yield HandView(id="hand", classes="pane")
            with Vertical(id="side"):
                yield EleusisPanel(self, id="panel", classes="pane")
                if self.rival:
                    with Vertical(id="race", classes="pane"):
                        yield RivalPanel(self, id="rival")
                        yield MainlineView(id="rival-mainline")
                yield BattleLog(self.narrate, id="log")
                if self.streams:
                    yield StreamPanel(id="stream")

    @classmethod
    def setup_dialog(cls, settings: Any) -> Any:
        """Dealer mode (``tcgtui play --game eleusis --dealer SPEC``): the person writes the secret rule
        in the rule editor, checked as they type; the round starts once it is a rule."""
        if settings.params.get("rule_code"):
            return None
        # start-up time: the dealer's screen only in a game that deals a rule
        from tcgtui.tui.games.eleusis_guess import DealerScreen
        return DealerScreen(dealer=settings.seats[0])

    def players(self) -> tuple[str, str]:
        dealer = "eleusis.ui.your_rule" if self.session.spectating else "eleusis.ui.dealer"
        return self.label_for(0), self.tr(dealer)

    async def on_mount(self) -> None:
        self.obs = self.session.observation(0)
        self.query_one(TopBar).show(players=self.players(), seed=self.session.seed, watch=self._watch_state(),
                                    note=self.note, your_move_key="eleusis.ui.your_move", phase="play")
        self.redraw()
        if self.rival:
            self.query_one("#rival-mainline").display = False
            self.rival_worker = self.run_rival()
        self.run_game()

    # --- a race --------------------------------------------------------------------------

    @property
    def rival(self) -> str:
        """``--race SPEC``: who plays this deal at the same time (not for a spectator or a resumed round)."""
        return "" if self.session.spectating else (self.host.settings.rival or "")

    @work(thread=True, group="rival", exit_on_error=False)
    def run_rival(self) -> None:
        """The rival's round on the same deal and rule, seen only as a turn count until both end.
        It plays in a child process (``tcgtui.tui.rival``): its thinking and the verdicts on its
        guesses never hold the screen (issue 26: typing froze for seconds and keys were lost).
        This thread only waits for its messages and hands them to the screen."""
        settings, started, worker = self.host.settings, now(), get_current_worker()
        job = Round(settings.game_id, dict(settings.params), self.session.seed, self.rival,
                    dict(settings.agent_options), self.catalog.code)

        def received(message: tuple[Any, ...]) -> None:
            if not worker.is_cancelled:
                try:
                    self.app.call_from_thread(self._rival_message, message, started)
                except RuntimeError:          # the app closed meanwhile
                    pass
        play_round(job, received, lambda: worker.is_cancelled)

    def _rival_message(self, message: tuple[Any, ...], started: str) -> None:
        """One message of the rival's round, on the screen's thread (the store lives here too)."""
        if message[0] == "turn":
            self.rival_turns += 1
        elif message[0] == "error":
            self.rival_error = message[1]
        elif message[0] == "ended":
            self.rival_error = self.tr("eleusis.ui.race.ended", code=message[1])
        else:
            _, self.rival_result, self.rival_board = message
            keep = self.host.settings.keep_rival
            if keep is not None:
                keep(self.rival_result, self.catalog.code, started)
        self.query_one(RivalPanel).refresh(layout=True)

    def show_rival(self) -> None:
        """Both rounds are over: the rival's mainline under its score."""
        if self.rival_result is None:
            return
        view = self.query_one("#rival-mainline", MainlineView)
        view.show(self.rival_board)
        view.display = True
        self.query_one(RivalPanel).refresh(layout=True)

    # --- hooks -----------------------------------------------------------------------

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | list[str] | None:
        """The game's narrator, but a guess's rule goes under its sentence as written (code, or a
        model's words, on lines of their own, left to right): in a sentence it was wrapped and
        reordered with the prose."""
        if event.kind == "guess":
            d = event.data
            key = "eleusis.ui.said.guess_right" if d["correct"] else "eleusis.ui.said.guess_wrong"
            return [catalog.t(key, penalty=PENALTY), Verbatim(d.get("rule") or d.get("code") or "")]
        viewer = None if seat == SPECTATOR else seat
        key = (catalog.code, viewer)
        if key not in self._narrators:
            self._narrators[key] = self.session.game.spec.narrator(self.session.game, catalog, viewer)
        lines = self._narrators[key].all([event])
        return clean(" ".join(lines)) if lines else None

    def rules(self, catalog: Catalog, direction: Direction) -> list[RenderableType]:
        """The rules, then the rule language by example: library rules, name and code (code left to right)."""
        out = super().rules(catalog, direction)
        out += [Line([Piece("")], direction),
                Line([Piece(catalog.t("eleusis.ui.examples"), "bold underline")], direction),
                Para(catalog.t("eleusis.ui.examples_intro"), direction)]
        for number in EXAMPLES:
            rule = library()[number]
            out += [Line([Piece("")], direction), Para(rule.name_in(catalog.code), direction, "bold"),
                    Text(rule.code, "cyan")]
        return out

    def summary_lines(self) -> list[tuple[str, dict[str, Any]]]:
        """The true rule by name (each guess and its verdict come with the code, in ``summary_block``)."""
        game = self.session.game
        out: list[tuple[str, dict[str, Any]]] = []
        number = game.rule_number_of(self.session.match.seed)     # a drawn rule is the deal's own
        if number is not None:
            out.append(("eleusis.ui.over.rule", {"name": library()[number].name_in(self.catalog.code)}))
        return out + self.summary_lines_rival()

    def summary_lines_rival(self) -> list[tuple[str, dict[str, Any]]]:
        r = self.rival_result
        if r is None or r.outcome is None or not r.outcome.scores:
            return []
        return [("eleusis.ui.over.rival", {"who": clean(self.rival), "score": f"{r.outcome.scores[0]:g}",
                                           "turns": r.turns})]

    def summary_block(self) -> list[RenderableType]:
        """The true rule's code, then each guess with the judge's verdict: code left to right in every
        language, its lines kept."""
        d, tr = self.direction, self.tr
        out: list[RenderableType] = [Text(self.session.match.state.rule.source, "cyan")]
        for e in self.session.match.events:
            if e.kind != "guess":
                continue
            g = e.data
            if g["correct"]:
                verdict = tr("eleusis.ui.over.right", turn=g["turn"])
            elif g.get("counterexample"):
                ce = g["counterexample"]
                verdict = tr("eleusis.ui.over.wrong", turn=g["turn"], card=shown(ce["card"]) if ce.get("card") else "",
                             mainline=" ".join(map(shown, ce.get("mainline", []))) or "-")
            else:
                verdict = tr("eleusis.ui.over.wrong_error", turn=g["turn"])
            out += [Para(verdict, d), Text(clean(g.get("rule") or g.get("code") or "", newlines=True), "italic")]
        return out

    # --- the game --------------------------------------------------------------------

    def choosing(self) -> bool:
        return self.session.human_waiting() is not None and not self.busy

    def redraw(self) -> None:
        self.obs = self.session.observation(0)
        o = self.obs
        self.cursor = max(0, min(self.cursor, len(o.hand) - 1))
        self.query_one(MainlineView).show(o.board)
        self.query_one(HandView).show(o.hand, self.cursor, self.choosing())
        self.query_one(EleusisPanel).show(o)
        self.query_one(TopBar).show(turn=min(o.turn, o.max_turns), limit=o.max_turns, watch=self._watch_state())

    def ask_human(self, seat: int) -> None:
        self.query_one(TopBar).show(your_move=True, thinking=None)
        self.redraw()

    async def game_ended(self, result: MatchResult | None) -> None:
        self.redraw()
        if self.rival_worker is not None and self.rival_result is None and self.rival_error is None:
            self.query_one(TopBar).show(thinking=clean(self.rival), your_move=False)   # the person waits for the rival
            try:
                await self.rival_worker.wait()
            except (WorkerCancelled, WorkerFailed):     # the screen is closing: nothing to show
                pass
            if self.rival_worker.is_cancelled or not self.is_attached:
                return
        self.show_rival()
        self.query_one(TopBar).show(phase="over", thinking=None, your_move=False)


    # --- moves -----------------------------------------------------------------------

    def play(self, index: int, guess: str | None = None) -> bool:
        """Play the hand's card ``index``, with ``guess`` (rule-language code) when given."""
        if not self.choosing():
            if not self.session.spectating and self.session.result is None:
                self.notify(self.tr("ui.notify.wait"), timeout=2)
            return False
        card = parse_card(self.obs.hand[index])
        if guess:
            self.judge_first(Play(card, guess=True, rule=guess, code=guess).text(), card.text())
            return True
        return self.send(card.text(), card.text())

    def send(self, move: str, card: str) -> bool:
        if self.session.choose(move, card):
            self.query_one(TopBar).show(your_move=False)
            self.redraw()
            return True
        return False

    def judge_first(self, move: str, card: str) -> None:
        """A guess goes once judged: the screen says so and keeps answering keys meanwhile."""
        self.busy = True
        self.query_one(TopBar).show(your_move=False, thinking=self.tr("eleusis.ui.guess.judge"))
        self.redraw()
        self.judge_guess(self.session.match.state.clone(), move, card)

    @work(thread=True, exclusive=True, group="judge", exit_on_error=False)
    def judge_guess(self, round_copy: Any, move: str, card: str) -> None:
        """The guess judged on a copy of the round in a process of its own (``tcgtui.tui.games.eleusis_judging``);
        the round's own move then finds the verdict kept instead of judging on the UI's loop."""
        # only a person's guess is judged apart
        from tcgtui.tui.games.eleusis_judging import judge_apart
        try:
            judge_apart(round_copy, move)
        finally:
            self.app.call_from_thread(self.judged, move, card)

    def judged(self, move: str, card: str) -> None:
        self.busy = False
        if self.is_attached:
            self.query_one(TopBar).show(thinking=None)
            if not self.send(move, card):
                self.redraw()

    def action_move(self, by: int) -> None:
        """The arrows move the choice on screen: the hand runs from the right in a right-to-left language."""
        by = -by if self.direction.rtl else by
        self.typed.reset()
        if self.obs is not None and self.obs.hand:
            self.cursor = (self.cursor + by) % len(self.obs.hand)
            self.redraw()

    def action_pick(self, digit: int) -> None:
        """Digits select a card of the hand (1 = the first, 1 then 2 = the twelfth); Enter plays it."""
        if self.obs is None:
            return
        number = self.typed.type(digit, len(self.obs.hand), time.monotonic())
        if number is not None:
            self.cursor = number - 1
            self.redraw()

    def action_play(self) -> None:
        self.typed.reset()          # the next digit starts a new number
        if self.obs is not None and self.obs.hand:
            self.play(self.cursor)

    @property
    def judge(self) -> str | None:
        """``--judge llm:MODEL``: a person guesses in plain words, which that model writes as a rule."""
        return self.host.settings.agent_options.get("judge") or None

    def action_guess(self) -> None:
        """The rule editor, composed the first time and kept; the guess it returns goes with the chosen card."""
        if not self.choosing():
            return
        # start-up time: the guess screen only when a person guesses
        from tcgtui.tui.games.eleusis_guess import GuessScreen
        index = self.cursor

        def after(text: str | None) -> None:
            if text and self.judge:
                self.translate(index, text)
            elif text:
                self.play(index, text)
        if self.editor is None:
            self.editor = GuessScreen(words=bool(self.judge))
            self.app.install_screen(self.editor, f"eleusis-guess-{id(self)}")   # kept when it is closed
        elif self.editor in self.app.screen_stack:
            return
        self.editor.choose(self.obs.hand[index])
        self.app.push_screen(self.editor, after)

    def on_unmount(self) -> None:
        """The kept rule editor goes with its board (an app closing with the editor open closes it itself)."""
        editor, self.editor = self.editor, None
        if editor is not None and editor not in self.app.screen_stack:
            self.app.uninstall_screen(editor)
            editor.remove()

    @work(exclusive=True, group="translate")
    async def translate(self, index: int, words: str) -> None:
        """The words to the judge model (the ``llm:`` agent's translator, same prompt, same cache),
        then the card played with the guess: the words and the code it wrote."""
        # start-up time: the judge (httpx) only when a guess is judged
        from tcgtui.opponents.llm.followup import FollowUp, judge_settings
        card = parse_card(self.obs.hand[index])
        game = self.session.game.public()
        game.guess_format = "text"           # a person's words are always text, whatever the round's format
        prompter = game.spec.prompter(game, self.catalog, 0, None)
        self.notify(self.tr("eleusis.ui.guess.translating"), timeout=3)
        translator = FollowUp(judge_settings(dict(self.host.settings.agent_options), game.protocol))  # type: ignore[arg-type]
        try:
            move, _ = await translator.complete(prompter, Play(card, guess=True, rule=words).text())
        except Exception as exc:     # an endpoint down or refusing: said on the board, the turn still open
            self.notify(self.tr("eleusis.ui.guess.translate_failed", error=clean(str(exc))[:200]),
                        severity="error", timeout=6)
            return
        finally:
            await translator.aclose()
        if self.session.human_waiting() is not None:
            self.judge_first(move, card.text())

    async def clicked(self, index: int) -> None:
        """A click chooses a card; a click on the chosen card plays it (as Enter does)."""
        if index == self.cursor:
            self.play(index)
        else:
            self.cursor = index
            self.redraw()

    def action_noop(self) -> None:
        """A key hint only."""
