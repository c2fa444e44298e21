"""``tcgtui report`` from the command line: formats, the plot, and one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.store import Store
from tests.store_helpers import add_game


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "r.sqlite3"
    with Store(path) as store:
        run = store.create_run("hand", {}).id
        for k, wins in ((1, 8), (4, 4), (16, 2)):
            for i in range(20):
                add_game(store, run, "A", f"mc:{k}", "en", i, result="win" if i < wins else "loss",
                         moves=[("c1", "champion", 0.5, None, {})])
        add_game(store, None, "human:ann", "mc:1", "en", 0, result="win")
    return str(path)


def _one_line_error(capsys: pytest.CaptureFixture, argv: list[str], needle: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tcgtui report: error:") and needle in err, err


def test_json_has_every_table_and_the_definitions(db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["report", "--db", db, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"] == ["hand"] and "exp" in out["decay_form"] and out["notes"]
    rates = {(r["agent"], r["opponent"]): r for r in out["win_rates"]}
    assert rates[("A", "mc:4")]["win_rate"] == 0.2 and rates[("human", "mc:1")]["finished"] == 1
    (fit,) = [f for f in out["decay"] if f["agent"] == "A"]
    assert fit["a"] == pytest.approx(0.4, abs=1e-6) and fit["r2"] == pytest.approx(1, abs=1e-9)


def test_csv_is_one_table(db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["report", "--db", db, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    a1 = [r for r in rows if r["agent"] == "A" and r["opponent"] == "mc:1"][0]
    assert (a1["wins"], a1["finished"], float(a1["win_rate"])) == ("8", "20", 0.4)
    assert main(["report", "--db", db, "--format", "csv", "--table", "decay"]) == 0
    decay = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [d["ks"] for d in decay if d["agent"] == "A"] == ["1,4,16"]


def test_markdown_and_table(db: str, capsys: pytest.CaptureFixture) -> None:
    assert main(["report", "--db", db, "--format", "md", "--table", "win_rates"]) == 0
    md = capsys.readouterr().out
    assert "| A | mc:4 | en | 20 | 4 | 0 | 16 | 0 | 0 | 0 | 0 | 20.0% | [5.7%, 43.7%] |" in md
    assert main(["report", "--db", db, "--run", "hand"]) == 0
    table = capsys.readouterr().out
    assert "Decay of win rate with opponent strength K" in table and "human:ann" in table   # people beside every run
    assert main(["report", "--db", db, "--run", "hand", "--no-humans"]) == 0
    assert "human:ann" not in capsys.readouterr().out


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<svg")])
def test_plot_files(db: str, tmp_path: Path, capsys: pytest.CaptureFixture, suffix: str, magic: bytes) -> None:
    target = tmp_path / f"decay{suffix}"
    assert main(["report", "--db", db, "--format", "json", "--plot", str(target)]) == 0
    assert magic in target.read_bytes()[:400]
    assert "(3 lines)" in capsys.readouterr().err        # A, human:ann and the pooled human


def test_report_errors_are_one_line(db: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    _one_line_error(capsys, ["report", "--db", db, "--run", "nope"], "no run named 'nope' in the store; runs: hand")
    _one_line_error(capsys, ["report", "--db", str(tmp_path / "none.sqlite3")], "no database at")
    _one_line_error(capsys, ["report", "--db", db, "--plot", str(tmp_path / "x.gif")], "must end in .png or .svg")
    _one_line_error(capsys, ["report", "--db", db, "--plot", str(tmp_path / "no" / "x.png")], "does not exist")


def test_nothing_to_plot_without_a_strength_axis(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path) as store:
        add_game(store, store.create_run("r", {}).id, "A", "random", "en", 0, result="win")
    _one_line_error(capsys, ["report", "--db", str(path), "--plot", str(tmp_path / "x.png")], "nothing to plot")
    assert not (tmp_path / "x.png").exists()


def test_an_empty_store_says_so(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    Store(tmp_path / "e.sqlite3").close()
    assert main(["report", "--db", str(tmp_path / "e.sqlite3")]) == 0
    assert "no games" in capsys.readouterr().err


def test_bench_then_report_pairs_languages(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = str(tmp_path / "p.sqlite3")
    assert main(["bench", "--agent", "random", "--vs", "random", "--lang", "en,ar", "--games", "30",
                 "--db", db, "--seed", "11"]) == 0
    capsys.readouterr()
    assert main(["report", "--db", db, "--format", "json", "--table", "win_rates"]) == 0
    rows = json.loads(capsys.readouterr().out)["win_rates"]
    assert [r["finished"] for r in rows] == [30, 30]
    # random play ignores the language, and game i is the same deal in both cells
    assert rows[0]["wins"] == rows[1]["wins"] and rows[0]["draws"] == rows[1]["draws"]


def test_names_with_brackets_are_shown_as_written(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path) as store:
        add_game(store, store.create_run("r", {}).id, "llm:org/m[b]", "random", "en", 0, result="win")
    assert main(["report", "--db", str(path), "--table", "win_rates"]) == 0
    assert "llm:org/m[b]" in capsys.readouterr().out


def test_games_from_several_packs_are_kept_apart_whatever_by_says(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path) as store:
        run = store.create_run("r", {}).id
        add_game(store, run, "A", "random", "en", 0, result="win")
        store.conn.execute("UPDATE games SET pack_id = 'private', pack_hash = 'abc'")
        add_game(store, run, "A", "random", "en", 1, result="win")
    assert main(["report", "--db", str(path), "--format", "csv"]) == 0
    out = capsys.readouterr()
    assert "A [pack=private@abc]" in out.out and "A [pack=test@000000000000]" in out.out and not out.err
    # The pack is a parameter of the game: kept apart whatever --by says, so there is no pooling to warn of.
    assert main(["report", "--db", str(path), "--format", "csv", "--by", "style"]) == 0
    out = capsys.readouterr()
    assert "A [pack=private@abc]" in out.out and "A [pack=test@000000000000]" in out.out and not out.err


def test_the_report_pauses_the_cycle_collector_only_while_it_runs(db: str, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture) -> None:
    import gc
    assert gc.isenabled()
    assert main(["report", "--db", db]) == 0
    assert gc.isenabled()                     # ... also after a one-line error
    assert main(["report", "--db", db, "--table", "nope"]) == 2
    assert gc.isenabled()
    gc.disable()                              # a caller that had it off keeps it off
    try:
        assert main(["report", "--db", db]) == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
