"""The card game as a ``Game``: a pack plus the rules make seeded initial states."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game, IllegalMove
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.state import TcgState


class TcgGame(Game[str]):
    name = "tcg"

    def __init__(self, pack: Pack) -> None:
        self.pack = pack

    def new_state(self, seed: int) -> TcgState:
        return TcgState.new(self.pack, seed)

    def setup(self) -> dict[str, Any]:
        return {"pack": self.pack.id, "pack_version": self.pack.version, "pack_hash": self.pack.hash}

    def resample(self, obs: object, rng: object) -> TcgState:
        from tcgtui.engine.tcg.redeal import determinize
        return determinize(obs, self.pack, rng)  # type: ignore[arg-type]

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        if text not in self.pack.index:  # type: ignore[attr-defined]
            raise IllegalMove(f"{text!r} is not a card of pack {self.pack.id!r}")
        return text
