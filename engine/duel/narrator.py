"""Duel events as sentences, and the rules as players read them (catalog handed in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcgtui.engine.core import Event

if TYPE_CHECKING:
    from tcgtui.engine.duel.bank import BankGame
    from tcgtui.engine.duel.game import DuelGame

RULES = (
    "rounds",
    "propose",
    "value",
    "sample",
    "solve",
    "success",
    "failure",
    "only_true",
    "errors",
    "sandbox",
    "history",
    "attempts",
    "solve_time",
    "time_up",
    "score",
)
TIMED = ("solve_time", "time_up")  # told only in duels with a time to solve


class DuelNarrator:
    """``names``: how a screen calls the two seats (its labels); by default "the first player"."""

    def __init__(
        self, game: DuelGame | BankGame, catalog: Any, viewer: int = -1, names: tuple[str, str] | None = None
    ) -> None:
        self.game = game
        self.catalog = catalog
        self.viewer = viewer
        self.names = names

    def name(self, seat: int) -> str:
        if self.names is not None:
            return self.names[seat]
        return self.catalog.t(f"duel.events.seat.{'first' if seat == 0 else 'second'}")

    def one(self, event: Event | dict) -> str | None:
        if isinstance(event, dict):
            event = Event.from_json(event)
        t, d, who = self.catalog.t, event.data, self.name(event.player) if event.player >= 0 else ""
        if event.kind == "proposed":
            return t("duel.events.proposed", round=d["round"], player=who)
        if event.kind == "answered":
            return t("duel.events.answered", round=d["round"], player=who, value=d["value"])
        if event.kind == "checked":
            return t(
                "duel.events.checked",
                purpose=t(f"duel.events.purpose.{d['purpose']}"),
                result=t(f"duel.events.result.{d['result']}"),
                seconds=f"{d['seconds']:.2f}",
            )
        if event.kind == "time_up":
            return t("duel.events.time_up", round=d["round"], player=who)
        if event.kind == "invalid":
            return t("duel.events.invalid", player=who, kind=d["kind"], left=d["left"])
        if event.kind == "scored":
            return t(f"duel.events.outcome.{d['outcome']}", round=d["round"], player=who)
        if event.kind == "end":
            a, b = d["scores"]
            return t("duel.events.end", first=self.name(0), second=self.name(1), a=f"{a:g}", b=f"{b:g}")
        return None

    def all(self, events: list[Any]) -> list[str]:
        return [s for s in (self.one(e) for e in events) if s]


def rules_text(game: DuelGame, catalog: Any) -> list[tuple[str, str]]:
    """The rules as (key, sentence) pairs, keys ``duel.rules.*``."""
    params: dict[str, dict[str, Any]] = {
        "rounds": {"rounds": game.rounds},
        "attempts": {"attempts": game.attempts},
        "sandbox": {"timeout": f"{game.check_timeout:g}"},
        "solve_time": {"seconds": f"{game.solve_time:g}"},
    }
    keys = [k for k in RULES if k not in TIMED or game.solve_time > 0]
    return [(f"duel.rules.{k}", catalog.t(f"duel.rules.{k}", **params.get(k, {}))) for k in keys]
