"""What a model reads under ``--protocol seed``: The Token Games' own prompts, put together as
its ``arena.py`` (a duel) and ``mine_puzzles.py`` (the puzzle bank) do.

The proposer gets the seed's instructions, then its history section listing every
earlier round in order (its code, the proposer's own explanation or the seed's words
for a hidden one, the outcome's words); the solver gets the seed's solver prompt with
the code as the proposal held it (the bank: stripped of surrounding blank space, as
``mine_puzzles.py`` loads it).  One user message, no system message, and an unusable
reply is never quoted back (the round is rerun, ``DuelState.apply_invalid``; the bank
asks once).  The wording comes from the game (``DuelGame.wording``,
``BankGame.solver_prompt``), read from the user's checkout; the replies are read as
``prompter.seed_*_reply`` read them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcgtui.engine.duel.bank import BankGame
from tcgtui.engine.duel.prompter import DuelPrompter
from tcgtui.engine.duel.seed_wording import REPOSITORY, DuelWording, Parts, parts_digest, render
from tcgtui.engine.duel.state import PROPOSE
from tcgtui.engine.prompting import Message

if TYPE_CHECKING:
    from tcgtui.engine.duel.game import DuelGame


def seed_prompter(game: DuelGame | BankGame, catalog: Any, seat: int) -> SeedDuelPrompter:
    """The seed's prompter for ``game`` (a duel or a bank); ValueError, one line, without the checkout."""
    bank = isinstance(game, BankGame)
    wording: DuelWording | None = None if isinstance(game, BankGame) else game.wording
    solver: Parts | None = game.solver_prompt if isinstance(game, BankGame) else (wording.solver if wording else None)
    if solver is None:
        raise ValueError(
            catalog.t("duel.seed.upstream_needed", repository=REPOSITORY, file="llm_utils.py" if bank else "arena.py")
        )
    return SeedDuelPrompter(game, catalog, seat, None if bank else wording, solver)


class SeedDuelPrompter(DuelPrompter):
    """The seed's prompts for one seat; parsing, as the parent does it under the seed's protocol."""

    def __init__(
        self, game: DuelGame | BankGame, catalog: Any, seat: int, wording: DuelWording | None, solver: Parts
    ) -> None:
        super().__init__(game, catalog, seat)
        self.wording, self.solver = wording, solver
        self.version = f"ttg-seed-{wording.digest()}" if wording else f"ttg-seed-bank-{parts_digest(solver)}"

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        if obs.phase == PROPOSE and self.wording is not None:
            return {"role": "user", "content": self.proposal(obs)}
        code = obs.code if self.wording is not None else obs.code.strip()
        return {"role": "user", "content": render(self.solver, {"puzzle": code})}

    def proposal(self, obs: Any) -> str:
        """The seed's instructions and history section: every earlier round, this seat's own
        explanations shown, the opponent's replaced by the seed's words for a hidden one."""
        w = self.wording
        assert w is not None
        past = "".join(
            w.past.format(
                code=r.code,
                expl=r.explanation if r.proposer == obs.seat else w.hidden,
                outcome=w.outcomes[r.outcome.removesuffix("-ex")],
                proposer=w.yours if r.proposer == obs.seat else w.theirs,
            )
            for r in obs.history
        )
        return w.proposer + render(w.history, {"past": past or w.empty})
