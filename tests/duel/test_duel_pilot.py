"""The duel's screen driven by keys as a person would: propose in the editor (the sample pre-checked
in the sandbox), solve in the answer field, against the reference player, in English and Arabic."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import TextArea

from tcgtui.engine.core import GameRecord, replay
from tcgtui.engine.duel import Answer
from tcgtui.engine.duel.moves import TimeUp
from tcgtui.match import FINISHED
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games import screen_for
from tcgtui.tui.games.duel import DuelScreen
from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.widgets.text import Caption
from tests.scenario import rule
from tests.tui.helpers import screen_text, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def duel_app(lang: str = "en", opponent: str = "puzzler", **agent_options: object) -> ArenaApp:
    return ArenaApp(Settings((HUMAN, opponent), game_id="duel", params={"rounds": 2, "check_timeout": 3},
                             lang=lang, seed=3, pause=0.0, agent_options=dict(agent_options)))


async def until(pilot, condition, tries: int = 100) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.05)
        await asyncio.sleep(0.02)
    raise AssertionError("the screen did not get there")


async def type_text(pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


def test_the_duel_has_its_screen() -> None:
    assert screen_for("duel") is DuelScreen


@pytest.mark.parametrize("opponent", ["puzzler", "llm:fake"])
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_person_proposes_and_solves_by_keys(lang: str, opponent: str) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    with ChatServer(policy=game_policy("duel", seed=2)) as server:
        options = {"base_url": server.base_url, "max_retries": 0, "api_key": "sk-test"}
        await person_against(duel_app(lang, opponent, **(options if opponent.startswith("llm:") else {})), lang)


async def person_against(app: ArenaApp, lang: str) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert isinstance(board, DuelScreen) and board.session.observation(0).phase == "propose"
        editor = board.query_one("#code", TextArea)
        assert not editor.read_only and editor.has_focus and not editor.soft_wrap
        await pilot.press("f7", "backspace")                # select all, delete the template
        await type_text(pilot, "def mystery(x): return x == 'ann'")
        assert editor.text == "def mystery(x): return x == 'ann'"
        await pilot.press("f2")
        await type_text(pilot, "'bob'")                     # a wrong sample: refused before sending
        await pilot.press("ctrl+s")
        status = board.query_one("#status", Caption)
        await until(pilot, lambda: status.key == "duel.ui.status.sample_fails")
        assert status.params["result"] == "false"
        assert board.session.observation(0).phase == "propose" and not board.session.decisions
        await pilot.press(*["backspace"] * 5)
        await type_text(pilot, "'ann'")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: board.session.observation(0).phase == "solve" or board.session.result)
        await settle(pilot, app)
        obs = board.session.observation(0)
        assert obs.phase == "solve" and obs.history[0].outcome == "success"     # the opponent guessed 'ann'
        assert board.query_one("#code", TextArea).read_only and obs.code in board.query_one("#code", TextArea).text
        await type_text(pilot, "0")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        result = board.session.result
        assert result is not None and result.status == FINISHED and app.failure is None
        again = replay(app.game, GameRecord.from_json(result.record.to_json()))
        assert again.state.outcome == result.outcome
        mine = [d for d in board.session.decisions if d.seat == 0]
        assert len(mine) == 2 and "'ann'" in mine[0].move
        if lang == "en":                                    # Arabic is shaped on screen: compare English
            text = screen_text(app)
            assert "Score" in text and "Penalties" in text and "All rounds played" in text


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_watching_a_model_duel_streams_its_replies(lang: str) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    from tcgtui.tui.widgets.stream import StreamPanel
    with ChatServer(policy=game_policy("duel", seed=4)) as server:
        options = {"base_url": server.base_url, "stream": True, "max_retries": 0, "api_key": "sk-test"}
        app = ArenaApp(Settings(("llm:fake", "puzzler"), game_id="duel", params={"rounds": 2, "check_timeout": 3},
                                lang=lang, seed=5, pause=0.0, agent_options=options))
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot, app)
            await until(pilot, lambda: app.board.session.result is not None)
            board = app.board
            assert board.session.spectating and app.failure is None
            assert board.session.result.status == FINISHED and len(board.session.observation(0).history) == 2
            kinds = {kind for kind, _ in board.query_one(StreamPanel).body.parts}
            assert "answer" in kinds                      # the model's last reply, as it streamed
        assert len(server.requests) == sum(1 for d in board.session.decisions if d.seat == 0)


def timed_app(lang: str = "en", seconds: float = 20) -> ArenaApp:
    """The person sits second, so the first thing asked is to solve the puzzler's puzzle."""
    return ArenaApp(Settings(("puzzler", HUMAN), game_id="duel", lang=lang, seed=3, pause=0.0,
                             params={"rounds": 2, "check_timeout": 3, "solve_time": seconds}))


def mine(board):
    return [d for d in board.session.decisions if d.seat == 1]


@pytest.fixture
def fixed_clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(DuelScreen, "clock", staticmethod(lambda: now[0]))
    return now


@rule("duel.rules.solve_time")
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_the_countdown_starts_at_the_time_to_solve_when_the_puzzle_is_shown(lang, fixed_clock) -> None:
    app = timed_app(lang, 20)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        board = app.board
        clock = board.query_one("#clock", Caption)
        assert board.session.observation(1).phase == "solve"
        assert clock.display and clock.params == {"seconds": 20}
        assert board.query_one("#code", TextArea).soft_wrap      # a long puzzle line is read whole
        fixed_clock[0] += 7.5
        await pilot.pause(0.3)
        assert clock.params == {"seconds": 13}              # 12.5 seconds left, counted up
        await type_text(pilot, "5")
        await pilot.press("enter")                         # sent in time: the countdown stops
        await until(pilot, lambda: not clock.display)
        assert board.deadline is None


@rule("duel.rules.time_up")
async def test_at_zero_the_answer_written_so_far_is_sent(fixed_clock) -> None:
    app = timed_app("en", 10)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        board = app.board
        await type_text(pilot, "'half'")                   # written, never sent by the person
        fixed_clock[0] += 10
        await until(pilot, lambda: mine(board))
        assert mine(board)[0].move == Answer("'half'").text()
        await until(pilot, lambda: board.session.observation(1).history)
        assert board.session.observation(1).history[0].answer is not None      # checked as usual
        assert any("Time is up" in n.message for n in app._notifications)


@rule("duel.rules.time_up")
async def test_at_zero_with_nothing_written_the_round_is_a_failure(fixed_clock) -> None:
    app = timed_app("en", 10)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        board = app.board
        fixed_clock[0] += 11
        await until(pilot, lambda: board.session.observation(1).history)
        first = board.session.observation(1).history[0]
        assert first.outcome == "failure" and first.cause == "time" and first.answer is None
        assert mine(board)[0].move == TimeUp().text()


async def precheck_status(lang: str, code: str, sample: str, key: str) -> tuple[ArenaApp, Caption]:
    """A person writes ``code`` and ``sample`` and sends: the status once it shows ``key``."""
    app = duel_app(lang)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        await pilot.press("f7", "backspace")
        await type_text(pilot, code)
        await pilot.press("f2")
        await type_text(pilot, sample)
        await pilot.press("ctrl+s")
        status = app.board.query_one("#status", Caption)
        await until(pilot, lambda: status.key == key)
    return app, status


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_where_no_boundary_holds_the_precheck_says_so_on_the_screen(lang, monkeypatch) -> None:
    """An old kernel simulated: the person's sample is not run, one line says why, the app goes on."""
    from tcgtui.sandbox import layers
    monkeypatch.setattr(layers, "probe", lambda: layers.Boundary(seccomp=True, root=True))
    app, status = await precheck_status(lang, "def mystery(x): return True", "1", "duel.ui.status.no_sandbox")
    assert "landlock" in status.params["why"] and not app.board.session.decisions and app.failure is None


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_puzzle_that_errors_on_its_sample_is_said_to_error(lang) -> None:
    app, status = await precheck_status(lang, "def mystery(x): return 1 / 0", "1", "duel.ui.status.sample_errors")
    assert "ZeroDivisionError" in status.params["detail"] and not app.board.session.decisions


@pytest.mark.parametrize("opening", [("f1",), ("escape", "question_mark")], ids=["f1", "esc-then-?"])
@pytest.mark.parametrize("person", [0, 1], ids=["proposing", "solving"])
async def test_the_editor_or_the_field_has_the_keys_again_after_the_rules(person: int, opening) -> None:
    """Issue 26: after the rules closed, typing went nowhere (or to the read-only puzzle)."""
    from textual.widgets import Input

    from tcgtui.tui.screens.rules import RulesScreen
    seats = (HUMAN, "puzzler") if person == 0 else ("puzzler", HUMAN)
    app = ArenaApp(Settings(seats, game_id="duel", params={"rounds": 2}, lang="en", seed=3, pause=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press(*opening)
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        board = app.board
        want = board.query_one("#code", TextArea) if person == 0 else board.query_one("#value", Input)
        assert app.screen is board and board.focused is want
        await pilot.press("7")
        assert "7" in (want.text if person == 0 else want.value)
