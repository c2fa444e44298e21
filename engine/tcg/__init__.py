"""The two-player trading card game of TCG-Bench, with cards as data."""

from engine.tcg.cards import Card, Pack
from engine.tcg.game import TcgGame
from engine.tcg.observation import ChampionView, TcgObservation
from engine.tcg.pack import PackError, build_pack
from engine.tcg.redeal import determinize
from engine.tcg.state import TcgState

__all__ = ["Card", "ChampionView", "Pack", "PackError", "TcgGame", "TcgObservation", "TcgState",
           "build_pack", "determinize"]
