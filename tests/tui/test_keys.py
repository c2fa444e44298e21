"""Letter keys work with Shift, Caps Lock and an Arabic keyboard layout (issue 12 §4)."""

from __future__ import annotations

import pytest
from textual.screen import Screen

from tcgtui.engine import registry
from tcgtui.tui.games import has_screen, screen_for
from tcgtui.tui.keys import ARABIC_101, keys
from tcgtui.tui.screens import dialogs, home, rules
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tests.tui.helpers import make_app, play_moves, settle

pytestmark = pytest.mark.anyio


def test_a_letter_is_bound_in_both_cases_and_on_the_arabic_layout() -> None:
    assert keys("q,escape") == "q,Q,ض,escape"
    assert keys("n,full_stop") == "n,N,ى,full_stop,ز"
    assert keys("question_mark") == "question_mark,arabic_question_mark"


def _screens() -> list[type[Screen]]:
    games = {screen_for(g.info.id) for g in registry.games() if has_screen(g.info.id)}
    classes = sorted(games, key=lambda c: c.__name__)
    for mod in (dialogs, home, rules):
        classes += [c for c in vars(mod).values() if isinstance(c, type) and issubclass(c, Screen)]
    return classes


@pytest.mark.parametrize("cls", _screens(), ids=lambda c: c.__name__)
def test_every_letter_binding_of_every_screen_has_its_twins(cls: type[Screen]) -> None:
    for klass in cls.__mro__:
        for binding in vars(klass).get("BINDINGS", []):
            bound = binding.key.split(",")
            for key in bound:
                if len(key) == 1 and key.isascii() and key.isalpha():
                    twins = {key.lower(), key.upper(), ARABIC_101.get(key.lower(), key.lower())}
                    assert twins <= set(bound), (cls.__name__, binding.key)


async def test_arabic_layout_keys_quit_switch_language_and_rematch() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("م")                  # L on the Arabic layout: the language changes
        await pilot.pause()
        assert app.lang == "ar"
        await pilot.press("ض")                  # Q: the quit question
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("ى")                  # N: no, stay
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen)
        first = app.board
        await play_moves(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        await pilot.press("ق")                  # R: a rematch
        await pilot.pause()
        assert app.board is not first and app.board.session.seed == first.session.seed + 1


@pytest.mark.parametrize("where", ["dialog", "board"])
async def test_once_the_game_is_over_q_leaves_at_once_from_the_dialog_and_the_board(where: str) -> None:
    """One behaviour after a game: nothing is left to lose, so Q never asks "Leave this game?"."""
    app = make_app(seed=4)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await play_moves(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        if where == "board":
            await pilot.press("b")
            await pilot.pause()
            assert app.screen is app.board
        await pilot.press("q")
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen) and not app.is_running


def test_typed_digits_make_one_number_within_the_pause() -> None:
    from tcgtui.tui.keys import NUMBER_PAUSE_S, TypedNumber
    typed = TypedNumber()
    assert typed.type(1, 12, 0.0) == 1 and typed.type(2, 12, 0.5) == 12     # 1 then 2: the twelfth
    assert typed.type(3, 12, 0.6) == 3                                      # 123 is out of range: a fresh 3
    assert typed.type(1, 12, 0.7 + NUMBER_PAUSE_S) == 1                     # after a pause: a fresh number
    assert typed.type(0, 12, 5.0) is None and typed.type(9, 7, 6.0) is None # nothing selected


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_replay_hint_names_the_arrow_that_steps_forward(lang: str) -> None:
    """→ steps forward in every language (Arabic's hint said ←, which steps back)."""
    from tcgtui import locales
    from tcgtui.tui.screens.replay import ReplayScreen
    forward = {b.key for b in ReplayScreen.BINDINGS if b.action == "step(1)"}
    hint = locales.load(lang).t("replay.deal")
    assert "right" in forward.pop().split(",") and "→" in hint and "←" not in hint


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_home_tab_follows_the_reading_order_in_either_direction(lang: str) -> None:
    """Tab goes game, opponent, seats, language: right to left in Arabic, where the boxes are
    mirrored (Textual's own Tab followed the DOM, left to right); the arrows go toward their side."""
    from tcgtui.tui.app import ArenaApp, Settings
    app = ArenaApp(Settings(home=True, seed=3, pause=0.0, lang=lang))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        order = []
        for _ in range(4):
            order.append(app.focused.id)
            await pilot.press("tab")
        assert order == ["games", "opponents", "seats", "languages"]
        await pilot.press("shift+tab", "shift+tab")
        assert app.focused.id == "seats"
        await pilot.press("left" if lang == "ar" else "right")     # toward the language box
        assert app.focused.id == "languages"
