"""Grid game events as sentences, and the rules as players read them (catalog handed in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcgtui.engine.core import CANCELLED, Event

if TYPE_CHECKING:
    from tcgtui.engine.grid.game import GridGame


class GridNarrator:
    def __init__(self, game: GridGame, catalog: Any, viewer: int = -1) -> None:
        self.game = game
        self.catalog = catalog
        self.viewer = viewer

    def name(self, seat: int) -> str:
        return self.catalog.t(f"grid.games.{self.game.name}.{'first' if seat == 0 else 'second'}")

    def one(self, event: Event | dict) -> str | None:
        if isinstance(event, dict):
            event = Event.from_json(event)
        t, d = self.catalog.t, event.data
        if event.kind == "place":
            key = "grid.events.drop" if self.game.config.gravity else "grid.events.place"
            return t(key, player=self.name(event.player), row=d["row"] + 1, col=d["col"] + 1)
        if event.kind == "invalid":
            kind = d["kind"]
            shown = t(f"grid.events.kind.{kind}") if kind in ("format", "out_of_bounds", "taken") else kind
            return t(
                "grid.events.invalid", player=self.name(event.player), kind=shown, count=d["count"], left=d["left"]
            )
        if event.kind == "win":
            return t("grid.events.win", player=self.name(event.player), length=len(d["line"]))
        if event.kind == "game_over":
            reason = d.get("reason", "")
            if reason == "full":
                return t("grid.events.draw")
            if reason == "disqualified":
                return t("grid.events.disqualified", player=self.name(1 - event.player), winner=self.name(event.player))
            if reason == CANCELLED:
                return t("grid.events.cancelled", cap=self.game.config.move_cap)
        return None

    def all(self, events: list[Any]) -> list[str]:
        return [s for s in (self.one(e) for e in events) if s]


def rules_text(game: GridGame, catalog: Any) -> list[tuple[str, str]]:
    """The rules of ``game`` as (key, sentence) pairs, keys ``grid.rules.*``."""
    cfg = game.config
    first = catalog.t(f"grid.games.{game.name}.first")
    second = catalog.t(f"grid.games.{game.name}.second")
    params = {
        "coords": {"rows": cfg.rows, "cols": cfg.cols},
        "turns": {"first": first, "second": second},
        "line": {"connect": cfg.connect},
        "disqualified": {"limit": cfg.invalid_limit},
        "cap": {"cap": cfg.move_cap},
    }
    piece = cfg.variant.piece  # the game's own word: Tic-Tac-Toe's marks, Connect Four's discs
    laid = "gravity" if cfg.gravity else "place" if piece == "stone" else f"place_{piece}"
    keys = [
        ("coords", "coords"),
        ("start", "start"),
        ("turns", "turns"),
        (laid, laid),
        ("line" if piece == "stone" else f"line_{piece}", "line"),
        ("full", "full"),
        ("invalid_column" if cfg.gravity else "invalid_cell", "invalid"),
        ("again", "again"),
        ("disqualified", "disqualified"),
        ("cap", "cap"),
    ]
    return [(f"grid.rules.{k}", catalog.t(f"grid.rules.{k}", **params.get(kind, {}))) for k, kind in keys]
