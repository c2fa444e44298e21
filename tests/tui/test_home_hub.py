"""Every game started from home, in English and Arabic, as a person plays it: choose the game and an
opponent, play a move where the game lets one be made at once, leave, be back at home with the game
listed, quit with status 0.  The games go to a real store (SQLite in a temporary folder)."""

from __future__ import annotations

import pytest

from tcgtui.commands.home import Hub
from tcgtui.engine import registry
from tcgtui.opponents.human import HUMAN
from tcgtui.store import Store
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import settle
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.home import CAMPAIGN, ChoiceList, GameList, HomeScreen, opponents_for

pytestmark = pytest.mark.anyio

# game: (opponent, the keys of one move by the person; () where a move needs typed text)
GAMES = {"tcg": ("random", ("enter",)), "tictactoe": ("random", ("enter",)), "connect4": ("random", ("enter",)),
         "gomoku": ("random", ("enter",)), "eleusis": ("-", ("1", "enter")), "deck": ("-", ("1", "enter")),
         "duel": ("puzzler", ())}
EDITOR = {"duel"}        # the duel's code editor claims the letters while focused: its own leave action


def hub_app(tmp_path, lang: str) -> tuple[ArenaApp, Store]:
    store = Store(tmp_path / "home.sqlite3", create=True)
    return ArenaApp(Settings(home=True, lang=lang, seed=5, pause=0.0, handle="ann", seats=(HUMAN, "mc:100"),
                             hub=Hub(store))), store


async def choose(pilot, app: ArenaApp, list_id: str, value: str) -> None:
    choices = app.screen.query_one(f"#{list_id}", ChoiceList)
    choices.focus()
    await pilot.pause()
    await pilot.press(*["down"] * ((choices.values.index(value) - choices.index) % len(choices.values)))
    assert choices.value == value


async def start(pilot, app: ArenaApp, game_id: str, opponent: str) -> None:
    """Choose a game and an opponent at home and start it, as a person does; back once the board waits."""
    await pilot.pause()
    await choose(pilot, app, "games", game_id)
    await choose(pilot, app, "opponents", opponent)
    await pilot.press("enter")
    await settle(pilot, app)


async def back_home(pilot, app: ArenaApp, game_id: str) -> None:
    """Leave as a person does: the leave key, then yes (or, once the game is over, quit)."""
    for _ in range(6):
        if isinstance(app.screen, HomeScreen):
            return
        if isinstance(app.screen, QuitScreen):
            await pilot.press("y")
        elif isinstance(app.screen, GameOverScreen):
            await pilot.press("q")
        elif app.board is not None and app.board.session.result is not None and game_id == "deck":
            await pilot.press("enter")             # the deck's reveal is read with Enter
        elif game_id in EDITOR:
            await app.screen.run_action("quit_game")
        else:
            await pilot.press("q")
        await pilot.pause(0.2)
    assert isinstance(app.screen, HomeScreen)


def test_home_offers_every_player_and_mc100_first() -> None:
    assert opponents_for("tcg")[:2] == ["mc:100", "mc:1000"] and opponents_for("tcg")[-1] == CAMPAIGN
    assert "ab:8" in opponents_for("connect4") and "threats" in opponents_for("gomoku")
    assert "perfect" in opponents_for("tictactoe") and opponents_for("duel")[0] == "puzzler"
    assert all(opponents_for(g.id)[0] == "-" for g in registry.games() if g.info.seats == 1)
    assert opponents_for("eleusis")[1:] == ["race:scientist", "race:random"]


async def test_a_race_against_the_scientist_from_home_is_stored(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, "eleusis", "race:scientist")
        assert app.settings.rival == "scientist" and app.settings.seats == (HUMAN,)
        for _ in range(40):                            # play until the round ends: the rival is then kept
            if app.board.session.result is not None:
                break
            await pilot.press("1", "enter")
            await settle(pilot, app)
        for _ in range(100):
            await pilot.pause(0.1)
            if store.games("agent = ?", ("scientist",)):
                break
        await back_home(pilot, app, "eleusis")
        await pilot.press("q")
    [rival] = store.games("agent = ?", ("scientist",))
    [person] = store.games("agent = ?", ("human:ann",))
    assert rival.seed == person.seed and rival.game_params.get("rule") == person.game_params.get("rule")
    store.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game_id", list(GAMES))
async def test_a_game_started_from_home_returns_there(tmp_path, game_id: str, lang: str) -> None:
    opponent, move = GAMES[game_id]
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, game_id, opponent)
        board = app.board
        assert board is not None and app.settings.game_id == game_id and board.has_class("rtl") == (lang == "ar")
        if move:
            await pilot.press(*move)
            await settle(pilot, app)
            assert any(d.seat == board.session.viewer for d in board.session.decisions)
        await back_home(pilot, app, game_id)
        assert app.board is None and app.catalog.code == lang
        for _ in range(20):                                  # the store is read in a worker
            await pilot.pause(0.05)
            if app.screen.query_one("#stored", GameList).read:
                break
        listed = app.screen.query_one("#stored", GameList).games
        if move:
            assert [g.game for g in listed] == [game_id] and listed[0].mine
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code in (None, 0) and app.refusal is None and app._exception is None
    store.close()


async def test_an_unfinished_game_is_continued_from_home(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, "tictactoe", "random")
        await pilot.press("enter")                     # X in the middle (the cursor starts there)
        await settle(pilot, app)
        before = [d.move for d in app.board.session.decisions]
        await back_home(pilot, app, "tictactoe")
        await pilot.pause(0.3)
        stored = app.screen.query_one("#stored", GameList)
        assert stored.games[0].status == "in_progress"
        stored.focus()
        await pilot.press("enter")                     # continue
        await settle(pilot, app)
        assert app.board is not None and app.settings.game_id == "tictactoe"
        assert [d.move for d in app.board.session.earlier] == before
        await back_home(pilot, app, "tictactoe")
        await pilot.press("q")
    store.close()


async def test_a_model_without_an_endpoint_is_one_line_at_home(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "tictactoe")
        await choose(pilot, app, "opponents", "llm:")
        app.screen.query_one("#model").value = "fake"
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, HomeScreen) and app.refusal is None
        said = [str(n.message) for n in app._notifications]     # said as a person at home can act on it
        assert any("not in your model registry" in m for m in said) and not any("--base-url" in m for m in said)
        await pilot.press("q")
    assert app._exception is None
    store.close()


async def test_ctrl_c_at_home_asks_then_ends_the_app(tmp_path) -> None:
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("y")
        await pilot.pause()
    assert app._exit_renderables == [] and app._exception is None and not app.is_running
    store.close()


async def test_escape_on_the_handle_question_goes_back_home(tmp_path) -> None:
    store = Store(tmp_path / "home.sqlite3", create=True)
    app = ArenaApp(Settings(home=True, seed=5, pause=0.0, ask_handle=True, seats=(HUMAN, "mc:100"),
                            hub=Hub(store)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", "tictactoe")
        await choose(pilot, app, "opponents", "random")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        await pilot.press("q")
    store.close()


def test_the_models_of_the_registry_are_offered(tmp_path, monkeypatch) -> None:
    models = tmp_path / "models.toml"
    models.write_text('[house]\nmodel = "house-model"\nbase_url = "http://127.0.0.1:9/v1"\n', encoding="utf-8")
    monkeypatch.setenv("TCGTUI_MODELS", str(models))
    offered = opponents_for("connect4")
    assert offered.index("llm:house") == offered.index("llm:") - 1
    assert "llm:house" not in opponents_for("eleusis")          # played alone (or raced by a reference)


def test_home_offers_no_seed_protocols_own_opponents() -> None:
    """Home plays tcgtui's protocol: rollout:K and mcts-seed:K (the released engine's, --protocol seed
    only) are not offered, every other reference is."""
    from tcgtui.tui.screens.home import opponents_for
    offered = opponents_for("tcg")
    assert not any(s.startswith(("rollout:", "mcts-seed:")) for s in offered)
    assert offered[:3] == ["mc:100", "mc:1000", "mcts:1000"] and "campaign" in offered


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_leaving_a_game_started_from_home_says_it_waits_at_home(tmp_path, lang: str) -> None:
    """The quit question names where the game is continued: home's list, not a command (issue 26)."""
    from tcgtui import locales
    from tests.tui.helpers import screen_text
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, "tictactoe", "random")
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and app.screen.home
        text = screen_text(app)
        assert "--resume" not in text
        if lang == "en":
            assert "Your games" in text
        assert app.screen.query("Question")[1].key == "ui.quit.saved_home"
        assert locales.load(lang).t("ui.quit.saved_home")
        await pilot.press("y")
        await pilot.pause(0.2)
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("q")
    store.close()


@pytest.mark.parametrize("size", [(80, 24), (200, 50)], ids=["80x24", "200x50"])
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_first_visit_shows_a_guide_not_an_empty_box(tmp_path, lang: str, size) -> None:
    """Issue 26: "Your games" was an empty half-screen on a fresh install.  With nothing stored it says
    how home works and what each game is; on a tall terminal the whole stands centred."""
    from tcgtui import locales
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=size) as pilot:
        for _ in range(20):
            await pilot.pause(0.05)
            if app.screen.query_one("#stored", GameList).read:
                break
        await pilot.pause()
        home = app.screen
        stored = home.query_one("#stored", GameList)
        assert stored.read and not stored.games
        assert home.has_class("no-games") == (size[1] >= 36)
        guide = stored.guide()
        assert guide[0].text == locales.load(lang).t("hub.no_games") and len(guide) == 2 + len(home.games)
        box = home.query_one("#stored-box")
        if size[1] >= 36:       # all of it shows, and no more than it needs
            assert box.region.height == stored.get_content_height(None, None, stored.size.width) + 2
            body = home.query_one("#home-body").region
            assert abs(body.y - 1 - (size[1] - 2 - body.height) // 2) <= 1
        else:                   # the guide takes the rest and scrolls
            assert box.region.bottom == size[1] - 1
        await pilot.press("q")
    store.close()


async def test_a_result_looked_at_then_left_goes_with_its_board(tmp_path) -> None:
    """The game-over dialog is kept while its board is looked at (closing it takes no removal),
    and goes when the board is left for home."""
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, "tictactoe", "random")
        while app.board.session.result is None:
            await pilot.press("enter")
            await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, GameOverScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.board and dialog.is_running, "kept while the board is looked at"
        await back_home(pilot, app, "tictactoe")
        await pilot.pause(0.2)
        assert not dialog.is_running and app.game_over is None
        assert not any(isinstance(s, GameOverScreen) for s in app._installed_screens.values())
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code in (None, 0) and app._exception is None
    store.close()


async def listed_games(pilot, app: ArenaApp) -> list:
    """Home's list once its worker has read the store."""
    stored = app.screen.query_one("#stored", GameList)
    for _ in range(40):
        await pilot.pause(0.05)
        if stored.read:
            break
    return stored.games


async def test_two_games_started_from_home_in_one_run_are_dealt_apart(tmp_path) -> None:
    """A person never meets a deal twice without asking (studies item 5): each game from home is dealt
    from its own seed, not the one drawn when tcgtui started."""
    app, store = hub_app(tmp_path, "en")
    seeds = []
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(2):
            await start(pilot, app, "tcg", "random")
            seeds.append(app.board.session.seed)
            await back_home(pilot, app, "tcg")
        await pilot.press("q")
    assert seeds[0] != seeds[1]
    store.close()


async def test_a_game_left_stays_continuable_after_a_new_one_starts(tmp_path) -> None:
    """Leaving says the game waits at home; starting another must not mark it abandoned behind the
    person's back: it stays in_progress, listed to continue, and carries on where it stopped."""
    app, store = hub_app(tmp_path, "en")
    async with app.run_test(size=(120, 40)) as pilot:
        await start(pilot, app, "tictactoe", "random")
        await pilot.press("enter")
        await settle(pilot, app)
        first, before = app.deal.kept()[0], [d.move for d in app.board.session.decisions]
        await back_home(pilot, app, "tictactoe")
        await start(pilot, app, "tictactoe", "random")
        await pilot.press("enter")
        await settle(pilot, app)
        second = app.deal.kept()[0]
        await back_home(pilot, app, "tictactoe")
        listed = await listed_games(pilot, app)
        assert {g.id: g.status for g in listed} == {first: "in_progress", second: "in_progress"}
        stored = app.screen.query_one("#stored", GameList)
        stored.focus()
        await pilot.pause()
        await pilot.press(*["down"] * [g.id for g in listed].index(first), "enter")     # continue the first
        await settle(pilot, app)
        assert app.deal.kept()[0] == first and [d.move for d in app.board.session.earlier] == before
        await back_home(pilot, app, "tictactoe")
        await pilot.press("q")
    store.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_home_lists_a_persons_result_as_theirs_and_names_people_by_handle(tmp_path, lang: str) -> None:
    """"you lost", not "player 2 won"; a game the person did not play names its winner; never ``human:``."""
    from tcgtui import locales
    from tcgtui.live import human_spec
    from tests.store_helpers import add_game
    app, store = hub_app(tmp_path, lang)
    add_game(store, None, human_spec("ann"), "random", lang, 0, result="loss", seat=0)
    add_game(store, None, human_spec("ann"), "random", lang, 1, result="win", seat=1)
    add_game(store, None, human_spec("bob"), "mc:100", lang, 2, result="win", seat=0)
    text = locales.load(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("a")                               # every stored game, bob's too
        await pilot.pause()
        stored = app.screen.query_one("#stored", GameList)
        stored.read = False
        listed = await listed_games(pilot, app)
        lines = {g.agent + str(g.seats.index(g.agent)): stored.line(g) for g in listed}
        assert lines["human:ann0"].endswith(text.t("hub.you_lost"))
        assert lines["human:ann1"].endswith(text.t("hub.you_won"))
        assert lines["human:bob0"].endswith(text.t("hub.won_by", seat=1, player="bob"))
        assert all("human:" not in line for line in lines.values())
        await pilot.press("q")
    store.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_the_about_text_of_a_language_model_reads_as_sentences(tmp_path, lang: str) -> None:
    """Choosing llm:MODEL explains it in one text; it was two glued ("...type its name below The model's...")."""
    import re
    from tcgtui.tui.screens.home import LLM
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "opponents", LLM)
        await pilot.pause()
        text = app.screen.query_one("#about").render().text
        assert "llm:MODEL" in text and text.rstrip().endswith(".")
        assert not re.search(r"[^.;:؛] (The|A) ", text), text       # no sentence begun inside another
        await pilot.press("q")
    store.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_at_200_columns_the_middle_row_stands_under_the_lists(tmp_path, lang: str) -> None:
    """About under the game list, options under the opponents, the record under seat and language
    (issue 34: at 200x50 the panes did not line up)."""
    app, store = hub_app(tmp_path, lang)
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        box = {name: app.screen.query_one(f"#{name}-box").region
               for name in ("games", "opponents", "seats", "languages", "about", "options", "record")}
        assert box["about"].x == box["games"].x and box["about"].right == box["games"].right
        assert box["options"].x == box["opponents"].x and box["options"].right == box["opponents"].right
        assert box["record"].x == min(box["seats"].x, box["languages"].x)           # mirrored in Arabic
        assert box["record"].right == max(box["seats"].right, box["languages"].right)
        await pilot.press("q")
    store.close()
