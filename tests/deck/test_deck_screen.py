"""The quiz's screen driven as a person would: answer by letter, by number, by arrows and Enter,
by two clicks; the reveal (right card, win rates, the person's choice) until Enter; a model's
reply shown when watching.  Cards of a pack-made question in the reader's language."""

from __future__ import annotations

import asyncio

import pytest

from tcgtui import locales
from tcgtui.engine.deck import LETTERS
from tcgtui.engine.deck.view import NO_TYPE, deck_groups, in_language
from tcgtui.match import FINISHED
from tcgtui.games.deck.questions import load_set
from tcgtui.tui.app import HUMAN, ArenaApp, Settings
from tcgtui.tui.games.deck import DeckScreen, OptionCard
from tcgtui.tui.screens.dialogs import GameOverScreen
from tcgtui.tui.widgets.text import Caption
from tests.tui.helpers import screen_text, settle

pytestmark = pytest.mark.anyio
ANSWER = "B"           # question 0 of frontier-sample (its measured best)
WRONG = "C"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def quiz_app(lang: str = "en", seats: tuple[str, ...] = (HUMAN,), **agent_options: object) -> ArenaApp:
    return ArenaApp(Settings(seats, game_id="deck", params={"index": 0}, lang=lang, seed=0, pause=0.0,
                             agent_options=dict(agent_options)))


async def until(pilot, condition, tries: int = 100) -> None:  # type: ignore[no-untyped-def]
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.05)
        await asyncio.sleep(0.01)
    raise AssertionError("the screen did not get there")


def status(app: ArenaApp) -> Caption:
    return app.board.query_one("#status", Caption)


def card(app: ArenaApp, letter: str) -> OptionCard:
    return app.board.query_one(f"#option-{letter.lower()}", OptionCard)


async def revealed(pilot) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, lambda: pilot.app.board.reveal is not None and pilot.app.board.session.result is not None)
    await pilot.pause()


def test_the_question_in_the_first_set_is_as_the_tests_assume() -> None:
    assert load_set("x", "frontier-sample").questions[0].answer == ANSWER


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_person_answers_right_by_letter_and_sees_the_reveal(lang: str) -> None:
    app = quiz_app(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.board, DeckScreen) and status(app).key == "deck.ui.status.pick"
        await pilot.press(ANSWER.lower(), "enter")
        await revealed(pilot)
        board = app.board
        assert status(app).key == "deck.ui.status.right.you"
        assert card(app, ANSWER).has_class("-answer") and not any(card(app, x).has_class("-wrong") for x in LETTERS)
        text = screen_text(app)
        rates = board.session.game.qset.questions[0].win_rates
        for rate in rates:                                   # every option's measured win rate is shown
            assert f"{100 * rate:.1f}" in text
        assert not isinstance(app.screen, GameOverScreen)    # the reveal stays until Enter
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        result = board.session.result
        assert result.status == FINISHED and result.outcome.scores == (1.0,)


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_wrong_answer_by_number_marks_the_choice_and_the_answer(lang: str) -> None:
    app = quiz_app(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press(str(LETTERS.index(WRONG) + 1))
        await pilot.pause()
        assert app.board.reveal is None and app.board.selected == LETTERS.index(WRONG)    # selected, not answered
        await pilot.press("enter")
        await revealed(pilot)
        assert status(app).key == "deck.ui.status.wrong.you"
        assert status(app).params == {"chosen": WRONG, "answer": ANSWER}
        assert card(app, WRONG).has_class("-wrong") and card(app, ANSWER).has_class("-answer")
        assert app.board.session.result.outcome.scores == (0.0,)
        if lang == "en":                                     # Arabic reaches the screen shaped and reordered
            assert "◆ Your choice" in screen_text(app) and "the answer is B" in screen_text(app)


async def test_arrows_select_and_enter_answers() -> None:
    app = quiz_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert card(app, "A").has_class("-selected")
        await pilot.press("right", "down")                   # A -> B -> D (two cards a row)
        assert card(app, "D").has_class("-selected") and not card(app, "A").has_class("-selected")
        await pilot.press("up")
        assert card(app, "B").has_class("-selected")
        await pilot.press("enter")
        await revealed(pilot)
        assert app.board.session.decisions[-1].move == "B" and status(app).key == "deck.ui.status.right.you"


async def test_in_arabic_the_arrows_follow_the_row_read_right_to_left() -> None:
    app = quiz_app("ar")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("left")                            # A is on the right: left goes on to B
        assert card(app, "B").has_class("-selected")


async def test_a_click_selects_and_a_second_click_answers() -> None:
    app = quiz_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.click("#option-e")
        assert card(app, "E").has_class("-selected") and app.board.session.result is None
        await pilot.click("#option-e")
        await revealed(pilot)
        assert app.board.session.decisions[-1].move == "E"


async def test_keys_do_nothing_once_answered() -> None:
    app = quiz_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("a", "enter")
        await revealed(pilot)
        await pilot.press("b", "3")
        assert [d.move for d in app.board.session.decisions] == ["A"]


async def test_watching_a_model_shows_its_reply_under_the_cards() -> None:
    from tcgtui.opponents.llm.testserver import ChatServer, game_policy
    with ChatServer(policy=game_policy("deck", 3)) as server:
        app = ArenaApp(Settings(("llm:fake-model",), game_id="deck", params={"index": 0}, seed=0, pause=0.5,
                                agent_options={"base_url": server.base_url, "max_retries": 0, "api_key": "sk-test"}))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("space")                  # paused: the reveal stays until Enter
            await revealed(pilot)
            await until(pilot, lambda: app.board.query_one("#reply-title").display)
            chosen = app.board.session.decisions[-1].move
            text = screen_text(app)
            assert "fits the curve best" in text and f"ANSWER: {chosen}" in text
            assert status(app).key.endswith(".other") and "fake-model" in text
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameOverScreen))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_cards_of_a_pack_made_question_are_named_in_the_readers_language(lang: str) -> None:
    qset = load_set("x", "frontier-sample")
    q, pack, catalog = qset.questions[0], qset.packs["frontier"], locales.load(lang)
    shown = in_language(q, pack, catalog)
    ids = q.sim["options"]
    by_id = {c.id: c for c in pack.cards}
    assert [o.name for o in shown.options] == [by_id[i].name(lang) for i in ids]
    assert [o.type for o in shown.options] == [catalog.t(f"cards.type.{by_id[i].type}") for i in ids]
    groups = deck_groups(q, pack, catalog)
    assert sum(g.count for g in groups) == sum(c for _, c in q.deck) == 19
    for g in groups:                                     # every card under its own type
        assert {by_id[i].type for i, _ in q.sim["deck"].items() if by_id[i].name(lang) in dict(g.cards)} == {g.type}


def test_a_question_from_elsewhere_is_shown_as_written_in_one_group() -> None:
    from dataclasses import replace
    q = replace(load_set("x", "frontier-sample").questions[0], sim=None)
    catalog = locales.load("ar")
    assert in_language(q, None, catalog) == q
    assert [(g.type, g.cards) for g in deck_groups(q, None, catalog)] == [(NO_TYPE, q.deck)]


async def test_the_language_key_turns_every_text_and_the_order_of_the_cards() -> None:
    app = quiz_app("en")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        a, b = card(app, "A"), card(app, "B")
        assert a.region.x < b.region.x                       # English: A on the left
        await pilot.press("l")
        await pilot.pause()
        assert app.lang == "ar" and a.region.x > b.region.x  # Arabic: A on the right
        assert "Which card" not in screen_text(app)          # the status line follows the language too
        await pilot.press("left")
        assert card(app, "B").has_class("-selected")


async def test_the_quiz_starts_from_the_home_screen_with_the_default_set() -> None:
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games")
        await pilot.press(*["down"] * games.values.index("deck"), "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, DeckScreen) and app.board.session.game.qset.id == "frontier-sample"
        await pilot.press("a", "enter")
        await revealed(pilot)
        assert app.board.session.result.status == FINISHED


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_the_quiz_is_laid_out_as_every_game(lang: str) -> None:
    """Issue (second pass): the options where the other games have their board (left in English), the
    question inside a pane of the side panel with the deck and a log, and the options' pane keeping its
    width when the reveal makes its cards taller."""
    from tcgtui.tui.widgets.log import BattleLog
    app = quiz_app(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        screen = app.board
        options, side = screen.query_one("#options"), screen.query_one("#side")
        assert (options.region.x < side.region.x) == (lang == "en")
        assert screen.query_one("#status").parent.id == "question" and screen.query_one("#question").has_class("pane")
        width = options.region.width
        await pilot.press(WRONG.lower(), "enter")          # a letter selects, Enter answers (docs/keys.md)
        await until(pilot, lambda: screen.reveal is not None)
        await pilot.pause()
        assert options.region.width == width
        assert screen.query_one(BattleLog).virtual_size.height >= 1
