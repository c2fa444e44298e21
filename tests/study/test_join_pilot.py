"""A participant's whole study in the app, as they meet it, in English and Arabic: consent (leaving
it records nothing), practice, every counted game by keys, leaving mid-game and coming back with the
same token to the same game, and the closing words.  A real store in a temporary folder."""

from __future__ import annotations

import pytest

from tcgtui.store import FINISHED, IN_PROGRESS, Store
from tcgtui.study.roster import participants
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.study import ConsentScreen, Progress, StudyScreen

from tests.study.helpers import play_tictactoe, study_app, write_study

pytestmark = pytest.mark.anyio


def shown(app) -> str:
    """The progress pane's text as drawn (logical order is enough for the checks here)."""
    parts = app.screen.query_one(Progress).render().renderables
    return " ".join(getattr(x, "text", "") or "".join(p.text for p in getattr(x, "pieces", [])) for x in parts)


async def test_leaving_the_consent_screen_records_nothing(tmp_path) -> None:
    store = Store(tmp_path / "s.sqlite3")
    app, joining = study_app(store, write_study(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConsentScreen)
        await pilot.press("q")
        await pilot.pause()
    assert participants(store, "ttt") == [] and store.games() == []
    assert app._exception is None


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_whole_study_by_keys_with_a_break_in_the_middle(tmp_path, lang: str) -> None:
    path = write_study(tmp_path)
    store = Store(tmp_path / "s.sqlite3")
    app, joining = study_app(store, path, lang=lang)
    token = joining.token
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("y")                                 # consent
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen) and app.screen.has_class("rtl") == (lang == "ar")
        await pilot.press("enter")                             # the practice game
        await play_tictactoe(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("r")                                 # the next part: back to the study's screen
        await pilot.pause(0.3)
        assert isinstance(app.screen, StudyScreen)
        await pilot.press("enter")                             # the first counted game: one move, then leave
        await pilot.pause(0.3)
        board = app.board
        viewer = board.session.viewer
        while not any(d.seat == viewer for d in board.session.decisions):
            await pilot.press("enter") if board.session.observation(viewer).board[1][1] == "." else \
                await pilot.press("up", "enter")
            await pilot.pause(0.2)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("y")
        await pilot.pause(0.3)
        assert isinstance(app.screen, StudyScreen)
    assert app._exception is None
    [person] = participants(store, "ttt")
    [left] = store.games("status = ?", (IN_PROGRESS,))
    moves = left.moves
    assert left.agent == f"human:{person.id}" and left.lang == lang and left.game_index == 1

    app, joining = study_app(store, path, token=token, lang=lang)     # the same link, later
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StudyScreen)             # no second consent
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert app.board.session.seed == left.seed and len(app.board.session.match.moves) == moves
        for _ in range(4):                                     # the rest of the schedule
            if isinstance(app.screen, StudyScreen):
                if "All done" in shown(app) or "انتهيت" in shown(app):
                    break
                await pilot.press("enter")
                await pilot.pause(0.3)
            await play_tictactoe(pilot, app)
            await pilot.press("r")
            await pilot.pause(0.3)
        assert isinstance(app.screen, StudyScreen)
        text = shown(app)
        assert "All done" in text or "انتهيت" in text
        await pilot.press("q")
        await pilot.pause()
    assert app._exception is None
    games = store.games()
    assert [g.game_index for g in games] == [0, 1, 2] and all(g.status == FINISHED for g in games)
    assert len({g.seed for g in games}) == 3                   # never the same deal twice for a person
    assert {g.opponent for g in games[1:]} == {"random", "mc:1"}
    study_run = store.run("study:ttt")
    assert {g.run_id for g in games[1:]} == {study_run.id} and games[0].run_id == store.run("study-practice:ttt").id
    assert all(g.record["resume"]["study_digest"] == joining.study.digest for g in games)
    [person] = participants(store, "ttt")
    assert person.finished_at is not None
    store.close()


async def test_a_move_past_the_studys_limit_is_drawn_and_marked(tmp_path) -> None:
    path = write_study(tmp_path, practice=0)
    path.write_text(path.read_text().replace("practice = 0", "practice = 0\nmove_seconds = 0.5"))
    store = Store(tmp_path / "s.sqlite3")
    app, joining = study_app(store, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("enter")
        for _ in range(60):                                    # the person does nothing
            await pilot.pause(0.1)
            if app.board is not None and any(d.info.get("timed_out") for d in app.board.session.decisions):
                break
        await pilot.press("q", "y")
        await pilot.pause(0.3)
    assert app._exception is None
    [game] = store.games()
    timed = [d for d in store.decisions(game.id) if d.info.get("timed_out")]
    assert timed and all(d.agent.startswith("human:") for d in timed) and 0.5 <= timed[0].seconds < 2


ALLOWED = {"ConsentScreen", "StudyScreen", "GridScreen", "RulesScreen", "QuitScreen", "GameOverScreen"}


async def test_no_key_leads_a_participant_out_of_the_study(tmp_path) -> None:
    """Every key a keyboard sends, on the study's screen and on a game's: a participant (in a browser,
    say) meets the study's screens and the game's, never home, a replay, another game or another study."""
    import string
    store = Store(tmp_path / "s.sqlite3")
    app, joining = study_app(store, write_study(tmp_path))
    keys = [*string.ascii_letters, *string.digits, *"?/!@#-=[];',.`", "tab", "shift+tab", "escape",
            *[f"f{i}" for i in range(1, 13)], *[f"ctrl+{c}" for c in "abdefghklnoprstuvwxyz"]]
    seen = set()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        for phase in ("study", "game"):
            if phase == "game":
                await pilot.press("enter")
                await pilot.pause(0.3)
            for key in keys:
                name = type(app.screen).__name__
                if (name == "QuitScreen" and key in ("y", "Y")) or (name == "StudyScreen" and key in ("q", "Q", "escape")):
                    continue                    # leaving is allowed (saved); the check is where the other keys lead
                await pilot.press(key)
                await pilot.pause(0.02)
                seen.add(type(app.screen).__name__)
                assert type(app.screen).__name__ in ALLOWED, (phase, key, type(app.screen).__name__)
                if type(app.screen).__name__ in ("QuitScreen", "RulesScreen", "GameOverScreen"):
                    await pilot.press("escape")
                    await pilot.pause(0.02)
            assert app.is_running, f"{phase}: a key closed the study"
    assert app._exception is None and "StudyScreen" in seen
