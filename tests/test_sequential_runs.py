"""Sequential runs (``bench --until WIDTH``): a cell stops once its anytime-valid interval is that
narrow.  The interval is a confidence sequence, so it keeps its 95% however early a run stops, where
a fixed-size interval looked at after every game does not; the run's games carry the rule, the
report gives them that interval and never pools them with a run of fixed size."""

from __future__ import annotations

import json
import math
import sqlite3

import numpy as np
import pytest
from scipy.special import gammaln

from tcgtui.cli import main
from tcgtui.engine.stats import clopper_pearson, confidence_sequence

BOUND = math.log(20)       # 1 / alpha at 95%


def _ever_excluded(p: float, draws: np.ndarray) -> np.ndarray:
    """For each row of Bernoulli draws: whether the sequence's interval ever leaves out p (the mixture's
    likelihood ratio against p reaching 1/alpha, which is what leaving the interval means)."""
    k = np.cumsum(draws, axis=1)
    n = np.arange(1, draws.shape[1] + 1)
    log_ratio = (gammaln(0.5 + k) + gammaln(0.5 + n - k) - gammaln(1.0 + n) - math.log(math.pi)
                 - k * math.log(p) - (n - k) * math.log1p(-p))
    return (log_ratio >= BOUND).any(axis=1)


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_the_interval_keeps_its_95_percent_under_optional_stopping(p: float) -> None:
    rng = np.random.default_rng(7)
    draws = rng.random((4000, 600)) < p
    missed = _ever_excluded(p, draws).mean()
    assert missed <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 4000)
    # the exact fixed-size interval, looked at every 10 games, leaves out p far more often than 5%
    k = np.cumsum(draws[:400], axis=1)
    peeked = [any(not (lo <= p <= hi) for lo, hi in (clopper_pearson(int(row[n - 1]), n) for n in range(10, 601, 10)))
              for row in k]
    assert np.mean(peeked) > 0.12


@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 40), (7, 40), (300, 600), (600, 600)])
def test_the_interval_is_the_set_its_mixture_defines_and_wider_than_the_exact_one(k: int, n: int) -> None:
    low, high = confidence_sequence(k, n)
    exact = clopper_pearson(k, n)
    assert low <= exact[0] + 1e-9 and high >= exact[1] - 1e-9 and 0 <= low <= k / n <= high <= 1
    mixture = math.lgamma(0.5 + k) + math.lgamma(0.5 + n - k) - math.lgamma(1.0 + n) - math.log(math.pi)
    for end in (low, high):
        if 0 < end < 1:          # at an end the likelihood ratio is exactly 1/alpha
            ratio = mixture - k * math.log(end) - (n - k) * math.log1p(-end)
            assert ratio == pytest.approx(BOUND, abs=1e-6)


def _bench(db, *extra: str) -> int:
    return main(["bench", "--game", "tictactoe", "--agent", "random", "--vs", "perfect", "--games", "200",
                 "--concurrency", "1", "--db", str(db), *extra])


def test_a_cell_stops_as_soon_as_its_interval_is_narrow_enough_and_stays_stopped(tmp_path, capsys) -> None:
    db = tmp_path / "s.sqlite3"
    assert _bench(db, "--until", "0.3", "--run", "seq") == 0
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT winner, agent_seat, json_extract(game_params, '$.until') FROM games"
                            " ORDER BY game_index").fetchall()
    n = len(rows)
    wins = [w is not None and w == seat for w, seat, _ in rows]
    assert n < 200 and {u for *_, u in rows} == {0.3}
    widths = [confidence_sequence(sum(wins[:i]), i) for i in range(1, n + 1)]
    assert widths[-1][1] - widths[-1][0] <= 0.3 < widths[-2][1] - widths[-2][0]     # stopped at the first
    assert _bench(db, "--until", "0.3", "--run", "seq") == 0                       # resumed: nothing more
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == n
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["win_rates"]
    assert row["interval"] == "anytime" and (row["ci_low"], row["ci_high"]) == pytest.approx(widths[-1])


def test_a_sequential_run_is_never_pooled_with_one_of_fixed_size(tmp_path, capsys) -> None:
    db = tmp_path / "s.sqlite3"
    assert _bench(db, "--until", "0.3", "--run", "seq") == 0
    assert _bench(db, "--games", "20", "--run", "fixed") == 0
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--format", "json"]) == 0
    rows = {r["agent"]: r for r in json.loads(capsys.readouterr().out)["win_rates"]}
    assert set(rows) == {"random [until=-]", "random [until=0.3]"}
    assert rows["random [until=-]"].get("interval") is None and rows["random [until=0.3]"]["interval"] == "anytime"
    assert main(["report", "--game", "tictactoe", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "anytime" in out and "confidence sequence" in out


@pytest.mark.parametrize("argv, needle", [
    (["--game", "tictactoe", "--until", "1.5"], "--until: '1.5' is not an interval width"),
    (["--game", "tictactoe", "--until", "wide"], "--until: 'wide' is not an interval width"),
    (["--game", "eleusis", "--agent", "scientist", "--until", "0.1"], "--until: eleusis scores its games beyond"),
])
def test_a_bad_width_or_a_game_without_a_share_is_one_line(tmp_path, capsys, argv: list[str], needle: str) -> None:
    full = ["bench", *argv, "--db", str(tmp_path / "x.sqlite3")]
    if "--agent" not in argv:
        full += ["--agent", "random", "--vs", "random"]
    assert main(full) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
