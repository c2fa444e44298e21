"""Games saved after every move: people's games, and watched ones.

A person may quit or the terminal may die at any moment; the game is in the
store up to its last move, as ``in_progress``.  ``tcgtui play --resume`` rebuilds
it from its seed and moves and carries on; a game never resumed is later marked
``abandoned`` (reports count it apart, never as a loss).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import locales
from engine.core import GameRecord, Match, replay
from engine.tcg import TcgGame
from tcgtui.errors import UserError
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.packs import load_pack
from tcgtui.store import IN_PROGRESS, GameRow, Store
from tcgtui.store.db import now
from tcgtui.store.rows import decision_row, outcome_fields

HUMAN = "human"
RESUME_KEY = "resume"     # in the stored record: what a resume needs that the record lacks


def human_spec(handle: str) -> str:
    return f"{HUMAN}:{handle}"


@dataclass
class LiveGame:
    """One game in the store, written after every move."""

    store: Store
    game: TcgGame
    match: Match
    row: GameRow
    specs: tuple[str, str]
    resume: dict[str, Any]

    @classmethod
    def begin(cls, store: Store, game: TcgGame, seed: int, *, agent: str, opponent: str, agent_seat: int,
              lang: str, resume: dict[str, Any], run_id: int | None = None, game_index: int = 0) -> LiveGame:
        match = Match(game, seed)
        row = GameRow(agent=agent, opponent=opponent, lang=lang, game_index=game_index, seed=seed,
                      agent_seat=agent_seat, game=game.name, pack_id=game.pack.id, pack_hash=game.pack.hash,
                      status=IN_PROGRESS, record={}, started_at=now(), run_id=run_id)
        live = cls(store, game, match, row, row.seats, resume)
        row.record = live._record()
        store.start_game(row)
        return live

    @classmethod
    def reopen(cls, store: Store, row: GameRow) -> LiveGame:
        """Rebuild an unfinished game from its seed and moves."""
        resume = row.record.get(RESUME_KEY) or {}
        pack = load_pack(resume.get("pack") or row.pack_id)
        if pack.hash != row.pack_hash:
            raise UserError(locales.load().t("humans.pack_changed", pack=pack.id, source=pack.source, game=row.id,
                                             now=pack.short_hash, then=row.pack_hash[:12]))
        game = TcgGame(pack)
        match = replay(game, GameRecord.from_json(row.record))
        return cls(store, game, match, row, row.seats, resume)

    def _record(self) -> dict[str, Any]:
        return {**self.match.record().to_json(), RESUME_KEY: self.resume}

    def on_decision(self, rec: DecisionRecord) -> None:
        """The hook for ``run_match``: called once the move is on the board."""
        turns = max((e.data.get("turn", 0) for e in self.match.events if e.kind == "turn"), default=0)
        self.store.save_move(self.row.id, [decision_row(rec, self.specs, self.game.pack)], self._record(),
                             turns, len(self.match.moves))

    def finish(self, result: MatchResult) -> None:
        fields = outcome_fields(result)
        fields["record"] = {**fields["record"], RESUME_KEY: self.resume}
        self.store.finish_game(self.row.id, fields)


def unfinished(store: Store, agent: str) -> list[GameRow]:
    return store.games("agent = ? AND status = ?", (agent, IN_PROGRESS))


def abandon_unfinished(store: Store, agent: str, keep: str | None = None) -> int:
    """Mark a player's older unfinished games abandoned; returns how many."""
    ids = [g.id for g in unfinished(store, agent) if g.id != keep]
    store.mark_abandoned(ids)
    return len(ids)
