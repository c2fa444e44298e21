"""Puzzle rows in JSON Lines: ``{"code": "...", "value": "..."}`` per line, checked before any runs.

``tcgtui duel check`` reads them; a puzzle bank is the same format with more fields
(``duel mine`` writes them: proposer, seed, round...), so a bank can be re-checked as is.
"""

from __future__ import annotations

from typing import Any

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text


def read_rows(path: str, text: locales.Catalog) -> list[dict[str, Any]]:
    """Every row of ``path`` (``-``: standard input); one clear UserError for the first bad line."""
    rows = []
    for number, line in numbered_lines(read_text("", path)):
        try:
            row = parse_json(line)
        except TooDeep as exc:
            raise UserError(f"{path}, line {number}: {exc}") from None
        except ValueError:
            row = None
        if not (isinstance(row, dict) and isinstance(row.get("code"), str) and isinstance(row.get("value"), str)):
            raise UserError(text.t("cmd_duel.bad_row", file=path, line=number))
        rows.append(row)
    return rows
