"""--deck / --opp-deck on the command line: each list goes with its player's seat, records
carry both lists, a bad file is one line, and a run's identity includes its decks."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.games.tcg.packs import load_pack


def write_deck(path: Path, ids: list[str]) -> str:
    lines = ["[cards]"] + [f"{cid} = {ids.count(cid)}" for cid in dict.fromkeys(ids)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def frontier():
    return load_pack("frontier")


def test_bench_plays_each_players_deck_in_its_seat(tmp_path: Path, frontier, capsys) -> None:
    ids = [c.id for c in frontier.cards]
    mine = write_deck(tmp_path / "mine.toml", ids[:10] * 2)
    theirs = write_deck(tmp_path / "theirs.toml", ids[20:30] * 2)
    db = str(tmp_path / "t.sqlite3")
    assert main(["bench", "--agent", "mc:2", "--vs", "random", "--games", "4", "--pack", "frontier",
                 "--deck", mine, "--opp-deck", theirs, "--db", db, "--concurrency", "1"]) == 0
    rows = sqlite3.connect(db).execute("SELECT agent_seat, game_params FROM games").fetchall()
    assert len(rows) == 4 and {seat for seat, _ in rows} == {0, 1}
    for seat, params in rows:
        decks = json.loads(params)["decks"]
        assert decks[seat] == {cid: 2 for cid in ids[:10]}
        assert decks[1 - seat] == {cid: 2 for cid in ids[20:30]}
    capsys.readouterr()
    # the same run name with other decks is another identity: refused
    assert main(["bench", "--agent", "mc:2", "--vs", "random", "--games", "4", "--pack", "frontier",
                 "--deck", theirs, "--opp-deck", mine, "--db", db, "--run",
                 sqlite3.connect(db).execute("SELECT name FROM runs").fetchone()[0]]) == 2
    assert "identity.decks" in capsys.readouterr().err


@pytest.mark.parametrize("content, needle", [
    ("[cards]\nember_imp = 3\n", "from 1 to 2"),
    ("[cards]\nember_imp = 2\n", "holds 2 cards; pack 'frontier' expects 20"),
    ("[cards\n", "not a TOML deck list"),
    ("[cards]\nno_card = 1\n", "'no_card' is not in pack 'frontier'"),
])
def test_a_bad_deck_file_is_one_line(tmp_path: Path, capsys, content: str, needle: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    assert main(["bench", "--agent", "random", "--vs", "random", "--games", "1", "--pack", "frontier",
                 "--deck", str(path), "--db", str(tmp_path / "t.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and str(path) in err, err


def test_a_missing_deck_file_and_a_game_without_decks_are_one_line(tmp_path: Path, capsys) -> None:
    assert main(["bench", "--agent", "random", "--vs", "random", "--games", "1",
                 "--opp-deck", str(tmp_path / "none.toml")]) == 2
    assert "--opp-deck" in capsys.readouterr().err
    assert main(["bench", "--game", "connect4", "--agent", "random", "--vs", "random", "--games", "1",
                 "--deck", str(tmp_path / "none.toml")]) == 2
    assert "has no such setting" in capsys.readouterr().err


def test_tree_search_plays_decks_with_copies(tmp_path: Path, frontier) -> None:
    """ISMCTS on the compiled path: copies of a card in hand are one move at the root."""
    import asyncio

    from tcgtui.engine.tcg import TcgGame
    from tcgtui.engine.tcg.decks import from_ids
    from tcgtui.match import run_match
    from tcgtui.opponents.registry import make_agent
    ids = [c.id for c in frontier.cards]
    deck = from_ids(frontier, ids[:10] * 2)
    game = TcgGame(frontier, (deck, from_ids(frontier, ids[20:30] * 2)))
    agents = (make_agent("mcts:40"), make_agent("mc:3"))
    result = asyncio.run(run_match(game, 11, agents))
    assert result.status == "finished" and result.outcome is not None
    assert all(d.move in ids[:10] for d in result.decisions if d.seat == 0)
