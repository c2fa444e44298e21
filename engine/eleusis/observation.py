"""What the scientist sees: the board, its hand, its turns and failed guesses; never the rule or the deck."""

from __future__ import annotations

from dataclasses import dataclass

from tcgtui.engine.core import Outcome


@dataclass(frozen=True)
class EleusisObservation:
    seat: int
    turn: int  # the turn about to be played, 1-based
    legal_moves: tuple[str, ...]  # the distinct cards of the hand
    hand: tuple[str, ...]  # every card held, sorted (seed: as dealt); repeats happen
    board: tuple[tuple[str | None, tuple[str, ...]], ...]  # mainline cards, each with the cards rejected after it
    plays: tuple[tuple[str, bool], ...]  # every card played, in order, and whether it was accepted
    failed_guesses: tuple[str, ...]  # the text of each wrong guess
    max_turns: int
    deck_left: int
    guess_format: str
    outcome: Outcome | None
    protocol: str = "tcgtui"  # seed: the seed's rules (judged after the card, no bankruptcy)
    round_seed: int | None = None  # seed: the round's deck seed, which also seeds the seed's
    # scientist's random card after its failed replies

    @property
    def mainline(self) -> tuple[str, ...]:
        return tuple(card for card, _ in self.board if card is not None)

    @property
    def wrong(self) -> int:
        return len(self.failed_guesses)

    @property
    def potential(self) -> int:
        """The score a right guess would earn this turn."""
        return self.max_turns + 1 - self.turn - 2 * self.wrong
