"""Who has joined a study, and where each person stands in their schedule.

A participant exists only once they have consented: leaving the consent screen records nothing.
Each person is a pseudonym (``p-`` and 8 hex digits, drawn at random: no name, no e-mail) and a
token, the link back in.  Their games are the study run's games under ``human:<pseudonym>``, one per
slot of their schedule (the store's unique key on the game's index means a slot is never stored
twice, whoever writes it); practice games go to a run of their own, which no report counts.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
from dataclasses import dataclass

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.live import human_spec
from tcgtui.store import ERRORED, FINISHED, GameRow, Run, Store, StoreError
from tcgtui.store.db import now
from tcgtui.study.plan import Slot, schedule
from tcgtui.study.names import KIND, PRACTICE_KIND
from tcgtui.study.spec import PAIRED, Rung, Study

TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{16,64}")
DONE = (FINISHED, ERRORED)       # a slot whose game ended (an errored game is not dealt again)


@dataclass(frozen=True)
class Participant:
    study: str
    id: str
    token: str
    lang: str
    number: int
    joined_at: str
    finished_at: str | None = None

    @property
    def agent(self) -> str:
        return human_spec(self.id)


def new_token() -> str:
    """A fresh participant's token; never starting with '-', which a command line would read as a flag."""
    while True:
        token = secrets.token_urlsafe(18)
        if token[0] != "-":
            return token


def check_token(token: str, flag: str = "--token") -> str:
    if not isinstance(token, str) or not TOKEN_RE.fullmatch(token):
        raise UserError(locales.load().t("study.bad_token", flag=flag))
    return token


def _run(store: Store, name: str, study: Study, kind: str) -> Run:
    """The run ``name``, made on first use (another participant's process may make it first)."""
    run = store.run(name)
    if run is None:
        try:
            return store.create_run(name, study.config(), kind=kind)
        except sqlite3.IntegrityError:
            run = store.run(name)
    assert run is not None
    return run


def study_run(store: Store, study: Study) -> Run:
    """The study's run; a file of the same id with other contents is refused."""
    run = _run(store, study.run_name, study, KIND)
    if run.kind != KIND or run.config.get("digest") != study.digest:
        raise UserError(locales.load().t("study.changed", study=study.id, path=study.path, db=str(store.path)))
    return run


def practice_run(store: Store, study: Study) -> Run:
    return _run(store, study.practice_run_name, study, PRACTICE_KIND)


def paired_deals(store: Store, study: Study) -> dict[Rung, list[tuple[int, int]]] | None:
    """For a paired study, each rung's deals in the named run: (seed, seat of its measured player),
    distinct seeds in the order dealt; refused when a rung has fewer deals than a person plays in all
    (a bench deals the same seeds against every opponent, and a person never meets a deal twice)."""
    if study.deals != PAIRED:
        return None
    run = store.run(study.deals_run or "")
    text = locales.load()
    if run is None:
        raise UserError(text.t("study.no_deals_run", study=study.id, run=study.deals_run, db=str(store.path)))
    out: dict[Rung, list[tuple[int, int]]] = {}
    for rung in study.rungs:
        rows = store.games("run_id = ? AND game = ? AND opponent = ? AND status = ?",
                           (run.id, rung.game, rung.opponent, FINISHED))
        seen: dict[int, int] = {}
        for row in sorted(rows, key=lambda r: r.game_index):     # the bench's deal order, alike for every
            seen.setdefault(row.seed, row.agent_seat)             # opponent (games finish in any order)
        need = study.games_per_rung * len(study.rungs)     # a run deals alike against every opponent, and
        if len(seen) < need:                                # no person meets a deal twice
            raise UserError(text.t("study.too_few_deals", study=study.id, run=run.name, rung=rung.label,
                                   have=len(seen), need=need))
        out[rung] = list(seen.items())
    return out


_COLUMNS = "study, id, token, lang, number, joined_at, finished_at"


def _participant(row: tuple) -> Participant:
    return Participant(*row)


def find(store: Store, study: Study, token: str) -> Participant | None:
    row = store.conn.execute(f"SELECT {_COLUMNS} FROM participants WHERE study = ? AND token = ?",
                             (study.id, token)).fetchone()
    return None if row is None else _participant(row)


def token_taken(store: Store, token: str) -> bool:
    """A token of another study (a link is never good for two studies)."""
    return store.conn.execute("SELECT 1 FROM participants WHERE token = ?", (token,)).fetchone() is not None


def participants(store: Store, study_id: str) -> list[Participant]:
    rows = store.conn.execute(f"SELECT {_COLUMNS} FROM participants WHERE study = ? ORDER BY number",
                              (study_id,)).fetchall()
    return [_participant(r) for r in rows]


def enrol(store: Store, study: Study, token: str, lang: str) -> Participant:
    """Record a person who has just consented: a fresh pseudonym and the next number.  Two people
    consenting at the same moment get different numbers (one transaction each)."""
    study_run(store, study)
    for _ in range(8):
        pid = "p-" + secrets.token_hex(4)
        try:
            with store.transaction():
                number = store.conn.execute("SELECT count(*) FROM participants WHERE study = ?",
                                            (study.id,)).fetchone()[0]
                store.conn.execute("INSERT INTO participants (study, id, token, lang, number, joined_at)"
                                   " VALUES (?, ?, ?, ?, ?, ?)", (study.id, pid, token, lang, number, now()))
        except sqlite3.IntegrityError:
            found = find(store, study, token)
            if found is not None:           # the same link consented twice (two tabs): one person
                return found
            continue
        except sqlite3.OperationalError as exc:
            raise StoreError(locales.load().t("store.write_failed", path=str(store.path), reason=str(exc))) from None
        found = find(store, study, token)
        assert found is not None
        return found
    raise StoreError(locales.load().t("store.write_failed", path=str(store.path), reason="no free pseudonym"))


def set_lang(store: Store, person: Participant, lang: str) -> Participant:
    store.conn.execute("UPDATE participants SET lang = ? WHERE study = ? AND id = ?", (lang, person.study, person.id))
    return Participant(person.study, person.id, person.token, lang, person.number, person.joined_at,
                       person.finished_at)


def mark_finished(store: Store, person: Participant) -> None:
    store.conn.execute("UPDATE participants SET finished_at = ? WHERE study = ? AND id = ? AND finished_at IS NULL",
                       (now(), person.study, person.id))


@dataclass(frozen=True)
class Standing:
    """A participant's schedule with each slot's stored game (None: not started)."""

    slots: tuple[Slot, ...]
    games: tuple[GameRow | None, ...]

    def next(self) -> tuple[Slot, GameRow | None] | None:
        """The slot to play next (with its unfinished game, to carry on), None when all are done."""
        for slot, game in zip(self.slots, self.games):
            if game is None or game.status not in DONE:
                return slot, game
        return None

    @property
    def counted_done(self) -> int:
        return sum(1 for s, g in zip(self.slots, self.games) if not s.practice and g is not None and g.status in DONE)

    @property
    def counted(self) -> int:
        return sum(1 for s in self.slots if not s.practice)

    @property
    def practice_done(self) -> int:
        return sum(1 for s, g in zip(self.slots, self.games) if s.practice and g is not None and g.status in DONE)


def standing(store: Store, study: Study, person: Participant) -> Standing:
    slots = schedule(study, person.id, person.number, paired_deals(store, study))
    runs = [r.id for r in (store.run(study.run_name), store.run(study.practice_run_name)) if r is not None]
    rows = store.games(f"agent = ? AND run_id IN ({','.join('?' * len(runs))})", (person.agent, *runs)) if runs else []
    by_index: dict[int, GameRow] = {}
    for row in rows:
        by_index[row.game_index] = row
    return Standing(tuple(slots), tuple(by_index.get(s.index) for s in slots))
