"""The grid games under ``--protocol seed``: the seed's prompts (read from a checkout), its way of
reading a reply, its random player, and its recorded games replayed move for move.

``seed_checkout/`` stands in for the user's checkout: the seed's file and function names and the
order of its texts, with wording written for these tests.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.grid.game import GridGame
from tcgtui.engine.grid.seed import (GAME_FILES, SERVICE_FILE, WordingError, clean_response, judge_reply, prompt,
                                     wording_from_sources)
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.store import Store
from tcgtui.upstream import load

CHECKOUT = Path(__file__).parent / "seed_checkout"
ROOT = Path(__file__).resolve().parents[2]


def wording(game_id: str = "tictactoe"):
    read = lambda rel: (CHECKOUT / rel).read_text(encoding="utf-8")   # noqa: E731
    return wording_from_sources(game_id, read(GAME_FILES[game_id]), read(SERVICE_FILE))


def test_the_wording_and_limits_are_read_from_the_checkouts_files():
    w = wording("connect4")
    assert (w.version, w.max_moves, w.max_invalid) == ("2000-01-02", 80, 7)
    assert w.explain == "C4 rules on a 6 by 7 board. \n"
    assert w.role == (" You move first. Your move? \n", " You move second. Your move? \n")
    assert w.previous == (" Last answer '", "' was refused: '", "'. Try again. \n")


def test_a_file_of_another_shape_is_named_in_one_line():
    game = (CHECKOUT / GAME_FILES["tictactoe"]).read_text(encoding="utf-8").replace("static listBoard(", "static lb(")
    with pytest.raises(WordingError, match=r"^game-simulation/tic-tac-toe.js: no static listBoard$"):
        wording_from_sources("tictactoe", game, (CHECKOUT / SERVICE_FILE).read_text(encoding="utf-8"))


def test_the_prompt_is_assembled_in_the_seeds_order_with_its_escaping():
    cfg = GridGame("tictactoe").config
    text = prompt(cfg, ["X..", ".O.", "..."], ("X", "O"), "list", wording(), 0, 1, ('{"row":1,"column":1}', "Already Taken"))
    assert text == ("TTT rules on a 3 by 3 board. \\n Cells are listed as row,column. \\n Board now: \\n First: 1,1 \\n"
                    " Second: 2,2 \\n You move first. Your move? \\n Answer as JSON {'row': R, 'column': C}. \\n"
                    " More than 3 bad answers lose. \\n Last answer '{\\\"row\\\":1,\\\"column\\\":1}' was refused:"
                    " 'Already Taken'. Try again. \\n Bad answers so far: 1. 3 more lose.")


def test_the_illustration_draws_rows_with_the_games_symbols_and_e_for_empty():
    cfg = GridGame("connect4").config
    board = ["......."] * 5 + ["XO....."]
    text = prompt(cfg, board, ("R", "Y"), "illustration", wording("connect4"), 1, 0, None)
    assert "Board now: \\n" + "eeeeeee \\n" * 5 + "RYeeeee \\n You move second." in text


@pytest.mark.parametrize("reply, move, kind, said", [
    ("{'row': 2, 'column': 3}", "2,3", None, '{"row":2,"column":3}'),
    ("Let me think. {\"row\": 1, \"column\": 1} no wait {'row': 3, 'column': 1}", "3,1", None, '{"row":3,"column":1}'),
    ('{"row": 2.0, "column": 1}', "2,1", None, '{"row":2,"column":1}'),
    ('{"row": 1, "column": 1}', None, "taken", '{"row":1,"column":1}'),
    ('{"row": 4, "column": 1}', None, "out_of_bounds", '{"row":4,"column":1}'),
    ('{"row": "2", "column": 2}', None, "format", '{"row":"2","column":2}'),
    ('{"row": true, "column": 2}', None, "format", '{"row":true,"column":2}'),
    ('{"row": 2.5, "column": 2}', None, "format", '{"row":2.5,"column":2}'),
    ('{"row": 2, "column": 2, "why": "centre"}', None, "format", '{"row":2,"column":2,"why":"centre"}'),
    ('{"row": NaN, "column": 2}', None, "format", '{"row": NaN, "column": 2}'),
    ("I play the centre", None, "format", "I play the centre"),
    ("[2, 2]", None, "format", "[2,2]"),
])
def test_a_reply_is_read_as_the_seeds_simulator_reads_it(reply, move, kind, said):
    judged = judge_reply(GridGame("tictactoe").config, ["X..", "...", "..."], reply)
    assert (judged.move, judged.kind, judged.response) == (move, kind, said)


def test_connect_four_names_a_column_and_a_full_one_is_taken():
    cfg = GridGame("connect4").config
    board = ["X......", "O......", "X......", "O......", "X......", "O......"]
    assert judge_reply(cfg, board, "{'column': 1}").kind == "taken"
    assert judge_reply(cfg, board, "{'column': 2}").move == "2"
    assert judge_reply(cfg, board, "{'column': 0}").kind == "out_of_bounds"
    assert judge_reply(cfg, board, "{'row': 1, 'column': 2}").kind == "format"


def test_clean_response_swaps_quotes_and_keeps_the_last_braces():
    assert clean_response("{'a': 1}\n{\\'row\\': 2}") == '{"row": 2}'
    assert clean_response('"{\'column\': 4}"') == '{"column": 4}'


def test_the_seeds_random_player_names_taken_cells_too_and_is_reproducible():
    game = GridGame("tictactoe", protocol="seed")
    obs = game.new_state(0).observation(0)
    nearly_full = dataclasses.replace(obs, board=("XOX", "OXO", "OX."))
    tries = [game.random_attempt(nearly_full, random.Random(s)) for s in range(40)]
    assert any(t.invalid == "taken" for t in tries) and any(t.move == "3,3" for t in tries)
    assert [t.raw for t in tries] == [game.random_attempt(nearly_full, random.Random(s)).raw for s in range(40)]
    assert GridGame("tictactoe").random_attempt(obs, random.Random(0)) is None


def test_the_protocol_is_part_of_the_setup_only_when_it_is_the_seeds():
    assert "protocol" not in GridGame("gomoku").setup()
    seed = registry.get("gomoku").game({"protocol": "seed"})
    assert seed.setup()["protocol"] == "seed" and registry.get("gomoku").game(seed.setup()).protocol == "seed"


def _board_from(text: str) -> set[tuple[int, int]]:
    cells = set()
    for who in ("First", "Second"):
        found = re.search(who + r": (.*?) \\\\n", text)
        if found and found.group(1) != "None":
            cells |= {tuple(int(x) for x in cell.split(",")) for cell in found.group(1).split("; ")}
    return cells


class SeedModel:
    """A fake model that reads the stand-in wording: it answers the first free cell, in single quotes,
    after one reply of prose on its first move (an invalid format the seed counts)."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, request: dict) -> Reply:
        text = request["messages"][-1]["content"]
        self.prompts.append(text)
        if len(self.prompts) == 1:
            return Reply("I would like to play in the centre.")
        taken = _board_from(text)
        free = [(r, c) for r in range(1, 4) for c in range(1, 4) if (r, c) not in taken]
        return Reply("{'row': %d, 'column': %d}" % free[0])


def test_a_model_plays_the_seed_protocol_over_http_and_the_records_say_so(tmp_path, capsys):
    db = tmp_path / "seed.sqlite3"
    model = SeedModel()
    with ChatServer(policy=model) as server:
        assert main(["bench", "--game", "tictactoe", "--protocol", "seed", "--upstream", str(CHECKOUT),
                     "--agent", "llm:fake", "--vs", "random", "--games", "2", "--db", str(db),
                     "--base-url", server.base_url]) == 0
    assert all(p.startswith("TTT rules on a 3 by 3 board. \\n Cells are listed") for p in model.prompts)
    assert sum("Last answer 'I would like to play in the centre.' was refused: 'Invalid Format'. Try again."
               " \\n Bad answers so far: 1. 3 more lose." in p for p in model.prompts) == 1
    with Store(db) as store:
        games = store.games()
        assert len(games) == 2 and all(g.game_params.get("protocol") == "seed" for g in games)
        assert store.runs()[0].config["identity"]["params"]["protocol"] == "seed"
        players = store.runs()[0].config["players"]["llm:fake"]["en"]
    assert players["prompt_version"] == "seed-2000-01-02-list"


def test_a_model_under_the_seed_protocol_without_a_checkout_is_refused_in_one_line(tmp_path, capsys):
    with ChatServer(policy=SeedModel()) as server:
        code = main(["bench", "--game", "tictactoe", "--protocol", "seed", "--agent", "llm:fake", "--vs", "random",
                     "--games", "1", "--db", str(tmp_path / "x.sqlite3"), "--base-url", server.base_url])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "--upstream DIR" in err and "LLM-Game-Benchmark" in err


def test_the_seeds_limits_cannot_be_changed_under_its_protocol(tmp_path, capsys):
    with ChatServer(policy=SeedModel()) as server:
        code = main(["bench", "--game", "tictactoe", "--protocol", "seed", "--upstream", str(CHECKOUT),
                     "--param", "invalid_limit=5", "--agent", "llm:fake", "--vs", "random", "--games", "1",
                     "--db", str(tmp_path / "x.sqlite3"), "--base-url", server.base_url])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "invalid_limit=3" in err and "\n" not in err


def recheck(upstream: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "grid_seed_recheck.py"), "--upstream", str(upstream)],
                          capture_output=True, text=True, timeout=120)


def test_recorded_seed_games_replay_move_for_move(tmp_path):
    done = recheck(CHECKOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3 recorded games, 21 moves: 3 games agree; 0 move outcomes differ, 0 results differ"
    copy = tmp_path / "checkout"
    shutil.copytree(CHECKOUT, copy)
    path = copy / "outputs" / "tic-tac-toe_list_000101-000000_all_moves.json"
    games = json.loads(path.read_text())
    games["Moves_tic-tac-toe_list_a_b_winner1st_000101-000000"][1]["Outcome"] = "Valid"   # a record tcgtui disputes
    path.write_text(json.dumps(games))
    done = recheck(copy)
    assert done.returncode == 1 and "1 move outcomes differ" in done.stdout


def test_a_stored_game_is_written_in_the_seeds_files_as_its_simulator_logged_it():
    """The recorded stand-in game A, played again through tcgtui and written out: every move's player,
    outcome and logged reply are the recorded ones, and the files have the seed's names and columns."""
    from tcgtui.engine.core import Match
    from tcgtui.engine.grid import seed_files
    game = GridGame("tictactoe")
    match = Match(game, 1)
    for kind, text in (("", "2,2"), ("taken", '{"row": 2, "column": 2}'), ("format", "hello"), ("", "1,1"),
                       ("out_of_bounds", "{'row': 4, 'column': 1}"), ("", "1,3"), ("", "3,3"), ("", "3,1")):
        match.play_invalid(kind, text) if kind else match.play(text)
    logged = seed_files.seed_game(match.record().to_json(), ["llm:a/b", "random"], "list", "2000-01-02",
                                  wording())
    recorded = json.loads((CHECKOUT / "outputs" / "tic-tac-toe_list_000101-000000_all_moves.json").read_text())
    expected = recorded["Moves_tic-tac-toe_list_a_b_winner1st_000101-000000"]
    assert [(m["Player"], m["Outcome"], m["Response"]) for m in logged.moves] == \
        [(m["Player"], m["Outcome"], m["Response"]) for m in expected]
    assert [(m["Row"], m["Column"]) for m in logged.moves] == [(2, 2), (2, 2), (-1, -1), (1, 1), (4, 1), (1, 3),
                                                               (3, 3), (3, 1)]
    assert logged.moves[1]["CurrentStatus"] == "First: 2,2 \n Second: None \n"
    files = seed_files.game_files(logged, uuid="u-1", stamp="260101-120000", number=1, duration_s=7)
    base = "tic-tac-toe_list_llm:a_b_random_winner1st_260101-120000"
    assert sorted(files) == sorted(base + ext for ext in (".txt", ".json", ".csv", "_moves.csv", ".png"))
    summary = json.loads(files[base + ".json"])
    assert (summary["Result"], summary["TotalMoves"], summary["Player1Moves"], summary["Player2Moves"]) == \
        ("winner1st", 8, 4, 4)
    assert (summary["Player1MovesPerWin"], summary["Player1OutOfBounds"], summary["Player2InvalidAlreadyTaken"],
            summary["Player2InvalidFormat"]) == (4, 1, 1, 1)
    assert files[base + ".csv"].splitlines()[0].split(",")[:3] == ["UUID", "DateTime", "GameType"]
    assert files[base + ".txt"].splitlines()[8] == "Result: winner1st"
    assert "Invalid Move (Already Taken)\n\ne|e|e\n" not in files[base + ".txt"]
    assert "e|e|e\ne|X|e\ne|e|e\n\nInvalid Move (Already Taken)\n\nInvalid Move (Invalid Format)" in files[base + ".txt"]
    assert files[base + ".png"].startswith(b"\x89PNG")
    sub = seed_files.submission_files([logged, logged], uuid="u-1", stamp="260101-120000")
    row = json.loads(sub["tic-tac-toe_list_llm:a_b_random_260101-120000_submission.json"])[0]
    assert (row["WinRatio-1st"], row["Wins-1st"], row["TotalMoves-1st"], row["InvalidMovesRatio-2nd"]) == \
        ("1", "2", "8", "0.5")
