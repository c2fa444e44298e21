"""What the home screen reads from the store: the person's record against each opponent and the
games a replay or a "continue" can open.  No Textual: the screen calls these from a thread worker,
which opens its own read-only connection (a SQLite connection belongs to its thread).

A record counts each finished game once, by its result for the person's seat: wins over
finished games with the exact (Clopper–Pearson) 95% interval; draws count as non-wins.
Score games (Eleusis, the deck quiz) show their mean score; a right/wrong quiz its share
right, with the same exact interval.  Unfinished and abandoned games are counted apart.
Games of two people at one keyboard are listed but in no record: they had no opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tcgtui.engine import registry
from tcgtui.engine.stats import clopper_pearson
from tcgtui.live import between_people, human_spec
from tcgtui.store import ABANDONED, FINISHED, IN_PROGRESS, GameRow, Store

LISTED = 200           # games the home screen lists, newest first


@dataclass(frozen=True)
class Standing:
    """The person's results in one game against one opponent."""

    game: str
    opponent: str
    finished: int
    wins: int                      # right answers in a right/wrong game; unused for other score games
    draws: int
    unfinished: int
    low: float | None              # exact 95% interval of wins / finished (None: a score game)
    high: float | None
    mean_score: float | None = None


@dataclass(frozen=True)
class Listed:
    """A stored game as the home screen lists it."""

    id: str
    game: str
    seats: tuple[str, ...]
    status: str
    winner: int | None
    score: float | None
    moves: int
    started_at: str
    run: str
    mine: bool
    agent: str                   # the seat the record measures (a person's: human:HANDLE)


def standings(rows: list[GameRow]) -> list[Standing]:
    cells: dict[tuple[str, str], list[GameRow]] = {}
    for row in rows:
        cells.setdefault((row.game, row.opponent or ""), []).append(row)
    out = []
    for (game, opponent), games in sorted(cells.items()):
        done = [g for g in games if g.status == FINISHED]
        open_ = sum(1 for g in games if g.status in (IN_PROGRESS, ABANDONED))
        spec = registry.get(game) if game in {s.id for s in registry.games()} else None
        if spec is not None and spec.info.outcome == registry.SCORE and not spec.info.right_wrong:
            scores = [g.score for g in done if g.score is not None]
            out.append(Standing(game, opponent, len(done), 0, 0, open_, None, None,
                                sum(scores) / len(scores) if scores else None))
            continue
        if spec is not None and spec.info.right_wrong:
            wins = sum(1 for g in done if g.score == 1)
            draws = 0
        else:
            wins = sum(1 for g in done if g.winner is not None and g.winner == g.agent_seat)
            draws = sum(1 for g in done if g.winner is None)
        ci = clopper_pearson(wins, len(done))
        out.append(Standing(game, opponent, len(done), wins, draws, open_, *(ci or (None, None))))
    return out


def read(path: Path, handle: str, everyone: bool) -> tuple[list[Standing], list[Listed]]:
    """The person's record, and the games to list: theirs, or (``everyone``) every stored game."""
    if not path.is_file():
        return [], []
    with Store(path, create=False, read_only=True) as store:
        runs = {r.id: r.name for r in store.runs()}
        mine = store.games("agent = ?", (human_spec(handle),)) if handle else []
        shown = store.games() if everyone else mine
    listed = [Listed(g.id, g.game, g.seats, g.status, g.winner, g.score, g.moves, g.started_at,
                     runs.get(g.run_id, "") if g.run_id is not None else "", g.agent == human_spec(handle), g.agent)
              for g in shown]
    listed.sort(key=lambda g: g.started_at, reverse=True)
    first = [g for g in listed if g.status == IN_PROGRESS and g.mine]      # "continue" comes first
    against = [g for g in mine if not between_people(g.opponent)]       # a game of two people: no opponent
    return standings(against), (first + [g for g in listed if g not in first])[:LISTED]
