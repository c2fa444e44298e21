"""A small store holding a study as docs/study.md lays it out, for the study status and report tests.

The study run ``study:<id>`` (kind ``study``), its participants (the ``participants`` table of
schema version 6, created here as the plan gives it when the store predates it), counted games with
agent ``human:<pseudonym>``, and optionally the bench run whose deals a paired study replays.
"""

from __future__ import annotations

from typing import Any

from tcgtui.store import FINISHED, GameRow, Store

PARTICIPANTS = """
CREATE TABLE IF NOT EXISTS participants (
    study       TEXT NOT NULL,
    id          TEXT NOT NULL,
    token       TEXT NOT NULL UNIQUE,
    lang        TEXT NOT NULL,
    number      INTEGER NOT NULL,
    joined_at   TEXT NOT NULL,
    finished_at TEXT,
    left_at     TEXT,
    PRIMARY KEY (study, id)
)"""

LADDER = ["random", "mc:10"]


def spec(study: str, *, games_per_rung: int = 3, paired: str | None = None) -> dict[str, Any]:
    deals = {"kind": "paired", "run": paired} if paired else {"kind": "fresh"}
    return {"id": study, "title": "t", "languages": ["en", "ar"], "games_per_rung": games_per_rung,
            "practice": 1, "deals": deals, "games": [{"game": "tictactoe", "params": {}, "ladder": LADDER}]}


def make_study(store: Store, study: str, **kwargs: Any) -> int:
    store.conn.execute(PARTICIPANTS)
    config = {"study": study, "digest": "ab" * 32, "spec": spec(study, **kwargs)}
    return store.create_run(f"study:{study}", config, kind="study").id


def join(store: Store, study: str, pid: str, number: int, lang: str = "en", *, finished: bool = False) -> None:
    store.conn.execute("INSERT INTO participants VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                       (study, pid, f"token-{pid}", lang, number, f"2026-01-01T00:00:{number:02d}+00:00",
                        "2026-01-01T01:00:00+00:00" if finished else None))


def play(store: Store, run_id: int, agent: str, opponent: str, index: int, seed: int, result: str | None, *,
         lang: str = "en", status: str = FINISHED, seat: int = 0) -> None:
    """A tic-tac-toe game of ``agent`` (``result``: win, loss or draw when finished)."""
    winner = {"win": seat, "loss": 1 - seat, "draw": None, None: None}[result]
    record = {"game": "tictactoe", "seed": seed, "setup": {}, "moves": []}
    store.save_game(GameRow(agent=agent, opponent=opponent, lang=lang, game_index=index, seed=seed, agent_seat=seat,
                            game="tictactoe", status=status, record=record, started_at="2026-01-01T00:00:00+00:00",
                            run_id=run_id, winner=winner if status == FINISHED else None), [])
