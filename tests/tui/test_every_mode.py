"""Every mode of every game with a screen, in English and Arabic, driven to its end or to a clean
exit: play (as ``tcgtui play`` prepares it), watch (as ``tcgtui watch`` does), the replay of a
stored game, and a game started from home and left back to home.  A test fails on any exception
in the app and on any crash file written (they go to a folder of the test's own).

Small games and fast players keep it short: random (the duel: the puzzler; Eleusis: the scientist),
Gomoku capped at 20 moves, Eleusis at 5 turns, the duel at 2 rounds."""

from __future__ import annotations

import pytest

from tcgtui import crash
from tcgtui.cli import build_parser
from tcgtui.commands import play as play_command
from tcgtui.commands import watch as watch_command
from tcgtui.replay.load import load
from tcgtui.store import Store
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import settle
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.replay import ReplayScreen
from tests.tui.test_home_hub import GAMES, back_home, hub_app, start
from tests.tui.test_replay import stored  # noqa: F401  (the module's stored games, one of each kind)

pytestmark = pytest.mark.anyio

LANGS = ["en", "ar"]
SMALL = {"gomoku": ["--param", "move_cap=20"], "eleusis": ["--param", "max_turns=5"],
         "duel": ["--param", "rounds=2"]}
VS = {"tcg": "random", "tictactoe": "random", "connect4": "random", "gomoku": "random", "duel": "puzzler"}
WATCHER = {"eleusis": "scientist", "duel": "puzzler"}
# The keys of one move by the person; () where a move needs typed text (the duel's code): a clean exit.
MOVE = {game: keys for game, (_, keys) in GAMES.items()} | {"connect4": ("1", "2", "3", "4", "5", "6", "7")}
PERSON_MOVES = 30         # then, if the game goes on, a clean exit


@pytest.fixture(autouse=True)
def crash_files(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Crash files go to the test's folder; none may be written."""
    folder = tmp_path / "crashes"
    monkeypatch.setattr(crash, "crash_folder", lambda: str(folder))
    yield
    assert not folder.exists() or not any(folder.iterdir()), [p.read_text() for p in folder.iterdir()]


def finished(app: ArenaApp) -> None:
    assert app._exception is None and app.refusal is None and app.return_code in (None, 0)


async def drive(pilot, app: ArenaApp, game: str) -> None:  # type: ignore[no-untyped-def]
    """The person's moves until the game ends (or PERSON_MOVES of them); Connect Four's columns in turn,
    each a digit then Enter (docs/keys.md)."""
    await settle(pilot, app)
    keys = MOVE[game]
    for i in range(PERSON_MOVES if keys else 0):
        if app.board.session.result is not None or isinstance(app.screen, GameOverScreen):
            break
        await pilot.press(*((keys[i % len(keys)], "enter") if game == "connect4" else keys))   # select, then Enter
        await settle(pilot, app)
    assert app.board.session.result is not None or not keys, "the game did not end"


async def leave(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    """Q, and yes if asked; the app ends."""
    for _ in range(6):
        if app._exit:
            return
        if isinstance(app.screen, QuitScreen):
            await pilot.press("y")
        elif app.settings.game_id == "duel" and app.board is app.screen:
            await app.screen.run_action("quit_game")       # the duel's editor takes the letters while focused
        else:
            await pilot.press("q")
        await pilot.pause(0.1)


def argv(command: str, game: str, lang: str, tmp_path) -> list[str]:  # type: ignore[no-untyped-def]
    return [command, "--game", game, "--lang", lang, "--seed", "3", "--pause", "0",
            "--db", str(tmp_path / "games.sqlite3"), *SMALL.get(game, [])]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(GAMES))
async def test_play(tmp_path, game: str, lang: str) -> None:
    args = build_parser().parse_args(argv("play", game, lang, tmp_path) + (["--vs", VS[game]] if game in VS else []))
    with Store(tmp_path / "games.sqlite3", create=True) as store:
        app = ArenaApp(play_command.seat(play_command.start(args, "ann"), args, store, "ann"))
        async with app.run_test(size=(80, 24)) as pilot:
            await drive(pilot, app, game)
            await leave(pilot, app)
        finished(app)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(GAMES))
async def test_watch(tmp_path, game: str, lang: str) -> None:
    players = ["--p1", WATCHER.get(game, "random")] + (["--p2", VS[game]] if game in VS else [])
    args = build_parser().parse_args(argv("watch", game, lang, tmp_path) + players)
    with Store(tmp_path / "games.sqlite3", create=True) as store:
        app = ArenaApp(watch_command.prepare(args, store))
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(1200):                      # no key: a watch goes on alone
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.pause(0.05)
            assert isinstance(app.screen, GameOverScreen)
            await leave(pilot, app)
        finished(app)
        [row] = store.games()
        assert row.status == "finished"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(GAMES))
async def test_replay(stored, game: str, lang: str) -> None:  # noqa: F811
    with Store(stored["db"], create=False, read_only=True) as store:
        replay = load(store, stored["ids"][game])
    app = ArenaApp(Settings(lang=lang, replay=replay))
    last = len(replay.steps) - 1
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        for _ in range(min(last, 60)):                 # positions drawn one step at a time, then the last
            await pilot.press("right")
        await pilot.press("end")
        await pilot.pause()
        assert screen.index == last
        await pilot.press("home", "q")
        await pilot.pause()
    finished(app)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(GAMES))
async def test_from_home_and_back(tmp_path, game: str, lang: str) -> None:
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, game, GAMES[game][0])
        assert app.settings.game_id == game
        await drive(pilot, app, game)
        await back_home(pilot, app, game)
        await pilot.press("q")
        await pilot.pause()
    finished(app)
    store.close()
