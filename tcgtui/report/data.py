"""Read games and the measured player's decisions out of the store for the report.

Only what the analyses need is read; decision details come from the info JSON
through SQLite's json_extract, so a store of tens of thousands of games is
read in one pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.store import FINISHED, Store

HUMAN_PREFIX = "human:"
POOLED_HUMAN = "human"


@dataclass
class Move:
    """One decision of the measured player."""

    card: str
    card_type: str | None
    seconds: float
    tokens: float | None = None        # prompt + completion, when the agent reported them
    parse_path: str | None = None
    invalid: bool = False
    fallback: str | None = None


@dataclass
class Game:
    id: str
    run: str | None
    agent: str
    opponent: str
    lang: str
    index: int
    seat: int
    status: str
    winner: int | None
    turns: int
    pack: str                          # pack id and short content hash, e.g. community@3f2a9c01d4e7
    moves: list[Move] = field(default_factory=list)

    @property
    def result(self) -> str | None:
        """'win', 'loss' or 'draw' for the measured player; None unless finished."""
        if self.status != FINISHED:
            return None
        if self.winner is None:
            return "draw"
        return "win" if self.winner == self.seat else "loss"

    def groups(self) -> list[str]:
        """The agent rows this game counts in: its own spec, and the pooled human row for people."""
        return [self.agent, POOLED_HUMAN] if self.agent.startswith(HUMAN_PREFIX) else [self.agent]


def run_ids(store: Store, names: list[str] | None) -> list[int] | None:
    """The ids of the named runs (None: every game); an unknown name is a one-line error."""
    if not names:
        return None
    ids = []
    for name in names:
        run = store.run(name)
        if run is None:
            known = ", ".join(r.name for r in store.runs()) or "-"
            raise UserError(locales.load().t("cmd_report.errors.unknown_run", run=name, known=known))
        ids.append(run.id)
    return ids


def load_games(store: Store, runs: list[int] | None, humans: bool = True) -> list[Game]:
    where, params = "" if humans else f"WHERE g.agent NOT LIKE '{HUMAN_PREFIX}%'", []
    if runs is not None:
        # People's games belong to no sweep: they stand beside every selected run.
        people = f" OR g.agent LIKE '{HUMAN_PREFIX}%'" if humans else ""
        where = f"WHERE (g.run_id IN ({','.join('?' * len(runs))}){people})"
        params = list(runs)
    games: dict[str, Game] = {}
    for row in store.conn.execute(
            "SELECT g.id, r.name, g.agent, g.opponent, g.lang, g.game_index, g.agent_seat, g.status, g.winner,"
            f" g.turns, g.pack_id || '@' || substr(g.pack_hash, 1, 12) FROM games g LEFT JOIN runs r ON r.id = g.run_id {where}"
            " ORDER BY g.run_id, g.agent, g.opponent, g.lang, g.game_index", params):
        games[row[0]] = Game(*row)
    cond = where.replace("WHERE", "AND", 1)
    for gid, card, ctype, seconds, ptok, ctok, path, invalid, fallback in store.conn.execute(
            "SELECT d.game_id, d.move, d.card_type, d.seconds,"
            " json_extract(d.info_json, '$.prompt_tokens'), json_extract(d.info_json, '$.completion_tokens'),"
            " json_extract(d.info_json, '$.parse_path'), json_extract(d.info_json, '$.invalid'),"
            " json_extract(d.info_json, '$.fallback')"
            " FROM decisions d JOIN games g ON g.id = d.game_id"
            f" WHERE d.seat = g.agent_seat AND g.status = ? {cond} ORDER BY d.game_id, d.idx",
            [FINISHED, *params]):
        tokens = None if ptok is None and ctok is None else float(ptok or 0) + float(ctok or 0)
        games[gid].moves.append(Move(card, ctype, float(seconds), tokens, path, bool(invalid), fallback))
    return list(games.values())
