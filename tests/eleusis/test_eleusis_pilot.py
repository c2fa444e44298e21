"""Eleusis on the screen, driven by keys and clicks as a person would; recorded and resumed through ``tcgtui play``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import TextArea

from tcgtui import config
from tcgtui.cli import main
from tcgtui.engine.core import GameRecord, replay
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.live import human_spec
from tcgtui.match import FINISHED
from tcgtui.store import IN_PROGRESS, Store
from tcgtui.store import FINISHED as STORED_FINISHED
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games import screen_for
from tcgtui.tui.games.eleusis import EleusisScreen, HandView
from tcgtui.tui.games.eleusis_guess import GuessScreen
from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.screens.rules import RulesScreen
from tests.tui.helpers import screen_text, settle
from tests.tui.test_recorded_play import app_for, quit_by_keys

pytestmark = pytest.mark.anyio

EVEN = "return card.rank % 2 == 0"          # rule 0, "Even ranks", written as a person would


def eleusis_app(lang: str = "en", seed: int = 3, rule: int = 0) -> ArenaApp:
    return ArenaApp(Settings((HUMAN,), game_id="eleusis", params={"rule": rule}, lang=lang, seed=seed, pause=0.0))


async def guess_by_keys(pilot, app: ArenaApp, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("g")
    await pilot.pause()
    assert isinstance(app.screen, GuessScreen)
    await pilot.press(*text)
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot, app)


def test_eleusis_finds_its_screen() -> None:
    assert screen_for("eleusis") is EleusisScreen


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_full_round_by_keys_wrong_guess_then_right(lang: str) -> None:
    app = eleusis_app(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        assert board.has_class("rtl") == (lang == "ar")
        hand = board.obs.hand
        row = " ".join(f"{board.query_one(HandView).hand[i]}" for i in range(3))
        assert row and hand[0] in board.query_one(HandView).hand
        # The hand's card row reads in the reader's direction: 1 2 3 ... from the left in English,
        # from the right in Arabic (issue 26: it stayed left while the labels were right).
        text = screen_text(app)
        if lang == "ar":
            assert "12  11  10  9   8   7   6   5   4   3   2   1" in text
        else:
            assert "1   2   3   4   5   6   7   8   9   10  11  12" in text
        await pilot.press("1", "2")               # digits typed quickly choose card 12 and play nothing
        await settle(pilot, app)
        assert board.cursor == 11 and not board.session.decisions
        await pilot.pause(1.1)
        await pilot.press("1")                    # after a pause a digit starts a new number
        assert board.cursor == 0 and not board.session.decisions
        await pilot.press("enter")                # Enter plays the chosen card
        await settle(pilot, app)
        await pilot.press("right", "enter")       # arrows choose, Enter plays
        await settle(pilot, app)
        moves = [d.move for d in board.session.decisions]
        assert moves == [hand[0], board.session.decisions[1].move] and len(moves) == 2
        await guess_by_keys(pilot, app, "return card.rank > 5")
        assert board.obs.wrong == 1 and board.obs.failed_guesses == ("return card.rank > 5",)
        assert board.obs.potential == 31 - 4 - 2
        await guess_by_keys(pilot, app, EVEN)
        result = board.session.result
        assert app.failure is None and result is not None and result.status == FINISHED
        assert result.outcome.reason == "solved" and result.outcome.scores == (31 - 4 - 2,)
        assert isinstance(app.screen, GameOverScreen)
        over = screen_text(app)
        assert "25" in over and "card.rank % 2 == 0" in over     # the score and the true rule's code
        if lang == "en":
            assert "Even ranks" in over and "not equivalent" in over and "is equivalent" in over
        again = replay(app.game, GameRecord.from_json(result.record.to_json()))
        assert again.state.outcome == result.outcome


async def test_a_click_chooses_a_card_and_a_click_on_the_chosen_card_plays_it() -> None:
    app = eleusis_app(seed=5)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        hand = board.query_one(HandView)
        third = board.obs.hand[2]
        await pilot.click(hand, offset=(1 + 2 * 4 + 1, 1))
        await settle(pilot, app)
        assert board.cursor == 2 and not board.session.decisions
        await pilot.click(hand, offset=(1 + 2 * 4 + 1, 1))
        await settle(pilot, app)
        assert [d.move for d in board.session.decisions] == [third]


async def test_the_editor_checks_as_one_types_and_refuses_what_is_not_a_rule() -> None:
    app = eleusis_app("ar")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        await pilot.press("g")
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        await pilot.press(*"import os")
        await pilot.pause()
        assert editor.text == "import os"            # "l", "q" and the rest are text here, not keys of the screen
        assert "import" in screen_text(app) and app.lang == "ar"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GuessScreen) and not board.session.decisions
        editor.text = ""
        await pilot.press(*"return card.color == 'black'")
        await pilot.pause()
        assert app.screen.problem() is None           # type: ignore[attr-defined]
        await pilot.press("escape")                    # back without guessing: no move made
        await settle(pilot, app)
        assert isinstance(app.screen, EleusisScreen) and not board.session.decisions


async def test_the_rule_editor_is_composed_once_and_kept_between_openings() -> None:
    """G shows the same editor each time (composing it anew held the loop for 90-160 ms): a draft
    left with Escape is there again, its title names the card now chosen, it follows a language
    switched on the board, it survives the rules screen, a sent guess leaves it empty, and it
    goes with its board (a rematch, then quitting with it open)."""
    app = eleusis_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        hand = board.obs.hand
        await pilot.press("g")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, GuessScreen) and parse_card(hand[0]).symbol() in screen_text(app)
        await pilot.press(*"return card.rank > 1")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is board and not board.session.decisions
        await pilot.press("right", "g")                     # another card: the same editor, the draft kept
        await pilot.pause()
        assert app.screen is editor and editor.query_one(TextArea).text == "return card.rank > 1"
        title = screen_text(app)
        assert f"Your guess goes with {parse_card(hand[1]).symbol()}." in title and "A well-formed rule" in title
        await pilot.press("escape", "l")                    # the language switched while the editor is away
        await pilot.pause()
        assert app.lang == "ar"
        await pilot.press("g")
        await pilot.pause()
        assert app.screen is editor and editor.has_class("rtl") and editor.shown_in == "ar"
        assert "Your guess goes with" not in screen_text(app) and "card.rank > 1" in screen_text(app)
        await pilot.press("escape", "l", "question_mark")  # back to English, then the rules and back
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape", "g")
        await pilot.pause()
        assert app.screen is editor and not editor.has_class("rtl")
        assert "Your guess goes with" in screen_text(app) and editor.query_one(TextArea).text == "return card.rank > 1"
        await pilot.press("ctrl+s")                         # the draft goes as a guess (a wrong one)
        await settle(pilot, app)
        assert board.obs.failed_guesses == ("return card.rank > 1",)
        await pilot.press("g")
        await pilot.pause()
        assert app.screen is editor and editor.query_one(TextArea).text == ""
        assert "Write a rule." in screen_text(app)
        await pilot.press(*EVEN, "ctrl+s")                  # right: the game is over
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen) and app.is_screen_installed(editor)
        await pilot.press("r")                              # a rematch: the old board's editor goes with it
        await settle(pilot, app)
        assert app.board is not board and not app.is_screen_installed(editor)
        await pilot.pause()
        assert not editor.is_attached
        await pilot.press("g")
        await pilot.pause()
        second = app.screen
        assert isinstance(second, GuessScreen) and second is not editor and second.query_one(TextArea).text == ""
        await pilot.press("ctrl+c", "y")                    # quitting with the editor open ends cleanly
        await pilot.pause()
    assert app.return_code == 0 and app.failure is None


async def test_the_kept_editor_after_a_language_switch_looks_as_one_composed_in_that_language() -> None:
    async def editor_screen(lang: str, switch: bool) -> str:
        app = eleusis_app(lang)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            if switch:                                  # composed in English, put away, L on the board
                await pilot.press("g")
                await pilot.pause()
                await pilot.press("escape", "l")
                await pilot.pause()
            await pilot.press("g")
            await pilot.pause()
            await pilot.press(*"return open(card)")
            await pilot.pause()
            assert isinstance(app.screen, GuessScreen) and app.lang == "ar"
            return screen_text(app)
    assert await editor_screen("en", switch=True) == await editor_screen("ar", switch=False)


async def test_the_rules_screen_shows_example_rules_in_the_rule_language() -> None:
    app = eleusis_app()
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        text = screen_text(app)
        assert "The rule language by example" in text and "return card.rank % 2 == 0" in text


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


async def test_a_round_is_recorded_move_by_move_resumed_and_finished(db: Path) -> None:
    with Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--param", "rule=0", "--name", "ada", "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            for _ in range(3):
                await pilot.press("1", "enter")
                await settle(pilot, app)
            await quit_by_keys(pilot, app)
        [saved] = store.games()
        assert (saved.status, saved.game, saved.agent, saved.seats) == (
            IN_PROGRESS, "eleusis", human_spec("ada"), (human_spec("ada"),))
        assert saved.moves == 3 and len(store.decisions(saved.id)) == 3
        position = app.board.session.match.state.to_json()

        app = app_for(store, "--resume", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.board.session.match.state.to_json() == position
            await guess_by_keys(pilot, app, EVEN)
            assert isinstance(app.screen, GameOverScreen)
        [done] = store.games()
        assert done.id == saved.id and done.status == STORED_FINISHED and done.moves == 4
        assert "card.rank % 2 == 0" in store.decisions(done.id)[-1].move
    out = db.parent / "people.jsonl"                      # exported like every human game
    assert main(["baseline", "export", str(out), "--db", str(db)]) == 0
    [line] = out.read_text(encoding="utf-8").splitlines()
    exported = json.loads(line)
    assert (exported["game"], exported["score"], exported["reason"]) == ("eleusis", 31.0 - 4, "solved")
    assert len(exported["decisions"]) == 4


def test_play_refuses_an_opponent_for_a_one_seat_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "eleusis", "--vs", "random", "--name", "ada"]) == 2
    assert "--vs: eleusis is played alone, with no opponent and one seat; leave --vs out" in capsys.readouterr().err


def test_play_says_when_a_game_has_no_screen(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    import tcgtui.tui.games as games
    monkeypatch.setattr(games, "has_screen", lambda gid: gid != "eleusis")
    assert main(["play", "--game", "eleusis", "--name", "ada"]) == 2
    err = capsys.readouterr().err
    assert "--game: eleusis has no screen to be played on yet" in err and "is not a game" not in err


async def test_the_home_screen_opens_eleusis_alone() -> None:
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games")
        await pilot.press(*["down"] * games.values.index("eleusis"))
        await pilot.pause()
        assert app.screen.query_one("#opponents").values[0] == "-"          # alone first; then races
        assert "you play alone" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, EleusisScreen) and len(app.board.session.seats) == 1
        await pilot.press("1", "enter")
        await settle(pilot, app)
        assert len(app.board.session.decisions) == 1


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_with_a_judge_a_person_guesses_in_words_through_the_real_test_server(lang: str) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    words = {"en": "even ranks only", "ar": "الرتب الزوجية فقط"}[lang]
    with ChatServer(policy=game_policy("eleusis", translations={words: EVEN})) as server:
        app = ArenaApp(Settings((HUMAN,), game_id="eleusis", params={"rule": 0}, lang=lang, seed=3, pause=0.0,
                                agent_options={"judge": "llm:translator", "base_url": server.base_url}))
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("g")
            await pilot.pause()
            assert app.screen.query_one(TextArea).language is None     # words: no rule checker, no highlighting
            app.screen.query_one(TextArea).insert(words)            # typed (Arabic has no keys in the Pilot)
            await pilot.pause()
            await pilot.press("ctrl+s")
            for _ in range(100):                                     # the translator answers over HTTP
                if app.board.session.result is not None:
                    break
                await pilot.pause(0.05)
            await settle(pilot, app)
            result = app.board.session.result
            assert result is not None and result.outcome.reason == "solved" and result.outcome.scores == (30.0,)
            sent = [r.json for r in server.requests]
            assert sent and all(r["model"] == "translator" and r["temperature"] == 0 for r in sent)
            assert words in sent[0]["messages"][-1]["content"]
            from tcgtui.engine.eleusis.moves import parse_play
            play = parse_play(app.board.session.decisions[0].move)
            assert (play.rule, play.code, play.guess) == (words, EVEN, True)


async def test_dealer_mode_the_person_writes_the_rule_and_watches_the_scientist(db: Path) -> None:
    from tcgtui.deals import WATCH_RUN
    with Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--dealer", "scientist", "--name", "ada", "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GuessScreen) and app.board is None       # the rule first
            assert "scientist will look for it" in screen_text(app) and "deal with this rule" in screen_text(app)
            await pilot.press(*"return open(card)", "ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, GuessScreen) and app.board is None       # not a rule: refused
            app.screen.query_one(TextArea).text = ""
            await pilot.press(*"return card.color == 'red'", "ctrl+s")
            await settle(pilot, app)
            assert app.board is not None and app.board.session.spectating
            assert app.game.rule_code == "return card.color == 'red'"
            for _ in range(200):
                if app.board.session.result is not None:
                    break
                await pilot.pause(0.05)
            await settle(pilot, app)
            assert isinstance(app.screen, GameOverScreen)
            assert app.board.session.result.outcome.reason == "solved"
            assert "return card.color == 'red'" in screen_text(app)
        [row] = store.games()
        assert (row.agent, row.opponent, row.status) == ("scientist", "", STORED_FINISHED)
        assert row.game_params["rule_code"] == "return card.color == 'red'"
        assert [r.name for r in store.runs()] == [WATCH_RUN]


async def test_dealer_mode_escape_leaves_without_a_game(db: Path) -> None:
    with Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--dealer", "random", "--name", "ada")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        assert app.board is None and not store.games()


async def test_race_the_scientist_plays_the_same_deal_out_of_sight_until_both_rounds_end(db: Path) -> None:
    from tcgtui.tui.games.eleusis import MainlineView
    with Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--param", "rule=0", "--race", "scientist", "--name", "ada",
                      "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            board = app.board
            for _ in range(2400):                    # the scientist finishes its round (in its own process) while the person thinks
                if board.rival_result is not None:
                    break
                await pilot.pause(0.05)
            assert board.rival_result is not None and board.rival_result.outcome.reason == "solved"
            text = screen_text(app)
            assert "scientist has finished" in text and "scored" not in text       # nothing of its round shows
            assert not board.query_one("#rival-mainline", MainlineView).display
            await pilot.press("1", "enter")
            await settle(pilot, app)
            await guess_by_keys(pilot, app, EVEN)
            assert isinstance(app.screen, GameOverScreen)
            rival = board.rival_result.outcome.scores[0]
            over = screen_text(app)
            assert f"scientist scored {rival:g} on the same deal" in over
            await pilot.press("b")                       # back to the board: both rounds side by side
            await pilot.pause()
            assert board.query_one("#rival-mainline", MainlineView).display
            assert board.query_one("#rival-mainline", MainlineView).board == board.rival_board
            assert f"scientist scored {rival:g} in {board.rival_result.turns} turns" in screen_text(app)
        games = {g.agent: g for g in store.games()}
        assert set(games) == {"human:ada", "scientist"}
        assert games["scientist"].seed == games["human:ada"].seed == 3
        assert games["scientist"].game_params["rule"] == 0 and games["scientist"].score == rival


async def test_race_against_a_model_through_the_real_test_server(db: Path) -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    policy = game_policy("eleusis", 3, rule="return card.color == 'red'", guess_from=2, confidence=8)
    with ChatServer(policy=policy) as server, Store(db) as store:
        app = app_for(store, "--game", "eleusis", "--param", "rule=7", "--param", "guess_format=code",
                      "--race", "llm:fake", "--base-url", server.base_url, "--name", "ada", "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            board = app.board
            assert "llm:fake: thinking, turn" in screen_text(app) or board.rival_result is not None
            await guess_by_keys(pilot, app, "return card.color == 'red'")      # the person solves on turn 1
            await settle(pilot, app)
            for _ in range(2400):                    # the game is over once the rival's round (its own process) is
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen) and board.rival_result is not None
            assert "llm:fake scored 29 on the same deal" in screen_text(app)
            assert not any("stream" in w.id for w in board.query("*") if w.id)   # its reasoning never shows
        assert {g.agent for g in store.games()} == {"human:ada", "llm:fake"}


ALTERNATE = "if not mainline:\n    return True\nreturn card.is_face != mainline[-1].is_face"   # rule 13


async def test_a_guess_is_judged_apart_and_keys_are_answered_meanwhile() -> None:
    """Rule 13 reads the mainline: the judge's full simulation takes seconds.  It runs in a child process
    (tcgtui.tui.games.eleusis_judging) while the screen says the judge is at work and the arrows still move the
    cursor; the round's move then takes the kept verdict (issue 26: the judge ran on the UI loop)."""
    from tcgtui.engine.eleusis import judge
    from tcgtui.tui.widgets.bars import TopBar
    app = eleusis_app(rule=13)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        board = app.board
        await pilot.press("g")
        await pilot.pause()
        app.screen.query_one("#rule", TextArea).text = ALTERNATE
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert board.busy and not board.session.decisions
        assert "The judge is thinking" in screen_text(app)
        assert board.query_one(TopBar).state.thinking == "The judge"
        before = board.cursor
        await pilot.press("right")               # answered while the judge works
        assert board.busy and board.cursor == (before + 1) % len(board.obs.hand)
        await pilot.press("enter")               # refused: the move is with the judge
        assert board.busy and not board.session.decisions
        await settle(pilot, app)
        assert not board.busy and len(board.session.decisions) == 1
        assert board.session.result is not None and board.session.result.outcome.reason == "solved"
        assert any(key[1].source == ALTERNATE for key, _ in judge.kept())


def test_rules_and_their_errors_survive_a_pickle() -> None:
    """The judging process gets a copy of the round and sends verdicts back: both pickle whole."""
    import pickle

    from tcgtui.engine.eleusis.rulelang import RuleError, compile_rule
    rule = compile_rule(ALTERNATE)
    again = pickle.loads(pickle.dumps(rule))
    assert again == rule and again.uses_mainline and again.accepts(parse_card("KH"), [parse_card("2C")])
    error = pickle.loads(pickle.dumps(RuleError("budget", "verdict", 3)))
    assert (error.kind, error.detail, error.line) == ("budget", "verdict", 3)
