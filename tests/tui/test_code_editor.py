"""The duel's and Eleusis's code editor indents as a person writing Python expects."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tcgtui.tui.widgets.code import CodeEditor, next_indent

pytestmark = pytest.mark.anyio


def test_the_next_line_keeps_the_indent_and_adds_a_step_after_a_colon() -> None:
    assert next_indent("def mystery(x):", 4) == "    "
    assert next_indent("    if x > 2:  # big", 4) == "        "
    assert next_indent("    return x", 4) == "    "
    assert next_indent("x = 'a:'", 4) == ""


class EditorApp(App[None]):
    def compose(self) -> ComposeResult:
        yield CodeEditor.code_editor("", language=None, id="code")


async def test_enter_after_a_colon_indents_in_the_editor() -> None:
    app = EditorApp()
    async with app.run_test() as pilot:
        app.query_one(CodeEditor).focus()
        await pilot.press(*"def f(x):", "enter", *"if x:", "enter", *"return", "enter")
        assert app.query_one(CodeEditor).text == "def f(x):\n    if x:\n        return\n        "
