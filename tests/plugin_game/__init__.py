"""A game defined outside tcgtui, plugged in only through the declared surface.

A plug-in is a package found through the entry point group ``tcgtui.games``; importing it
registers its game and its app side.  Beside its rules it carries its text (``locales/<lang>/<id>/``) and its
screen (``screen.py``, declared in its ``AppSide``); tcgtui finds its text by that layout (docs/arena.md, "A game from
another package").  tests/test_plugin_game.py plays it through every command.
"""

from __future__ import annotations

from typing import Any

from tcgtui.app_side import AppSide, register_app
from tcgtui.engine.core import Event
from tcgtui.engine.registry import WDL, GameInfo, GameSpec, Param, Reference, register

from .rules import NimGame, perfect

RULE_KEYS = ("heap", "take", "last")


def _prompter(game: NimGame, catalog: Any, seat: int, style: str | None = None) -> Any:
    from .prompter import NimPrompter
    return NimPrompter(game, catalog, seat)


class NimNarrator:
    def __init__(self, game: NimGame, catalog: Any, viewer: int | None = None) -> None:
        self.catalog = catalog

    def one(self, event: Event) -> str | None:
        if event.kind == "take":
            return self.catalog.t("nim.events.take", player=event.player + 1, n=event.data["n"],
                                  left=event.data["left"])
        if event.kind == "game_over":
            return self.catalog.t("nim.events.won", player=event.player + 1)
        return None

    def all(self, events: list[Any]) -> list[str]:
        return [s for s in (self.one(e if isinstance(e, Event) else Event.from_json(e)) for e in events) if s]


def rules_text(game: NimGame, catalog: Any) -> list[tuple[str, str]]:
    return [(f"nim.rules.{k}", catalog.t(f"nim.rules.{k}", most=game.most)) for k in RULE_KEYS]


def replay_facts(state: Any, catalog: Any) -> list[str]:
    return [catalog.t("nim.ui.heap", heap=state.heap)]


SPEC = register(GameSpec(
    GameInfo("nim", seats=2, outcome=WDL, prompt_styles=("text",),
             params=(Param("heap", int, 0, low=0, high=1_000), Param("most", int, 3, low=1, high=10))),
    make=lambda params: NimGame(params["heap"], params["most"]),
    prompter=_prompter, narrator=NimNarrator, rules_text=rules_text,
    references=(Reference("perfect", perfect),), replay_facts=replay_facts))

# Its app side: only a screen (the replay draws its heap from ``replay_facts``).
APP = register_app("nim", AppSide(screen=f"{__name__}.screen:NimScreen"))
