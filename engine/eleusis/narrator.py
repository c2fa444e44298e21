"""Eleusis events as sentences, and the rules as players read them (catalog handed in)."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Event, Game
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.state import HAND, MAX_TURNS, PENALTY, SILENT_CONFIDENCE

RULE_KEYS = (
    "deck",
    "secret",
    "starter",
    "hand",
    "play",
    "turns",
    "tentative",
    "guess",
    "judge",
    "correct",
    "wrong",
    "unsolved",
    "bankrupt",
    "silent",
    "no_cards",
)


def shown(card: str) -> str:
    """A card as the board shows it, rank then suit symbol (10♦), not as moves write it (10D)."""
    return parse_card(card).symbol()


class EleusisNarrator:
    def __init__(self, game: Game, catalog: Any, viewer: int = -1) -> None:
        self.game = game
        self.catalog = catalog
        self.viewer = viewer

    def one(self, event: Event | dict) -> str | None:
        if isinstance(event, dict):
            event = Event.from_json(event)
        t, d = self.catalog.t, event.data
        if event.kind == "start":
            if d.get("starter") is None:
                return t("eleusis.events.no_starter")
            return t("eleusis.events.start", card=shown(d["starter"]), count=d.get("set_aside", 0))
        if event.kind == "play":
            return t(
                "eleusis.events.accepted" if d["accepted"] else "eleusis.events.rejected",
                turn=d["turn"],
                card=shown(d["card"]),
            )
        if event.kind == "guess":
            return t(
                "eleusis.events.guess_right" if d["correct"] else "eleusis.events.guess_wrong",
                rule=d.get("rule") or d.get("code") or "",
                penalty=PENALTY,
            )
        if event.kind == "game_over":
            return t(f"eleusis.events.over.{d['reason']}", score=d["score"], turn=d["turns"])
        return None

    def all(self, events: list[Any]) -> list[str]:
        return [s for s in (self.one(e) for e in events) if s]


def rules_text(game: Game, catalog: Any) -> list[tuple[str, str]]:
    """The rules as (key, sentence) pairs, keys ``eleusis.rules.*``."""
    turns = getattr(game, "max_turns", MAX_TURNS)
    params = {
        "hand": {"hand": HAND},
        "turns": {"turns": turns},
        "correct": {"top": turns + 1, "penalty": PENALTY},
        "wrong": {"penalty": PENALTY},
        "unsolved": {"penalty": PENALTY},
        "silent": {"confidence": SILENT_CONFIDENCE},
    }
    keys: tuple[str, ...] = RULE_KEYS
    if getattr(game, "protocol", "tcgtui") == "seed":  # judged after the card, no bankruptcy (docs/protocols.md)
        keys = tuple("guess_seed" if k == "guess" else k for k in RULE_KEYS if k != "bankrupt")
    return [(f"eleusis.rules.{k}", catalog.t(f"eleusis.rules.{k}", **params.get(k, {}))) for k in keys]
