"""The two-player trading card game of TCG-Bench, with cards as data."""

from tcgtui.engine.registry import GameInfo, GameSpec, Param, register
from tcgtui.engine.tcg.cards import Card, Pack
from tcgtui.engine.tcg.game import TcgGame
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation
from tcgtui.engine.tcg.pack import PackError, build_pack
from tcgtui.engine.tcg.redeal import determinize
from tcgtui.engine.tcg.state import TcgState

__all__ = ["Card", "ChampionView", "Pack", "PackError", "TcgGame", "TcgObservation", "TcgState",
           "build_pack", "determinize"]


def _make(params: dict) -> TcgGame:
    return TcgGame(params["pack"])


def _fast() -> object:
    import importlib
    return importlib.import_module("tcgtui.engine.tcg.fast.search")


def _prompter(game: TcgGame, catalog, seat: int, style: str | None = None):
    from tcgtui.engine.tcg.prompter import build
    return build(game, catalog, seat, style)


def _narrator(game: TcgGame, catalog, viewer: int | None = None):
    from tcgtui.engine.tcg.narrate import Narrator
    return Narrator(catalog, game.pack, viewer)


register(GameSpec(GameInfo("tcg", seats=2, params=(Param("pack", str, "community", kind="pack"),),
                           prompt_styles=("text",)),
                  make=_make, prompter=_prompter, narrator=_narrator, fast=_fast, extras={"peek": True}))
