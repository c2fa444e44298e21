"""Eleusis's screen: a person plays the scientist against the dealer's secret rule.

The mainline runs left to right in every language, each accepted card with
the cards rejected after it stacked under it (its sideline); the hand of 12
lies below, numbered.  Arrows choose a card, Enter or a digit 1-9 (the first
nine cards) or a click plays it; G opens the rule editor (``guess.py``), whose
guess goes with the chosen card.  A person gives no tentative rule or
confidence each turn: only a guess is judged (see docs/eleusis.md).  The side
panel holds the turn, the score a right guess would earn now, the failed
guesses and the log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.worker import WorkerCancelled, WorkerFailed

from tcgtui.console_text import clean
from tcgtui.engine.core import Event, Match
from tcgtui.engine.eleusis.cards import Card, parse_card
from tcgtui.engine.eleusis.moves import Play
from tcgtui.engine.eleusis.narrator import shown
from tcgtui.locales import Catalog
from tcgtui.match import MatchResult
from tcgtui.tui.bidi_text import Direction, Line, Para, Piece
from tcgtui.tui.games import register
from tcgtui.tui.keys import keys
from tcgtui.tui.games.base import BoardPanel, GameScreen
from tcgtui.tui.narration import SPECTATOR
from tcgtui.tui.session import GameSession
from tcgtui.tui.widgets import Localized
from tcgtui.tui.widgets.bars import KeyBar, TopBar
from tcgtui.tui.widgets.log import BattleLog
from tcgtui.tui.widgets.stream import StreamPanel
from tcgtui.tui.widgets.text import Caption

CARD_W = 4                    # "10♣" and a gap
RED, BLACK = "bold #ff5f5f", "bold #e4e4e4 on #303030"
CURSOR = "reverse"
EXAMPLES = (0, 3, 13, 21)     # library rules shown on the rules screen as examples of the language

PLAY_KEYS = [("←→", "eleusis.ui.keys.choose", "noop"), ("⏎ 1-9", "ui.keys.play", "play"),
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


class MainlineView(Localized, Widget):
    """The mainline, wrapped into blocks as wide as the widget; sidelines hang under their card."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board: tuple[tuple[str | None, tuple[str, ...]], ...] = ()

    def show(self, board: Any) -> None:
        self.board = tuple(board)
        self.refresh(layout=True)

    def per_row(self, width: int) -> int:
        return max(1, (width - 1) // CARD_W)

    def lines(self, width: int) -> list[Text]:
        out: list[Text] = []
        n = self.per_row(width)
        columns = list(self.board)
        for start in range(0, len(columns), n):
            block = columns[start:start + n]
            top = Text(" ")
            for i, (card, _) in enumerate(block):
                last = start + i == len(columns) - 1
                top.append_text(card_cell(card, "underline" if last else "") if card is not None
                                else Text("·".ljust(CARD_W), "dim"))
            out.append(top)
            for depth in range(max(len(r) for _, r in block)):
                line = Text(" ")
                for _, rejected in block:
                    line.append_text(card_cell(rejected[depth], "dim") if depth < len(rejected)
                                     else Text(" " * CARD_W))
                out.append(line)
        return out or [Text(" ")]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> RenderResult:
        return Group(*self.lines(self.size.width))


class HandView(Localized, Widget):
    """The hand, numbered 1-12, the chosen card highlighted while it is the person's turn."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hand: tuple[str, ...] = ()
        self.cursor = 0
        self.active = False

    def show(self, hand: Sequence[str], cursor: int, active: bool) -> None:
        self.hand, self.cursor, self.active = tuple(hand), cursor, active
        self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return 2

    def render(self) -> RenderResult:
        numbers, cards = Text(" "), Text(" ")
        for i, card in enumerate(self.hand):
            chosen = self.active and i == self.cursor
            numbers.append(str(i + 1).ljust(CARD_W), "bold" if chosen else "dim")
            cards.append_text(card_cell(card, CURSOR if chosen else ""))
        return Group(numbers, cards)

    def index_at(self, x: int) -> int | None:
        i = (x - 1) // CARD_W
        return i if x >= 1 and 0 <= i < len(self.hand) else None

    async def on_click(self, event: events.Click) -> None:
        i = self.index_at(event.x)
        if i is not None:
            await self.screen.clicked(i)  # type: ignore[attr-defined]


class EleusisPanel(BoardPanel):
    """Turn n/30, the score a right guess earns now, wrong guesses, and each failed guess."""

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
            for text in o.failed_guesses:
                lines.append(Text("  " + clean(text).replace("\n", " ⏎ "), "italic", no_wrap=True,
                                  overflow="ellipsis"))
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


@register("eleusis")
class EleusisScreen(GameScreen):
    CSS_PATH = Path(__file__).with_suffix(".tcss")
    BINDINGS = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)],
        Binding("enter", "play", show=False),
        Binding(keys("g"), "guess", show=False),
    ]

    def __init__(self, session: GameSession, *, streams: bool = False,
                 note: tuple[str, dict[str, Any]] | None = None) -> None:
        super().__init__(session, streams=streams, note=note)
        self.obs: Any = None
        self.cursor = 0
        self._narrators: dict[tuple[str, int | None], Any] = {}
        self.rival_result: MatchResult | None = None     # a race's rival round, once over
        self.rival_turns = 0
        self.rival_error: str | None = None
        self.rival_worker: Any = None
        self.rival_board: Any = ()

    # --- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(id="top")
        yield KeyBar(WATCH_KEYS if self.session.spectating else PLAY_KEYS, id="keys")
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Caption("eleusis.ui.mainline", classes="pane-title")
                yield MainlineView(id="mainline")
                yield Caption("eleusis.ui.hand", classes="pane-title")
                yield HandView(id="hand")
            with Vertical(id="side"):
                yield EleusisPanel(self, id="panel")
                if self.rival:
                    yield Caption("eleusis.ui.race.title", classes="pane-title")
                    yield RivalPanel(self, id="rival")
                    yield MainlineView(id="rival-mainline")
                yield Caption("eleusis.ui.log", classes="pane-title")
                yield BattleLog(self.narrate, id="log")
                if self.streams:
                    yield Caption("ui.stream.title", classes="pane-title")
                    yield StreamPanel(id="stream")

    @classmethod
    def setup_dialog(cls, settings: Any) -> Any:
        """Dealer mode (``tcgtui play --game eleusis --dealer SPEC``): the person writes the secret rule
        in the rule editor, checked as they type; the round starts once it is a rule."""
        if settings.params.get("rule_code"):
            return None
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

    @work(group="rival", exit_on_error=False)
    async def run_rival(self) -> None:
        """The rival's round on the same deal and rule, seen only as a turn count until both end."""
        from tcgtui.match import run_match
        from tcgtui.opponents.registry import make_agent
        from tcgtui.store.db import now
        settings, started = self.host.settings, now()

        async def moved(rec: Any) -> None:
            self.rival_turns += 1
            self.query_one(RivalPanel).refresh(layout=True)
        try:
            agent = make_agent(self.rival, **{**settings.agent_options, "game": self.session.game})
            match = Match(self.session.game, self.session.seed)
            try:
                result = await run_match(self.session.game, self.session.seed, (agent,), lang=self.catalog.code,
                                         match=match, on_decision=moved)
            finally:
                await agent.aclose()
            self.rival_board = match.state.observation(0).board
        except Exception as exc:     # a rival that cannot play (an endpoint down) does not stop the person's round
            self.rival_error = str(exc) or type(exc).__name__
            self.query_one(RivalPanel).refresh(layout=True)
            return
        self.rival_result = result
        if settings.keep_rival is not None:
            settings.keep_rival(result, self.catalog.code, started)
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

    def narrate(self, event: Event, seat: int, catalog: Catalog) -> str | None:
        from tcgtui.engine import registry
        viewer = None if seat == SPECTATOR else seat
        key = (catalog.code, viewer)
        if key not in self._narrators:
            self._narrators[key] = registry.get("eleusis").narrator(self.session.game, catalog, viewer)
        lines = self._narrators[key].all([event])
        return clean(" ".join(lines)) if lines else None

    def rules(self, catalog: Catalog, direction: Direction) -> list[RenderableType]:
        """The rules, then the rule language by example: library rules, name and code (code left to right)."""
        from tcgtui.engine.eleusis.library import library
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
        """The true rule by name, and the judge's verdict on each guess."""
        game = self.session.game
        out: list[tuple[str, dict[str, Any]]] = []
        number = game.rule_number_of(self.session.match.seed)     # a drawn rule is the deal's own
        if number is not None:
            from tcgtui.engine.eleusis.library import library
            out.append(("eleusis.ui.over.rule", {"name": library()[number].name_in(self.catalog.code)}))
        for e in self.session.match.events:
            if e.kind != "guess":
                continue
            d = e.data
            guess = clean(d.get("rule") or d.get("code") or "").replace("\n", " ")
            if d["correct"]:
                out.append(("eleusis.ui.over.right", {"turn": d["turn"], "guess": guess}))
            elif d.get("counterexample"):
                ce = d["counterexample"]
                out.append(("eleusis.ui.over.wrong", {"turn": d["turn"], "guess": guess,
                                                      "card": shown(ce["card"]) if ce.get("card") else "",
                                                      "mainline": " ".join(map(shown, ce.get("mainline", []))) or "-"}))
            else:
                out.append(("eleusis.ui.over.wrong_error", {"turn": d["turn"], "guess": guess}))
        return out + self.summary_lines_rival()

    def summary_lines_rival(self) -> list[tuple[str, dict[str, Any]]]:
        r = self.rival_result
        if r is None or r.outcome is None or not r.outcome.scores:
            return []
        return [("eleusis.ui.over.rival", {"who": clean(self.rival), "score": f"{r.outcome.scores[0]:g}",
                                           "turns": r.turns})]

    def summary_block(self) -> list[RenderableType]:
        """The true rule's code under the summary, left to right in every language."""
        return [Text(self.session.match.state.rule.source, "cyan")]

    # --- the game --------------------------------------------------------------------

    def choosing(self) -> bool:
        return self.session.human_waiting() is not None

    def redraw(self) -> None:
        self.obs = self.session.observation(0)
        o = self.obs
        self.cursor = max(0, min(self.cursor, len(o.hand) - 1))
        self.query_one(MainlineView).show(o.board)
        self.query_one(HandView).show(o.hand, self.cursor, self.choosing())
        self.query_one(EleusisPanel).refresh(layout=True)
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
        move = Play(card, guess=True, rule=guess, code=guess).text() if guess else card.text()
        if self.session.choose(move, card.text()):
            self.query_one(TopBar).show(your_move=False)
            self.redraw()
            return True
        return False

    def action_move(self, by: int) -> None:
        if self.obs is not None and self.obs.hand:
            self.cursor = (self.cursor + by) % len(self.obs.hand)
            self.redraw()

    def action_pick(self, number: int) -> None:
        """A digit plays that card of the hand (1 = the first)."""
        if self.obs is not None and number <= len(self.obs.hand):
            self.cursor = number - 1
            self.play(self.cursor)

    def action_play(self) -> None:
        if self.obs is not None and self.obs.hand:
            self.play(self.cursor)

    @property
    def judge(self) -> str | None:
        """``--judge llm:MODEL``: a person guesses in plain words, which that model writes as a rule."""
        return self.host.settings.agent_options.get("judge") or None

    def action_guess(self) -> None:
        """The rule editor; the guess it returns goes with the chosen card."""
        if not self.choosing():
            return
        from tcgtui.tui.games.eleusis_guess import GuessScreen
        index = self.cursor

        def after(text: str | None) -> None:
            if text and self.judge:
                self.translate(index, text)
            elif text:
                self.play(index, text)
        self.app.push_screen(GuessScreen(self.obs.hand[index], words=bool(self.judge)), after)

    @work(exclusive=True, group="translate")
    async def translate(self, index: int, words: str) -> None:
        """The words to the judge model (the ``llm:`` agent's translator, same prompt, same cache),
        then the card played with the guess: the words and the code it wrote."""
        from tcgtui.engine import registry
        from tcgtui.opponents.llm.followup import FollowUp, judge_settings
        card = parse_card(self.obs.hand[index])
        game = self.session.game.public()
        game.guess_format = "text"           # a person's words are always text, whatever the round's format
        prompter = registry.get("eleusis").prompter(game, self.catalog, 0, None)
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
        if self.session.choose(move, card.text()):
            self.query_one(TopBar).show(your_move=False)
            self.redraw()

    async def clicked(self, index: int) -> None:
        self.cursor = index
        self.redraw()
        self.play(index)

    def action_noop(self) -> None:
        """A key hint only."""
