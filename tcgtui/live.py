"""Games saved after every move: people's games, and watched ones.

A person may quit or the terminal may die at any moment; the game is in the
store up to its last move, as ``in_progress``.  It enters the store with its
first move: a game dealt and left untouched was never played.  ``tcgtui play --resume`` (and
home's "continue") rebuilds it from its seed and moves and carries on.  Starting another game
leaves it unfinished, to be carried on later; only a campaign, which plays one game at a time,
marks a game of its ladder that cannot go on ``abandoned`` (reports count it apart, never as a loss).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tcgtui import locales
from tcgtui.engine.core import Game, GameRecord, Match, replay
from tcgtui.arena import build_game, game_spec
from tcgtui.engine import registry
from tcgtui.opponents.human import HUMAN
from tcgtui.errors import UserError
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.store import IN_PROGRESS, GameRow, Store
from tcgtui.store.db import now
from tcgtui.store.rows import decision_rows, outcome_fields, pending_row, scrub_info

RESUME_KEY = "resume"     # in the stored record: what a resume needs that the record lacks


def human_spec(handle: str) -> str:
    return f"{HUMAN}:{handle}"


def between_people(opponent: str) -> bool:
    """A game two people played at one keyboard (``--vs human``): it says nothing of a person
    against an opponent, so records against opponents, baseline exports and reports leave it out."""
    return opponent == HUMAN or opponent.startswith(f"{HUMAN}:")


@dataclass
class LiveGame:
    """One game in the store, written after every move."""

    store: Store
    game: Game
    match: Match
    row: GameRow
    specs: tuple[str, ...]
    resume: dict[str, Any]
    stored: bool = True
    earlier: list[DecisionRecord] = field(default_factory=list)   # moves made before a resume

    @classmethod
    def begin(cls, store: Store, game: Game, seed: int, *, agent: str, opponent: str, agent_seat: int,
              lang: str, resume: dict[str, Any], run_id: int | None = None, game_index: int = 0) -> LiveGame:
        match = Match(game, seed)
        row = pending_row(game, seed=seed, agent=agent, opponent=opponent, lang=lang, game_index=game_index,
                          agent_seat=agent_seat, run_id=run_id, started_at=now())
        return cls(store, game, match, row, row.seats, resume, stored=False)

    def _store(self) -> None:
        if not self.stored:
            self.row.record = self._record()
            self.store.start_game(self.row)
            self.stored = True

    @classmethod
    def reopen(cls, store: Store, row: GameRow) -> LiveGame:
        """Rebuild an unfinished game from its seed and moves (and its game's parameters)."""
        resume = row.record.get(RESUME_KEY) or {}
        game = rebuild_game(row, resume)
        check_files(game, row)
        match = replay(game, GameRecord.from_json(row.record))
        earlier = [DecisionRecord(d.idx, d.turn, d.seat, d.move, d.seconds, d.info) for d in store.decisions(row.id)]
        return cls(store, game, match, row, row.seats, resume, earlier=earlier)

    def kept(self) -> tuple[str, int] | None:
        """This game's id and moves once it is in the store; None while no move was made."""
        return (self.row.id, len(self.match.moves)) if self.stored else None

    def _record(self) -> dict[str, Any]:
        return {**self.match.record().to_json(), RESUME_KEY: self.resume}

    def on_decision(self, rec: DecisionRecord) -> None:
        """The hook for ``run_match``: called once the move is on the board."""
        self._store()
        rows = decision_rows([rec], self.specs, self.game, lambda info: scrub_info(info, False))
        self.store.save_move(self.row.id, rows, self._record(), self._turns(), len(self.match.moves))

    def save(self) -> None:
        """The hook for a referee's move (``run_match``'s ``on_settled``): the record with the verdict,
        stored at once, so resuming never asks the referee again.  No decision row: nobody chose it."""
        self._store()
        self.store.save_move(self.row.id, [], self._record(), self._turns(), len(self.match.moves))

    def _turns(self) -> int:
        return max((e.data.get("turn", 0) for e in self.match.events if e.kind == "turn"), default=0)

    def finish(self, result: MatchResult) -> None:
        self._store()
        fields = outcome_fields(result, self.game.name, self.row.agent_seat)
        fields["record"] = {**fields["record"], RESUME_KEY: self.resume}
        self.store.finish_game(self.row.id, fields)


def check_files(game: Game, row: GameRow, lang: str = locales.DEFAULT, *, unrecorded_ok: bool = False) -> None:
    """Refuses, in one line, a game whose files (``GameSpec.files``: a pack) changed since ``row`` was
    played: each one's content against the digest its stored setup holds.  ``unrecorded_ok``: a row
    that holds none passes (a replay shows what it can)."""
    for p, file in game.spec.files(game):
        then = row.game_params.get(p.digest) if p.digest else None
        if file.hash != then and (then or not unrecorded_ok):
            raise UserError(locales.load(lang).t("humans.pack_changed", pack=file.id, source=file.source, game=row.id,
                                                 now=file.short_hash, then=(then or "")[:12]))


def resume_source(resume: dict[str, Any], row: GameRow) -> tuple[str, dict[str, Any]]:
    """The game id and the parameters (as the command line gave them) a resume rebuilds.
    Games saved before the arena kept only their pack: ``{"pack": ..., "vs": ...}``."""
    if "game" in resume:
        return str(resume["game"]), dict(resume.get("params") or {})
    return row.game, {"pack": resume.get("pack") or row.pack_id or row.game_params.get("pack")}


def rebuild_game(row: GameRow, resume: dict[str, Any]) -> Any:
    game_id, params = resume_source(resume, row)
    spec = game_spec(game_id)
    try:
        resolved = spec.info.resolve(params)
    except registry.ParamError as exc:
        raise UserError(f"--resume: {param_error_text(exc, locales.load())}") from None
    return build_game(spec, resolved)


def unfinished(store: Store, agent: str) -> list[GameRow]:
    """A player's unfinished games, oldest first, free and campaign ones alike."""
    return store.games("agent = ? AND status = ?", (agent, IN_PROGRESS))


def abandon_unfinished(store: Store, agent: str, keep: str | None = None, run_id: int | None = None) -> int:
    """Mark a player's unfinished games abandoned, those of ``run_id`` (None: games of no
    run); returns how many.  A campaign's dealer only: free games stay unfinished until resumed."""
    ids = [g.id for g in unfinished(store, agent) if g.id != keep and g.run_id == run_id]
    store.mark_abandoned(ids)
    return len(ids)
