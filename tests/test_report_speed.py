"""What keeps ``tcgtui report`` fast gives the same numbers as the slow way (speed itself is ``tcgtui perf``):
the decision details kept in columns (schema v3) equal what json_extract reads from the JSON, old stores
get them on upgrade, and the exact intervals equal scipy.stats' to the bit."""

from __future__ import annotations

import json
import math
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tcgtui.report.data import StoredGame
from tcgtui.report.stats import clopper_pearson, t_interval
from tcgtui.store import FINISHED, DecisionRow, GameRow, Store
from tcgtui.store.schema import DECISION_FACTS, MIGRATIONS

INFOS = [{"prompt_tokens": 500, "completion_tokens": 80.5, "parse_path": "tags"},
         {"tokens_estimated": True, "invalid": False, "fallback": "random", "parse_path": "last_name"},
         {"invalid": 1, "parse_path": 3, "prompt_tokens": "12"},
         {}, {"attempts": [{"reply": "x"}], "fallback": None}]

EXTRACTED = ", ".join(f"json_extract(info_json, '$.{name}')" for name in DECISION_FACTS)


def facts_match_json(conn: sqlite3.Connection) -> int:
    rows = conn.execute(f"SELECT {', '.join(DECISION_FACTS)}, {EXTRACTED} FROM decisions").fetchall()
    n = len(DECISION_FACTS)
    for row in rows:
        kept, extracted = row[:n], row[n:]
        assert kept == extracted and [type(v) for v in kept] == [type(v) for v in extracted]
    return len(rows)


def test_decision_details_are_kept_as_json_extract_reads_them(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite3") as store:
        game = GameRow(agent="a", opponent="b", lang="en", game_index=0, seed=1, agent_seat=0, game="tcg",
                       status=FINISHED, record={"moves": []}, started_at="t")
        store.save_game(game, [DecisionRow(i, i, i % 2, "a", "m", None, 0.5, info) for i, info in enumerate(INFOS)])
        store.save_move(game.id, [DecisionRow(9, 9, 0, "a", "m", None, 0.5, {"parse_path": "none"})], {}, 9, 10)
        assert facts_match_json(store.conn) == len(INFOS) + 1
        assert store.conn.execute("SELECT parse_path FROM decisions WHERE idx = 9").fetchone() == ("none",)


def test_a_v2_store_gets_the_details_on_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        conn.executescript(MIGRATIONS[0] + MIGRATIONS[1])
        conn.executemany("INSERT INTO schema_version VALUES (?, 't')", [(1,), (2,)])
        conn.execute("INSERT INTO games (id, agent, opponent, lang, game_index, seed, agent_seat, game, status,"
                     " record_json, started_at) VALUES ('g', 'a', 'b', 'en', 0, 1, 0, 'tcg', 'finished', '{}', 't')")
        conn.executemany("INSERT INTO decisions (game_id, idx, turn, seat, agent, move, seconds, info_json)"
                         " VALUES ('g', ?, 1, 0, 'a', 'm', 0.5, ?)", [(i, json.dumps(x)) for i, x in enumerate(INFOS)])
    with Store(path) as store:
        assert store.version == len(MIGRATIONS)
        assert facts_match_json(store.conn) == len(INFOS)
        assert store.conn.execute("SELECT count(*) FROM decisions WHERE parse_path IS NOT NULL").fetchone() == (3,)


def test_exact_intervals_equal_scipy_stats_to_the_bit() -> None:
    from scipy.stats import binomtest
    from scipy.stats import t as student_t

    rng = random.Random(0)
    cases = [(k, n) for n in range(1, 41) for k in range(n + 1)]
    cases += [(rng.randint(0, n), n) for n in (rng.randint(41, 60_000) for _ in range(200))]
    for k, n in cases:
        ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
        assert clopper_pearson(k, n) == (float(ci.low), float(ci.high)), (k, n)
    assert clopper_pearson(0, 0) is None
    values = [rng.random() for _ in range(30)]
    for n in (2, 3, 30):
        sd = float(np.std(np.asarray(values[:n]), ddof=1))
        half = float(student_t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        m = math.fsum(values[:n]) / n
        assert t_interval(values[:n]) == (m - half, m + half)


# --- grouping: asked once per combination of the attributes it reads, the same masks as a loop per game ---

def _loop_masks(games: list, keys) -> dict:  # noqa: ANN001
    """The masks the slow way: each game asked in turn."""
    found: dict = {}
    for i, g in enumerate(games):
        for key in keys(g):
            found.setdefault(key, np.zeros(len(games), bool))[i] = True
    return found


GROUPINGS = [
    (lambda g: [(name, g.lang) for name in g.groups()] if g.status == FINISHED else [], ("agent", "lang", "status")),
    (lambda g: g.groups() if g.result == "loss" else [], ("agent", "result")),
    (lambda g: g.groups(), ("agent",)),
    (lambda g: [(g.opponent, g.run)], ("opponent", "run")),
]


@pytest.fixture(scope="module")
def fixture_games(tmp_path_factory: pytest.TempPathFactory) -> list:
    from tcgtui.report.data import load_games
    from tests.report_fixture import populate
    from tests.store_helpers import add_game
    with Store(tmp_path_factory.mktemp("grouping") / "g.sqlite3") as store:
        populate(store, add_game)
        return load_games(store, None)


@pytest.mark.parametrize("keys, by", GROUPINGS)
def test_grouping_by_attributes_gives_the_masks_of_a_loop_over_games(fixture_games: list, keys, by) -> None:  # noqa: ANN001
    from tcgtui.engine.decision_facts import masks
    subset = fixture_games[::3]                       # not the list read: nothing kept for it
    made = [StoredGame(f"g{i}", None, agent, "mc:1", lang, i, 0, FINISHED, i % 2, 3)    # made by hand: no facts
            for i, (agent, lang) in enumerate([("A", "en"), ("human:ann", "ar"), ("A", "ar"), ("human:ann", "ar")])]
    for games in (fixture_games, subset, made):
        got, want = masks(games, keys, by), _loop_masks(games, keys)
        assert set(got) == set(want) and want
        for key in want:
            assert np.array_equal(got[key], want[key]), key


def test_grouping_asks_once_per_combination_and_reads_attributes_once_per_list(fixture_games: list) -> None:
    from tcgtui.engine.decision_facts import codes, masks
    asked = []
    masks(fixture_games, lambda g: asked.append(g) or [g.agent], ("agent", "lang"))
    assert len(asked) == len({(g.agent, g.lang) for g in fixture_games}) < len(fixture_games) / 4
    assert codes(fixture_games, "agent") is codes(fixture_games, "agent")       # the list the store read
    copy = list(fixture_games)
    assert codes(copy, "agent") is not codes(copy, "agent")
    assert np.array_equal(codes(copy, "agent")[0], codes(fixture_games, "agent")[0])
