"""tcgtui grid import: the grid benchmark's published games (moves files written for these tests in the
shape of its ``outputs/``: the recorded stand-in checkout's JSON, and a CSV here) stored as games under the
seed's protocol; the report's leaderboard counts them as the seed's submission files do."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.report.data import load_games
from tcgtui.store import open_store

CHECKOUT = Path(__file__).parent / "seed_checkout"
HEADER = ["UUID", "DateTime", "GameType", "PromptType", "PromptVersion", "GameNumber", "Player1", "Player2", "Result",
          "MoveNumber", "MovePlayer", "MoveRow", "MoveCol", "MoveOutcome", "CurrentStatus", "Response"]
# (game number, result, [(player, outcome, reply)])
GAMES = [(1, "winner1st", [(1, "Valid", "{'row':2,'column':2}"), (2, "Invalid Format", "I pass"),
                           (2, "Valid", "{'row':1,'column':1}"), (1, "Valid", "{'row':1,'column':2}"),
                           (2, "Valid", "{'row':3,'column':3}"), (1, "Valid", "{'row':3,'column':2}")]),
         (2, "networkerror", [(1, "Valid", "{'row':1,'column':1}")])]


def write_csv(folder: Path, games=GAMES, players=("gpt-4o", "gemini-1.5-pro")) -> Path:
    out = folder / "outputs"
    out.mkdir(parents=True, exist_ok=True)
    with (out / "tic-tac-toe_list_240617-110645_all_moves.csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_NONNUMERIC)
        writer.writerow(HEADER)
        for number, result, moves in games:
            for i, (player, outcome, reply) in enumerate(moves, 1):
                writer.writerow(["u-1", f"24061{number}-10360{number}", "tic-tac-toe", "list", "2024-06-12", number,
                                 *players, result, i, player, -1, -1, outcome, "", reply])
    return folder


def stored(db: Path) -> list:
    with open_store(db, create=False, read_only=True) as store:
        return load_games(store, None, game="tictactoe", with_record=True, every_seat=False)


def test_the_published_csv_is_stored_as_seed_games_with_every_reply(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    folder = write_csv(tmp_path / "checkout")
    assert main(["grid", "import", str(folder), "--db", str(db)]) == 0
    assert "2 games imported, 0 already there, from 1 moves files (run grid-published)" in capsys.readouterr().out
    games = sorted(stored(db), key=lambda g: g.status)
    errored, won = games
    assert (won.status, won.winner, won.reason, won.seats) == ("finished", 0, "line", ("gpt-4o", "gemini-1.5-pro"))
    assert won.params["protocol"] == "seed" and won.params["prompt_style"] == "list"
    assert (errored.status, errored.winner) == ("errored", None)
    with open_store(db, create=False, read_only=True) as store:
        decisions = store.decisions(won.id)
    assert [d.info["reply"] for d in decisions] == [reply for _, _, reply in GAMES[0][2]]
    assert [d.move for d in decisions][:3] == ["2,2", "", "1,1"] and decisions[1].info["invalid"] == 1
    assert main(["grid", "import", str(folder), "--db", str(db)]) == 0
    assert "0 games imported, 2 already there" in capsys.readouterr().out


def test_the_recorded_checkout_imports_and_the_leaderboard_counts_it_by_seat(tmp_path, capsys):
    db = tmp_path / "g.sqlite3"
    assert main(["grid", "import", str(CHECKOUT), "--db", str(db)]) == 0
    capsys.readouterr()
    recorded = json.loads((CHECKOUT / "outputs" / "tic-tac-toe_list_000101-000000_all_moves.json").read_text())
    results = sorted(name.split("_")[-2] for name in recorded)
    assert results == ["disqualified2nd", "winner1st"]
    assert sorted((g.winner, g.reason) for g in stored(db)) == [(0, "disqualified"), (0, "line")]
    assert main(["report", "--game", "tictactoe", "--db", str(db), "--table", "leaderboard", "--format", "json"]) == 0
    board = {r["agent"]: r for r in json.loads(capsys.readouterr().out)["leaderboard"]}
    a, b = board["a"], board["b"]
    assert (a["games"], a["W1st"], a["Dq2nd"]) == (2, 2, 0)     # a line, and b disqualified
    assert (b["games"], b["W2nd"], b["Dq2nd"]) == (2, 0, 1)


@pytest.mark.parametrize("change, needle", [
    (lambda g: [(1, "winner1st", [(1, "Valid", "{'row':2,'column':2}"), (2, "Valid", "I pass")])],
     "move 2: the seed judged it 'Valid', its reply reads 'Invalid Format'"),
    (lambda g: [(1, "winner2nd", g[0][2])], "the seed's result is 'winner2nd', the moves give 'winner1st'"),
    (lambda g: [(1, "winner1st", [(2, "Valid", "{'row':2,'column':2}")])], "move 1 is player 2's; expected player 1's"),
])
def test_a_game_tcgtui_would_judge_otherwise_is_refused_in_one_line_and_nothing_is_stored(tmp_path, capsys,
                                                                                           change, needle):
    db = tmp_path / "g.sqlite3"
    folder = write_csv(tmp_path / "checkout", change(GAMES))
    assert main(["grid", "import", str(folder), "--db", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and needle in err and "_all_moves.csv" in err
    assert not db.exists()


def test_bad_folders_files_and_names_are_one_line(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    assert main(["grid", "import", str(tmp_path / "nowhere"), "--db", db]) == 2
    assert "is not a folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["grid", "import", str(tmp_path / "empty"), "--db", db]) == 2
    assert "has no outputs/*_all_moves.csv" in capsys.readouterr().err
    folder = write_csv(tmp_path / "named", players=("random", "gpt-4o"))
    assert main(["grid", "import", str(folder), "--db", db]) == 2
    assert "Player1 'random': expected a model's name, not a tcgtui player" in capsys.readouterr().err
    bad = tmp_path / "cols" / "outputs"
    bad.mkdir(parents=True)
    (bad / "gomoku_list_240612-221528_all_moves.csv").write_text("UUID,GameType\nx,gomoku\n", encoding="utf-8")
    assert main(["grid", "import", str(bad.parent), "--db", db]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "missing DateTime" in err
    json_only = tmp_path / "json" / "outputs"
    shutil.copytree(CHECKOUT / "outputs", json_only)
    path = json_only / "tic-tac-toe_list_000101-000000_all_moves.json"
    path.write_text(json.dumps({"Moves_tic-tac-toe_list_a_winner1st_000101-000000": []}))
    assert main(["grid", "import", str(json_only.parent), "--db", db]) == 2
    assert "expected Moves_TYPE_PROMPT_PLAYER1_PLAYER2_RESULT_DATETIME" in capsys.readouterr().err
