"""A game's options set on the home screen, as a person sets them (Tab, typing, up and down): the game
started gets exactly what ``tcgtui play --game G --param NAME=V`` gives it, the defaults where nothing
was touched; a bad value (out of bounds, a missing file) is one line at home, nothing started.
The games go to a real store (SQLite in a temporary folder)."""

from __future__ import annotations

import argparse

import pytest

from tcgtui.arena import given_params
from tcgtui.engine import registry
from tcgtui.tui.driving import settle
from tcgtui.tui.screens.home import HomeScreen
from tcgtui.tui.screens.home_params import ParamChoice, ParamInput, ParamsBox, offered

from tests.tui.test_home_hub import back_home, choose, hub_app

pytestmark = pytest.mark.anyio


def cli_given(game_id: str, *items: str) -> dict:
    """What ``tcgtui play --game GAME_ID --param ITEM...`` keeps as given (commands/options.settings_from)."""
    return given_params(argparse.Namespace(game=game_id, param=list(items)), registry.get(game_id))


async def type_into(pilot, app, game_id: str, name: str, text: str) -> None:
    field = app.screen.query_one(f"#param-{game_id}-{name}", ParamInput)
    field.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(field.value), *text)
    assert field.value == text


async def errors(app) -> list[str]:
    return [n.said for n in app._notifications if n.severity == "error"]   # as written, not as drawn


def test_home_offers_the_declared_options_only() -> None:
    assert [p.name for p in offered("eleusis")] == ["rule", "max_turns"]
    assert [p.name for p in offered("duel")] == ["rounds"]
    assert [p.name for p in offered("tictactoe")] == ["size", "position", "to_move"]
    assert [p.name for p in offered("connect4")] == ["position", "to_move"]           # one board only
    assert [p.name for p in offered("tcg")] == ["pack", "deck", "opp_deck"]
    assert all(p.help_key and p.label_key for s in registry.games() for p in offered(s.id))


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_eleusis_with_a_short_round_and_a_chosen_rule_from_home(tmp_path, lang: str) -> None:
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "eleusis")
        await type_into(pilot, app, "eleusis", "max_turns", "5")
        await type_into(pilot, app, "eleusis", "rule", "3")
        await pilot.press("enter")             # Enter in an option plays, as in the model's input
        await settle(pilot, app)
        assert app.board is not None and app.settings.game_id == "eleusis"
        assert app.settings.given == cli_given("eleusis", "max_turns=5", "rule=3")
        assert app.game.max_turns == 5 and app.game.setup()["rule"] == 3
        await pilot.press("1", "enter")
        await settle(pilot, app)
        await back_home(pilot, app, "eleusis")
        await pilot.press("q")
    [row] = store.games("agent = ?", ("human:ann",))
    assert row.game_params["max_turns"] == 5 and row.game_params["rule"] == 3
    assert app._exception is None and app.refusal is None
    store.close()


async def test_the_duel_with_four_rounds_then_the_default_again(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "duel")
        await choose(pilot, app, "opponents", "puzzler")
        await type_into(pilot, app, "duel", "rounds", "4")
        await app.screen.run_action("play")
        await settle(pilot, app)
        assert app.settings.given == cli_given("duel", "rounds=4") and app.game.setup()["rounds"] == 4
        await back_home(pilot, app, "duel")
        await type_into(pilot, app, "duel", "rounds", "10")
        await app.screen.run_action("play")
        await settle(pilot, app)
        assert app.settings.given == cli_given("duel") and app.game.setup()["rounds"] == 10
        await back_home(pilot, app, "duel")
        await pilot.press("q")
    assert app._exception is None
    store.close()


async def test_a_grid_position_with_its_player_to_move_chosen_by_arrows(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "tictactoe")
        await choose(pilot, app, "opponents", "random")
        await type_into(pilot, app, "tictactoe", "position", "X../.O./...")
        await pilot.press("tab")                       # to the next option: who moves
        to_move = app.screen.query_one("#param-tictactoe-to_move", ParamChoice)
        assert to_move.has_focus and to_move.text == ""
        await pilot.press("down")
        assert to_move.text == "X"
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.settings.given == cli_given("tictactoe", "position=X../.O./...", "to_move=X")
        assert app.game.setup()["position"] == "X../.O./..."
        await back_home(pilot, app, "tictactoe")
        await pilot.press("q")
    assert app._exception is None
    store.close()


async def test_an_untouched_game_gets_every_default(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "eleusis")
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.settings.given == cli_given("eleusis") and app.game.max_turns == 30
        await back_home(pilot, app, "eleusis")
        await pilot.press("q")
    store.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game_id, name, text, said", [
    ("eleusis", "max_turns", "200", ("max_turns=200: expected an integer from 1 to 104",
                                     "max_turns=200: المتوقع عدد صحيح من 1 إلى 104")),
    ("eleusis", "rule", "often", ("rule='often': expected an integer from 0 to 25, or drawn",
                                  "rule='often': المتوقع عدد صحيح من 0 إلى 25، أو drawn")),
    ("duel", "rounds", "", ("rounds='': expected an integer from 2 to 100",
                            "rounds='': المتوقع عدد صحيح من 2 إلى 100")),
    ("deck", "questions", "no-such-set.jsonl", "no-such-set.jsonl"),
    ("tcg", "deck", "missing-deck.toml", "missing-deck.toml"),
    ("tcg", "pack", "no-such-pack", "no-such-pack: no such directory or built-in pack"),
    ("tictactoe", "position", "XX/", "--game tictactoe"),
])
async def test_a_bad_option_is_one_line_at_home(tmp_path, lang: str, game_id: str, name: str, text: str,
                                                said: str | tuple[str, str]) -> None:
    """A refused value is said in the person's language (what was expected too), by its label."""
    if isinstance(said, tuple):
        said = said[lang == "ar"]
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", game_id)
        await type_into(pilot, app, game_id, name, text)
        await app.screen.run_action("play")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen) and app.board is None and app.refusal is None
        [line] = await errors(app)
        assert said in line and "\n" not in line and "Traceback" not in line
        label = app.catalog.t(registry.get(game_id).info.param(name).label_key)
        assert line.startswith(label) or not said.startswith(name)   # a value the parser refuses: by its label
        await pilot.press("q")
    assert app._exception is None and app.refusal is None
    store.close()


async def test_the_options_follow_the_game_and_keep_what_was_typed(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#params", ParamsBox)
        await choose(pilot, app, "games", "eleusis")
        await type_into(pilot, app, "eleusis", "max_turns", "7")
        assert "104" in app.screen.query_one("#about").render().text     # the option in focus explained
        await choose(pilot, app, "games", "duel")
        assert [f.param.name for f in box.fields()] == ["rounds"]
        assert not app.screen.query_one("#params-eleusis").display
        await choose(pilot, app, "games", "eleusis")
        assert app.screen.query_one("#param-eleusis-max_turns", ParamInput).value == "7"
        await pilot.press("q")
    store.close()
