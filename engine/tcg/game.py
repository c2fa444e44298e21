"""The card game as a ``Game``: a pack, two deck lists and the rules make seeded initial states."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game, IllegalMove
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.decks import Deck, whole_pack
from tcgtui.engine.tcg.state import TcgState


class TcgGame(Game[str]):
    """``decks[seat]`` is that seat's deck; without lists both play the whole pack."""

    name = "tcg"

    def __init__(self, pack: Pack, decks: tuple[Deck, Deck] | None = None) -> None:
        self.pack = pack
        default = whole_pack(pack)
        self.decks: tuple[Deck, Deck] = decks or (default, default)
        self.default_decks = self.decks[0] == default and self.decks[1] == default
        self._swapped: TcgGame | None = None
        self._deck_cards = None if self.default_decks else (self.decks[0].cards(), self.decks[1].cards())

    def new_state(self, seed: int) -> TcgState:
        return TcgState.new(self.pack, seed, self._deck_cards)

    def setup(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pack": self.pack.id, "pack_version": self.pack.version, "pack_hash": self.pack.hash}
        if not self.default_decks:  # records of whole-pack games stay as they always were
            out["decks"] = [d.to_json(self.pack) for d in self.decks]
        return out

    def seated(self, agent_seat: int) -> TcgGame:
        """The game with the measured player's deck (``decks[0]``) at ``agent_seat``."""
        if agent_seat == 0 or self.default_decks:
            return self
        if self._swapped is None:  # one object, so players keep what they compiled for it
            self._swapped = TcgGame(self.pack, (self.decks[1], self.decks[0]))
        return self._swapped

    def owned(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Copies per pack card in each seat's deck (search re-deals from these)."""
        return self.decks[0].counts, self.decks[1].counts

    def resample(self, obs: object, rng: object) -> TcgState:
        # only search players resample a hidden hand
        from tcgtui.engine.tcg.redeal import determinize

        return determinize(obs, self.pack, rng, None if self.default_decks else self.owned())  # type: ignore[arg-type]

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        if text not in self.pack.index:  # type: ignore[attr-defined]
            raise IllegalMove(f"{text!r} is not a card of pack {self.pack.id!r}")
        return text
