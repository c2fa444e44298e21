"""The code editor of the duel and the Eleusis rule editor: Textual's ``TextArea`` that keeps a
line's indentation on Enter and indents one step more after a colon, as a person writing Python
expects (Textual's editor starts every new line at column 0)."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea


def next_indent(line: str, indent_width: int) -> str:
    """The indentation of the line after ``line`` (the text before the cursor): the same, one
    step more after a colon (a comment after it aside)."""
    kept = line[: len(line) - len(line.lstrip(" \t"))]
    code = line.split("#", 1)[0].rstrip()
    return kept + " " * indent_width if code.endswith(":") else kept


class CodeEditor(TextArea):
    """A ``TextArea`` whose Enter indents (``TextArea.code_editor`` builds one of this class)."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key != "enter" or self.read_only:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        self._restart_blink()
        start, end = self.selection
        row, column = min(start, end)
        indent = next_indent(self.document[row][:column], self.indent_width)
        self._replace_via_keyboard("\n" + indent, start, end)
