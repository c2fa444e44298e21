"""Puzzle rows in JSON Lines: ``{"code": "...", "value": "..."}`` per line, checked before any runs.

``tcgtui duel check`` reads them; a puzzle bank is the same format with more fields
(``duel mine`` writes them: proposer, seed, round...), so a bank can be re-checked as is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.errors import UserError


def read_rows(path: str, text: locales.Catalog) -> list[dict[str, Any]]:
    """Every row of ``path`` (``-``: standard input); one clear UserError for the first bad line."""
    try:
        lines = sys.stdin.read().splitlines() if path == "-" else \
            Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(text.t("cmd_duel.unreadable", file=path, why=type(exc).__name__)) from None
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            row = None
        if not (isinstance(row, dict) and isinstance(row.get("code"), str) and isinstance(row.get("value"), str)):
            raise UserError(text.t("cmd_duel.bad_row", file=path, line=number))
        rows.append(row)
    return rows
