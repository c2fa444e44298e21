"""A participant's schedule: the order of opponents is counterbalanced over people (a balanced Latin
square), a person never meets a deal twice, fresh deals differ between people, paired deals are the
stored run's, and a schedule rebuilt later is the same one."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from itertools import pairwise

import pytest

from tcgtui.store import Store
from tcgtui.study.plan import schedule, williams_row
from tcgtui.study.roster import enrol, new_token, paired_deals, participants, standing
from tcgtui.study.spec import load_study

from tests.study.helpers import write_study


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_the_order_is_a_balanced_latin_square(k: int) -> None:
    rows = [williams_row(k, r) for r in range(k if k % 2 == 0 else 2 * k)]
    assert all(sorted(row) == list(range(k)) for row in rows)
    for position in range(k):                       # each rung equally often in each place
        assert len(set(Counter(row[position] for row in rows).values())) == 1
    follows = Counter(pair for row in rows for pair in pairwise(row))
    assert len(follows) == k * (k - 1) and len(set(follows.values())) == 1    # and after each other rung


def test_deals_are_never_repeated_for_a_person_and_differ_between_people(tmp_path) -> None:
    study = load_study(write_study(tmp_path, per_rung=20, practice=3, ladder='["random", "mc:1", "mc:2"]'))
    first = schedule(study, "p-00000001", 0)
    assert len(first) == 63 and len({s.seed for s in first}) == 63
    assert [s.practice for s in first] == [True] * 3 + [False] * 60
    assert schedule(study, "p-00000001", 0) == first                 # rebuilt, the same
    other = schedule(study, "p-00000002", 1)
    assert not {s.seed for s in first} & {s.seed for s in other}
    assert [s.rung.opponent for s in first[3::20]] != [s.rung.opponent for s in other[3::20]]
    seats = Counter(s.seat for s in first if not s.practice)
    assert seats[0] == seats[1] == 30                                 # seats alternate within a block


def test_paired_deals_are_the_runs_own_with_their_seats(tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    out = subprocess.run([sys.executable, "-m", "tcgtui", "bench", "--game", "tictactoe", "--agent", "random",
                          "--vs", "random,mc:1", "--games", "12", "--run", "sweep", "--db", str(db)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    with Store(db) as store:        # games finish in any order: one opponent's deals finished last-first
        store.conn.execute("UPDATE games SET started_at = -game_index WHERE opponent = 'mc:1'")
        store.conn.commit()
    path = write_study(tmp_path, per_rung=2, practice=0)
    path.write_text(path.read_text().replace('kind = "fresh"', 'kind = "paired"\nrun = "sweep"'))
    study = load_study(path)
    with Store(db) as store:
        deals = paired_deals(store, study)
        run = store.run("sweep")
        for rung, pairs in deals.items():
            stored = {(g.seed, g.agent_seat) for g in store.games("run_id = ? AND opponent = ?", (run.id, rung.opponent))}
            assert set(pairs) <= stored and len(pairs) == 12
        people = [enrol(store, study, new_token(), "en") for _ in range(3)]
        assert [p.number for p in participants(store, study.id)] == [0, 1, 2]
        met = []
        for person in people:
            slots = standing(store, study, person).slots
            assert len({s.seed for s in slots}) == len(slots) == 4
            for slot in slots:
                assert (slot.seed, slot.seat) in deals[slot.rung]
            met.append({(s.rung, s.seed) for s in slots})
        assert not met[0] & met[1] and not met[1] & met[2]            # people spread over the run's deals
        assert len({seed for _, seed in met[0] | met[1] | met[2]}) == 12
