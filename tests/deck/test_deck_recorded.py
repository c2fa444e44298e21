"""A person's quiz answer is recorded like every human game (``tcgtui play --game deck``): the
question set is stored as given so ``--resume`` can load it again, the answer is exported by
``baseline export`` and stands beside models in ``report --game deck``.  And a resumed card game
with ``--deck``/``--opp-deck`` carries on with the decks it was seated with."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from tcgtui import config
from tcgtui.cli import main
from tcgtui.live import RESUME_KEY, rebuild_game
from tcgtui.games.deck.questions import BUILTIN_DIR
from tcgtui.store import FINISHED, IN_PROGRESS, Store
from tcgtui.tui.screens.dialogs import GameOverScreen
from tests.deck.test_deck_cli import write_deck
from tests.tui.helpers import play_moves, settle
from tests.tui.test_recorded_play import app_for

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


async def answer(store: Store, *argv: str, key: str) -> None:
    app = app_for(store, "--game", "deck", "--name", "ada", *argv)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press(key, "enter")                # a key selects, Enter answers (docs/keys.md)
        await settle(pilot, app)
        await pilot.press("enter")                     # the reveal is read with Enter
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)


async def test_a_persons_answer_is_stored_with_its_set_as_given_exported_and_reported(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    shutil.copy(BUILTIN_DIR / "frontier-sample.jsonl", tmp_path / "mine.jsonl")
    monkeypatch.chdir(tmp_path)
    with Store(db) as store:
        await answer(store, "--param", "questions=mine.jsonl", "--param", "index=0", key="b")
        await answer(store, "--param", "index=1", key="1")
        rows = store.games()
    assert [r.status for r in rows] == [FINISHED, FINISHED] and {r.agent for r in rows} == {"human:ada"}
    assert {r.opponent for r in rows} == {""} and {r.seats for r in rows} == {("human:ada",)}   # alone, as benched
    where = [r.record[RESUME_KEY]["params"] for r in rows]
    assert where == [{"questions": str(tmp_path / "mine.jsonl"), "index": 0, "protocol": "tcgtui"},  # a file: its
                     {"questions": "frontier-sample", "index": 1, "protocol": "tcgtui"}]   # absolute path; a built-in set: its name
    monkeypatch.chdir("/")
    for row in rows:                                   # what --resume rebuilds, from another directory
        game = rebuild_game(row, row.record[RESUME_KEY])
        assert game.qset.hash == row.game_params["set_hash"] and game.index == row.game_params["index"]
    out = tmp_path / "people.jsonl"
    assert main(["baseline", "export", str(out), "--db", str(db)]) == 0
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(g["game"], g["agent"], g["score"]) for g in exported] == [("deck", "human:ada", 1.0),
                                                                         ("deck", "human:ada", 0.0)]
    bench = ["bench", "--game", "deck", "--agent", "random", "--games", "4", "--db", str(db),
             "--param", "questions=frontier-sample", "--concurrency", "1"]
    assert await asyncio.to_thread(main, bench) == 0              # the bench runs its own event loop
    capsys.readouterr()
    assert main(["report", "--game", "deck", "--db", str(db), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    accuracy = report["accuracy"]
    people = [r for r in accuracy if r["player"].startswith("human")]
    models = [r for r in accuracy if r["player"].startswith("random")]
    assert models and people                                      # people beside models
    # sets are never pooled: the model's row is named by its set, as the report keys it (by content)
    assert [(r["questions"], r["player"].startswith("random [questions=frontier-sample@")) for r in models] \
        == [("frontier-sample", True)]
    ada = {r["questions"]: (r["n"], r["right"]) for r in people if r["player"].startswith("human:ada ")}
    assert ada == {"mine": (1, 1), "frontier-sample": (1, 0)}        # each set apart, as answered


@pytest.mark.parametrize("seat", ["1", "2"])
async def test_a_resumed_card_game_keeps_its_seated_decks(db: Path, tmp_path: Path, seat: str) -> None:
    from tcgtui.games.tcg.packs import load_pack
    ids = [c.id for c in load_pack("frontier").cards]
    mine = write_deck(tmp_path / "mine.toml", ids[:10] * 2)
    theirs = write_deck(tmp_path / "theirs.toml", ids[20:30] * 2)
    with Store(db) as store:
        app = app_for(store, "--pack", "frontier", "--deck", mine, "--opp-deck", theirs, "--vs", "random",
                      "--name", "ada", "--seed", "5", "--seat", seat)
        async with app.run_test(size=(120, 40)) as pilot:
            assert await play_moves(pilot, app, moves=2) == 2
            seated = app.board.session.game.setup()["decks"]
            position = app.board.session.match.state.to_json()
        [row] = store.games()
        assert row.status == IN_PROGRESS and row.agent_seat == int(seat) - 1
        mine_cards = {cid: 2 for cid in ids[:10]}
        assert seated[row.agent_seat] == mine_cards and row.game_params["decks"] == seated   # the person's deck in the person's seat
        (tmp_path / "mine.toml").unlink()                       # the files are gone: the record holds the lists
        (tmp_path / "theirs.toml").unlink()
        app = app_for(store, "--resume", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            game = app.board.session.game
            assert game.setup()["decks"] == seated
            assert app.board.session.match.state.to_json() == position
            await play_moves(pilot, app)
            assert isinstance(app.screen, GameOverScreen)
        [row] = store.games()
        assert row.status == FINISHED and row.game_params["decks"] == seated


@pytest.mark.parametrize("flag", [["--vs", "random"], ["--seat", "2"]])
def test_an_opponent_or_seat_for_the_quiz_is_one_line(db: Path, flag: list[str], capsys) -> None:
    assert main(["play", "--game", "deck", "--name", "ada", "--db", str(db), *flag]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"error: {flag[0]}:" in err and "Traceback" not in err
    assert not db.exists() or not Store(db).games()
