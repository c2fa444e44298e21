"""``tcgtui duel show ID``: one duel's puzzles, round by round, with their verdicts and
both players' replies (the proposer's puzzle, the solver's answer), as the models wrote them."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from tcgtui import locales
from tcgtui.console_text import clean, safe, shorten
from tcgtui.engine.duel.analysis import replies_by_round
from tcgtui.errors import UserError
from tcgtui.report.data import StoredGame
from tcgtui.store import Store

REPLY_CHARS = 600


def _reply(decision: Any) -> str:
    attempts = (decision.info or {}).get("attempts") or []
    last = attempts[-1] if attempts else {}
    return str(last.get("reply") or decision.move or "")


def rows(store: Store, games: list[StoredGame], duel: str) -> list[dict[str, Any]]:
    game = next((g for g in games if g.id == duel or g.id.startswith(duel)), None)
    if game is None or game.record is None:
        known = ", ".join(sorted({g.id[:12] for g in games})[:10]) or "-"
        raise UserError(locales.load().t("cmd_duel.unknown_duel", duel=duel, known=known))
    decisions = store.decisions(game.id)
    return replies_by_round(game.record, game.seats, [(d.seat, _reply(d)) for d in decisions])


def show(store: Store, games: list[StoredGame], duel: str, fmt: str) -> int:
    found = rows(store, games, duel)
    if fmt == "json":
        sys.stdout.write(json.dumps([{k: clean(v, newlines=True) if isinstance(v, str) else v for k, v in r.items()}
                                     for r in found], indent=2, ensure_ascii=False) + "\n")
        return 0
    text = locales.load()
    table = Table(title=text.t("cmd_duel.rounds_title", duel=duel), title_justify="left", show_lines=True)
    keys = ("round", "proposer", "solver", "outcome", "sample_result", "answer_result", "proposer_reply",
            "solver_reply")
    for key in keys:
        table.add_column(text.t(f"cmd_report.col.{key}"))
    for r in found:
        table.add_row(*(safe(shorten(str("–" if r.get(k) is None else r[k]), REPLY_CHARS), newlines=True) for k in keys))
    console = Console()
    if not console.is_terminal:
        console = Console(width=200)
    console.print(table)
    return 0
