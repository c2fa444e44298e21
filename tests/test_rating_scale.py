"""One rating scale (issue 38): a reference ladder rated once, any player placed on it from its games
against some of its rungs, on a generated ladder whose true ratings are known."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from tcgtui.errors import UserError
from tcgtui.report import scale as sc

TRUE = {"random": 0.0, "a": 150.0, "b": 300.0, "c": 450.0, "d": 600.0}


def _games(rng: np.random.Generator, mine: float, theirs: float, n: int) -> list[float]:
    p = sc.expected_score(mine, theirs)
    return [float(x) for x in rng.random(n) < p]


@pytest.fixture(scope="module")
def ladder() -> sc.Scale:
    rng = np.random.default_rng(11)
    results = []
    for x, y in itertools.combinations(TRUE, 2):
        results += [(x, y, s) for s in _games(rng, TRUE[x], TRUE[y], 300)]
    return sc.build(results, "toy", {"board": 3}, command="generated", resamples=300)


def test_the_scale_recovers_the_rungs_with_random_at_zero(ladder: sc.Scale) -> None:
    assert ladder.ratings["random"] == 0 and ladder.ci["random"] == (0, 0)
    for rung, true in TRUE.items():
        low, high = ladder.ci[rung]
        assert low <= true <= high, (rung, low, ladder.ratings[rung], high)
    assert list(sorted(ladder.ratings, key=ladder.ratings.get)) == list(TRUE)


def test_a_placement_recovers_a_known_rating_within_its_interval_whichever_rungs_it_met(ladder: sc.Scale) -> None:
    covered = {}
    for rungs in (("a", "b"), ("b", "c"), ("c", "d")):
        hits = []
        for seed in range(40):
            rng = np.random.default_rng(100 + seed)
            results = [(r, s) for r in rungs for s in _games(rng, 380.0, TRUE[r], 150)]
            placed = sc.place(ladder, "x", results, resamples=300, seed=seed)
            hits.append(placed.ci_low <= 380.0 <= placed.ci_high)
            assert placed.games == 300 and placed.rungs == rungs and not placed.beyond
        covered[rungs] = np.mean(hits)
    # a 95% interval: at least 34 of 40 (the chance of fewer is under 2% at 95% coverage)
    assert all(share >= 34 / 40 for share in covered.values()), covered


def test_the_rungs_own_uncertainty_widens_the_interval(ladder: sc.Scale) -> None:
    rng = np.random.default_rng(5)
    results = [("c", s) for s in _games(rng, 380.0, TRUE["c"], 2000)]
    placed = sc.place(ladder, "x", results, resamples=300)
    exact = sc.Scale(**{**ladder.__dict__, "samples": {p: [v] * 300 for p, v in ladder.ratings.items()}})
    alone = sc.place(exact, "x", results, resamples=300)
    assert placed.rating == pytest.approx(alone.rating)
    assert (placed.ci_high - placed.ci_low) > 1.2 * (alone.ci_high - alone.ci_low)


def test_a_player_that_won_every_game_is_marked_beyond(ladder: sc.Scale) -> None:
    placed = sc.place(ladder, "x", [("d", 1.0)] * 30)
    assert placed.beyond and placed.rating > ladder.ratings["d"]
    assert not sc.place(ladder, "x", [("d", 1.0)] * 29 + [("d", 0.5)]).beyond


def test_a_scale_file_round_trips_and_a_bad_one_is_one_line(ladder: sc.Scale, tmp_path) -> None:
    path = tmp_path / "scale.json"
    path.write_text(ladder.to_json(), encoding="utf-8")
    assert sc.load(path) == ladder
    raw = json.loads(ladder.to_json())
    raw["samples"]["a"] = raw["samples"]["a"][:-1]
    cases = {"ragged.json": json.dumps(raw), "junk.json": "not json", "list.json": "[1, 2]",
             "old.json": json.dumps({**json.loads(ladder.to_json()), "format": 0})}
    for name, body in cases.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
        with pytest.raises(UserError) as exc:
            sc.load(tmp_path / name)
        assert str(exc.value).count("\n") == 0 and name in str(exc.value) and "--scale" in str(exc.value)
    with pytest.raises(UserError, match="--scale: .*missing.json"):
        sc.load(tmp_path / "missing.json")


# --- tcgtui ladder and report --table scale, end to end on Tic-Tac-Toe ---------------------------

def _count(db) -> int:
    import sqlite3
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM games").fetchone()[0]


def test_ladder_builds_a_scale_resumes_and_report_places_a_player_on_it(tmp_path, capsys) -> None:
    from tcgtui.cli import main
    db, out = tmp_path / "l.sqlite3", tmp_path / "scale.json"
    argv = ["ladder", "--game", "tictactoe", "--rungs", "random,mc:1,2,perfect", "--games", "12", "--db", str(db),
            "--out", str(out)]
    assert main(argv) == 0
    built = sc.load(out)
    assert built.game == "tictactoe" and built.zero == "random" and built.ratings["random"] == 0
    assert built.ratings["perfect"] > built.ratings["mc:1"] > built.ratings["random"] - 150
    assert built.games == {"random": 36, "mc:1": 36, "mc:2": 36, "perfect": 36} and "--rungs random,mc:1,2,perfect" in built.command
    games = _count(db)
    assert games == 72 and main(argv) == 0 and _count(db) == games          # resumed: nothing played again
    assert sc.load(out).ratings == built.ratings
    capsys.readouterr()
    other = tmp_path / "m.sqlite3"
    assert main(["bench", "--game", "tictactoe", "--agent", "mc:2", "--vs", "random,perfect", "--games", "10",
                 "--db", str(other)]) == 0
    capsys.readouterr()
    assert main(["report", "--game", "tictactoe", "--table", "scale", "--scale", str(out), "--db", str(other),
                 "--format", "json"]) == 0
    [row] = json.loads(capsys.readouterr().out)["scale"]
    assert row["agent"] == "mc:2" and row["games"] == 20 and row["rungs"] == "random, perfect"
    assert row["ci_low"] <= row["rating"] <= row["ci_high"]
    assert main(["report", "--game", "tictactoe", "--scale", str(out), "--db", str(other), "--plot",
                 str(tmp_path / "figures")]) == 0
    assert (tmp_path / "figures" / "scale.png").stat().st_size > 1000
    capsys.readouterr()
    # the same games without a matching scale: one line saying so, no rows
    assert main(["report", "--game", "tictactoe", "--table", "scale", "--db", str(other)]) == 0
    assert "rating scale" in capsys.readouterr().err


def test_ladder_without_random_is_refused_before_playing(tmp_path, capsys) -> None:
    from tcgtui.cli import main
    db = tmp_path / "l.sqlite3"
    assert main(["ladder", "--game", "tictactoe", "--rungs", "mc:1,perfect", "--games", "2", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rungs: mc:1,perfect has no random rung" in err and not db.exists()


def test_the_shipped_card_game_scale_is_of_the_pack_as_it_is_now() -> None:
    """A pack changed without its ladder rated again would place players on another game's scale."""
    from tcgtui.games.tcg.packs import load_pack
    [shipped] = sc.shipped("tcg")
    pack = load_pack("community")
    assert shipped.setup == {"pack": pack.id, "pack_version": pack.version, "pack_hash": pack.hash}
    assert shipped.zero == "random" and shipped.ratings["random"] == 0
    assert all(len(v) == len(shipped.samples["random"]) for v in shipped.samples.values())


def test_the_shipped_card_game_scale_is_what_tcgtui_ladder_builds_by_default() -> None:
    """Its rungs are the default ladder's, the card game's own players on top, so rerunning
    ``tcgtui ladder --game tcg`` resumes and refreshes the very scale tcgtui ships."""
    from tcgtui.commands.ladder import RUNGS
    from tcgtui.engine import registry
    [shipped] = sc.shipped("tcg")
    own = registry.get("tcg").bench.rungs
    assert own and all(r.startswith("nmc:") for r in own)
    assert set(shipped.ratings) == {"random", "mc:1", "mc:2", "mc:5", "mc:10", "mc:100", "mc:1000", "mcts:1000", *own}
    assert f"--rungs {','.join((RUNGS, *own))} " in shipped.command


@pytest.mark.parametrize("argv, said", [
    (["--game", "eleusis"], "--game: eleusis has no two-seat results to rate on one scale; games with a ladder: tcg"),
    (["--game", "tictactoe", "--rungs", "random,mc:1,bogus"], "--rungs: 'bogus' is not a player"),
    (["--game", "tictactoe", "--games", "0"], "--games: 0 is not a game count"),
])
def test_bad_ladder_input_is_one_line_naming_the_ladders_own_flag(tmp_path, capsys, argv, said) -> None:
    from tcgtui.cli import main
    assert main(["ladder", *argv, "--db", str(tmp_path / "l.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "--agent" not in err, err
