"""The rule editor of Eleusis: a guess written in the rule language, checked as one types.

A ``TextArea`` with Python highlighting (Textual draws it with tree-sitter,
the ``syntax`` extra of this package; without it the text is plain and
everything else works).  The highlights are the rule language's few patterns
(``RULE_HIGHLIGHTS``), not Textual's whole Python query: tree-sitter compiles a
query on the event loop, holding the interpreter lock, and the whole one was
compiled twice each time the editor opened (about 30 ms of processor time each,
0.2 s and more on a busy machine), so keys typed at once waited behind it
(``python -m tcgtui.perf.race_keys --editor``).  Under it, the checker's first complaint in the
reader's language, or a line saying the rule is well formed.  Ctrl+S (or
F2) sends the guess with the chosen card; Escape goes back without guessing.

The board composes its editor once and keeps it (``choose`` opens it again for
another card): composing it anew took 90-160 ms of the loop's processor time
each time G was pressed, about three times what showing a kept one takes.  A
draft left with Escape is there when it opens again; a sent guess's is not.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import TextArea

from tcgtui.console_text import clean
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.rulelang import check
from tcgtui.tui.screens.base import LocalizedModal
from tcgtui.tui.widgets.bars import KeyBar
from tcgtui.tui.widgets.code import CodeEditor
from tcgtui.tui.widgets.text import Caption

MAX_CHARS = 4_000       # a move's rule text limit (moves.MAX_TEXT)


def highlighting() -> str | None:
    """``python`` when tree-sitter can highlight it, else None (plain text)."""
    have = all(importlib.util.find_spec(name) is not None for name in ("tree_sitter", "tree_sitter_python"))
    return "python" if have else None


# The rule language's highlights (a subset of Python): about 7 ms of processor time to compile,
# against about 30 ms for Textual's whole Python query.
RULE_HIGHLIGHTS = """
["return" "if" "else" "elif" "and" "or" "not" "in" "is" "def" "for" "lambda" "while" "pass"] @keyword
(comment) @comment
(string) @string
[(integer) (float)] @number
[(true) (false) (none)] @boolean
(call function: (identifier) @function.call)
(call function: (attribute attribute: (identifier) @method.call))
(attribute attribute: (identifier) @property)
["==" "!=" "<" "<=" ">" ">=" "+" "-" "*" "/" "//" "%" "="] @operator
["(" ")" "[" "]" "{" "}"] @punctuation.bracket
"""
RULE = "eleusis-rule"


@functools.cache
def _python() -> Any:
    # start-up time: the grammar only when the rule editor first highlights code
    import tree_sitter_python
    from tree_sitter import Language
    return Language(tree_sitter_python.language())


def rule_editor(text: str, **options: Any) -> TextArea:
    """A code editor highlighting the rule language (plain text without tree-sitter)."""
    editor = CodeEditor.code_editor(text, language=None, **options)
    if highlighting() is not None:
        editor.register_language(RULE, _python(), RULE_HIGHLIGHTS)
        editor.language = RULE
    return editor


class GuessScreen(LocalizedModal["str | None"]):
    """Dismisses with the rule's code (``words``: the rule in plain words, for the translator),
    or None (Escape)."""

    CSS_PATH = Path(__file__).with_name("eleusis.tcss")
    AUTO_FOCUS = "#rule"
    # The editor takes every letter: its footer offers only keys that work while typing (F1 for the
    # rules; ?, L and Q are the board's again after Esc).
    BINDINGS = [Binding("ctrl+s,f2", "send", show=False, priority=True),
                Binding("escape", "cancel", show=False, priority=True),
                Binding("f1", "rules", show=False, priority=True)]

    def __init__(self, card: str = "", text: str = "", words: bool = False, dealer: str = "") -> None:
        super().__init__()
        self.card, self.start, self.words = card, text, words
        self.dealer = dealer        # dealer mode: the player who will look for the rule (no card)
        self.sent = False           # the text went as a guess: the next opening starts empty
        self.shown_in = ""          # the language the editor's texts were last drawn in

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="guess"):
            mode = "words" if self.words else "code"
            if self.dealer:
                yield Caption("eleusis.ui.guess.title_dealer", style="bold", wrap=True,
                              who=clean(self.dealer))
            else:
                yield Caption(f"eleusis.ui.guess.title_{mode}", style="bold", wrap=True, id="rule-title",
                              card=parse_card(self.card).symbol())
            yield Caption(f"eleusis.ui.guess.help_{mode}", wrap=True, style="italic")
            if self.words:
                yield TextArea(self.start, id="rule", soft_wrap=True)
            else:
                yield rule_editor(self.start, id="rule", soft_wrap=True)
            yield Caption("eleusis.ui.guess.empty", style="bold yellow", wrap=True,
                          id="rule-check")
            send = "eleusis.ui.keys.deal" if self.dealer else "eleusis.ui.keys.send"
            yield KeyBar([("Ctrl+S", send, "send"), ("Esc", "eleusis.ui.keys.back", "cancel"),
                          ("F1", "ui.keys.rules", "rules")], id="dialog-keys")

    def on_mount(self) -> None:
        super().on_mount()
        self.shown_in = self.catalog.code
        self.show_check()

    def choose(self, card: str) -> None:
        """Open again for ``card`` (a kept editor): the title names it; the text is the draft left
        with Escape, or empty after a sent guess."""
        self.card = card
        if not self.is_mounted:         # composed with it when first shown
            return
        mode = "words" if self.words else "code"
        self.query_one("#rule-title", Caption).set(f"eleusis.ui.guess.title_{mode}", card=parse_card(card).symbol())
        if self.sent:
            self.sent = False
            self.query_one("#rule", TextArea).clear()

    async def on_screen_resume(self) -> None:
        """The language switched (L on the board) while the editor was put away: its texts follow."""
        if self.shown_in != self.catalog.code:
            await self.relocalize()

    async def relocalize(self) -> None:
        await super().relocalize()
        self.shown_in = self.catalog.code

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.show_check()

    def problem(self) -> str | None:
        """What is wrong with the text as a rule, in the reader's language (None: a rule)."""
        text = self.query_one("#rule", TextArea).text
        if not text.strip():
            return self.tr("eleusis.ui.guess.empty")
        if len(text) > MAX_CHARS:
            return self.tr("eleusis.ui.guess.too_long", limit=MAX_CHARS)
        if self.words:            # words are the translator's to read: any text will do
            return None
        error = check(text)
        return None if error is None else error.text(self.catalog)

    def show_check(self) -> None:
        """The checker's line under the text, laid out again only when it says something else
        (most keys leave it as it was; a new layout of the dialog costs the loop a few ms each)."""
        caption = self.query_one("#rule-check", Caption)
        problem = self.problem()
        if problem is None:
            style, key, params = "bold green", "eleusis.ui.guess.ok_words" if self.words else "eleusis.ui.guess.ok", {}
        else:
            style, key, params = "bold red", "eleusis.ui.guess.problem", {"problem": clean(problem)}
        if (style, key, params) != (caption.style, caption.key, caption.params):
            caption.style = style
            caption.set(key, **params)

    def action_send(self) -> None:
        if self.problem() is None:
            self.sent = True
            self.dismiss(self.answer(self.query_one("#rule", TextArea).text.strip("\n")))
        else:
            self.notify(self.tr("eleusis.ui.guess.fix"), timeout=2)

    def answer(self, text: str) -> Any:
        return text

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_rules(self) -> None:
        """F1: the rules over the editor (Esc comes back to the text as it was)."""
        self.app.show_rules()  # type: ignore[attr-defined]


class DealerScreen(GuessScreen):
    """Dealer mode: the person's secret rule, as the game's ``rule_code`` parameter (the app's setup dialog)."""

    def answer(self, text: str) -> Any:
        return {"rule_code": text}
