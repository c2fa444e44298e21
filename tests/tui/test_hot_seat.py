"""Two people at one keyboard (``tcgtui play --vs human`` and home's "a second person"), played by keys
to the end: a public grid game with no curtain, the card game with a curtain between turns that hides
both hands; the game stored with two human seats, listed at home, and in no record against an opponent,
no baseline export and no report.  A real store (SQLite in a temporary folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tcgtui import config
from tcgtui.baseline import export
from tcgtui.cli import build_parser
from tcgtui.commands import play as play_command
from tcgtui.commands.home import Hub
from tcgtui.hub import read
from tcgtui.live import human_spec
from tcgtui.opponents.human import HUMAN
from tcgtui.report.data import load_games
from tcgtui.store import FINISHED, IN_PROGRESS, Store
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import screen_text, settle
from tcgtui.tui.screens.curtain import CurtainScreen
from tcgtui.tui.screens.dialogs import GameOverScreen, QuitScreen
from tcgtui.tui.screens.home import ChoiceList, GameList, HomeScreen, opponents_for
from tcgtui.tui.widgets.log import BattleLog

pytestmark = pytest.mark.anyio


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


def play_app(store: Store, *argv: str) -> ArenaApp:
    """The app ``tcgtui play ARGV`` would open, on ``store`` (the command's own code)."""
    args = build_parser().parse_args(["play", *argv, "--pause", "0"])
    handle = config.check_handle(args.name) if args.name else config.saved_handle()
    settings = (play_command.resume(args, store, handle) if args.resume
                else play_command.seat(play_command.start(args, handle), args, store, handle))
    return ArenaApp(settings)


def card_names(app: ArenaApp) -> set[str]:
    """Every card name of the pack, as far as a cut card face still shows it."""
    pack = app.board.session.game.pack  # type: ignore[union-attr]
    return {card.name(app.catalog.code)[:10] for card in pack.cards}


async def lift(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    """The next person presses Enter once the curtain has been down long enough to be theirs."""
    await pilot.pause(CurtainScreen.GUARD_S)
    await pilot.press("enter")
    await pilot.pause()


def first_legal(app: ArenaApp) -> tuple[str, ...]:
    """The keys of the first legal move where a key names the move (Connect Four's column digit, then
    Enter), else Enter (the card game's chosen card, tic-tac-toe's cursor, which moves to a free cell)."""
    legal = app.board.session.human_waiting().legal_moves
    return (legal[0], "enter") if app.board.session.game.name == "connect4" else ("enter",)


async def play_to_the_end(pilot, app: ArenaApp) -> int:  # type: ignore[no-untyped-def]
    """Both people play until the game is over; returns how many curtains came down.
    While a curtain is up no card of either hand (of the whole pack) is on screen; once the next
    person says they look, the board and the log show that seat, and its hand."""
    curtains = 0
    board = app.board
    for _ in range(400):
        await settle(pilot, app)
        session = board.session
        if session.result is not None:
            break
        if isinstance(app.screen, CurtainScreen):
            curtains += 1
            seat = app.screen.seat
            shown = screen_text(app)
            assert board.label_for(seat) in shown
            assert not [n for n in card_names(app) if n in shown]            # no hand, no board, no log
            await lift(pilot, app)
            await pilot.pause()
            assert app.screen is board and session.viewer == seat
            hand = session.observation(seat).hand
            if hand:
                assert app.board.pack.card(hand[0]).name(app.catalog.code)[:10] in screen_text(app)
            assert {e.seat for e in board.query_one(BattleLog).entries} <= {seat}
            continue
        assert app.screen is board
        mover = session.match.state.current_player
        assert session.viewer == mover          # the board shows the seat to move, and nobody else's
        await pilot.press(*first_legal(app))
    await pilot.pause()
    assert isinstance(app.screen, GameOverScreen)
    return curtains


def check_stored_between_people(path: Path, store: Store, game: str) -> None:
    """Two human seats, the handle's and a second person's; listed at home, in no record against an
    opponent, not exported as a baseline, not reported."""
    [row] = store.games()
    assert (row.status, row.game, row.agent, row.opponent) == (FINISHED, game, human_spec("ann"), HUMAN)
    assert row.seats == (human_spec("ann"), HUMAN)
    decided = {d.seat for d in store.decisions(row.id)}
    assert decided == {0, 1} and {d.agent for d in store.decisions(row.id)} == {human_spec("ann"), HUMAN}
    standings, listed = read(path, "ann", False)
    assert standings == [] and [g.id for g in listed] == [row.id]
    assert export(store, path.with_suffix(".jsonl"), include_text=False) == 0
    assert path.with_suffix(".jsonl").read_text() == ""
    assert load_games(store, None, game=None) == []


@pytest.mark.parametrize("game", ["tictactoe", "connect4"])
async def test_a_public_grid_game_between_two_people_needs_no_curtain(db: Path, game: str) -> None:
    with Store(db) as store:
        app = play_app(store, "--game", game, "--vs", "human", "--name", "ann", "--seed", "3")
        async with app.run_test(size=(120, 40)) as pilot:
            assert await play_to_the_end(pilot, app) == 0
            session = app.board.session
            assert session.hot_seat and not app.board.curtained
            assert app.board.label_for(0) == "ann" and app.board.label_for(1) == "Player 2"
            result = session.result.outcome
            summary = screen_text(app)
            assert ("ann wins." in summary if result.winner == 0 else
                    "Player 2 wins." in summary if result.winner == 1 else "A draw." in summary)
            assert "You win" not in summary and "You lose" not in summary
        check_stored_between_people(db, store, game)


async def test_the_card_game_between_two_people_hides_each_hand_behind_a_curtain(db: Path) -> None:
    with Store(db) as store:
        app = play_app(store, "--vs", "human", "--name", "ann", "--seed", "7")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, CurtainScreen) and app.screen.seat == 0    # before the first hand shows
            curtain = app.screen
            curtain.GUARD_S = 3600.0            # an Enter this soon after the curtain came down is the last
            await pilot.press("enter")          # player's double press: it lifts nothing
            await pilot.pause()
            assert app.screen is curtain
            del curtain.GUARD_S
            curtains = await play_to_the_end(pilot, app)
            turns = app.board.session.result.turns
            assert curtains >= turns - 1 >= 2          # one as each turn passes to the other person
        check_stored_between_people(db, store, "tcg")


async def test_a_game_between_two_people_is_left_and_resumed_behind_the_curtain(db: Path) -> None:
    with Store(db) as store:
        app = play_app(store, "--vs", "human", "--name", "ann", "--seed", "5", "--seat", "2")
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3):                                   # the first person, the second, the first
                await settle(pilot, app)
                assert isinstance(app.screen, CurtainScreen)
                await lift(pilot, app)
                await settle(pilot, app)
                await pilot.press("enter")
            await settle(pilot, app)
            assert isinstance(app.screen, CurtainScreen)
            await pilot.press("q")                              # Q leaves from the curtain too
            await pilot.pause()
            assert isinstance(app.screen, QuitScreen)
            await pilot.press("y")
            await pilot.pause()
        [saved] = store.games()
        assert (saved.status, saved.agent_seat, saved.seats) == (IN_PROGRESS, 1, (HUMAN, human_spec("ann")))
        position = app.board.session.match.state.to_json()
        to_move = app.board.session.match.state.current_player

        app = play_app(store, "--resume", "--name", "ann")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            assert app.board.session.match.state.to_json() == position
            assert isinstance(app.screen, CurtainScreen) and app.screen.seat == to_move
            assert app.board.label_for(1) == "ann" and app.board.label_for(0) == "Player 1"
            await play_to_the_end(pilot, app)
        [done] = store.games()
        assert done.id == saved.id and done.status == FINISHED and done.seats == (HUMAN, human_spec("ann"))


def hub_app(db: Path) -> tuple[ArenaApp, Store]:
    store = Store(db, create=True)
    return ArenaApp(Settings(home=True, lang="en", seed=5, pause=0.0, handle="ann", seats=(HUMAN, "mc:100"),
                             hub=Hub(store))), store


async def choose(pilot, app: ArenaApp, list_id: str, value: str) -> None:  # type: ignore[no-untyped-def]
    choices = app.screen.query_one(f"#{list_id}", ChoiceList)
    choices.focus()
    await pilot.pause()
    await pilot.press(*["down"] * ((choices.values.index(value) - choices.index) % len(choices.values)))
    assert choices.value == value


def test_home_offers_a_second_person_in_every_two_seat_game_only() -> None:
    from tcgtui.engine import registry
    from tcgtui.tui.games import has_screen
    for spec in registry.games():
        if has_screen(spec.id) and spec.info.variant_of is None:
            assert (HUMAN in opponents_for(spec.id)) == (spec.info.seats == 2), spec.id


@pytest.mark.parametrize("game", ["connect4", "tcg"])
async def test_two_people_play_from_home_to_the_end_and_are_back_home(db: Path, game: str) -> None:
    app, store = hub_app(db)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await choose(pilot, app, "games", game)
        await choose(pilot, app, "opponents", HUMAN)
        assert "Two people at one keyboard" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.settings.seats == (HUMAN, HUMAN) and app.board.session.hot_seat
        curtains = await play_to_the_end(pilot, app)
        assert (curtains > 0) == (game == "tcg")
        await pilot.press("q")                                  # the game-over dialog: leave
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        for _ in range(40):                                     # the store is read in a worker
            await pilot.pause(0.05)
            if app.screen.query_one("#stored", GameList).read:
                break
        stored = app.screen.query_one("#stored", GameList)
        assert [g.game for g in stored.games] == [game]
        line = stored.line(stored.games[0])                    # seats as a person reads them, not specs
        assert "a second person" in line and HUMAN not in line, line
        assert app.screen.standings == []
        await pilot.press("q")
    assert app.return_code in (0, None)
    check_stored_between_people(db, store, game)
    store.close()


async def test_a_duel_between_two_people_hides_the_secret_sample_behind_the_curtain() -> None:
    """The duel's sample solution is the proposer's secret: the curtain comes down before the solver
    sees the screen, and the solver's field starts empty.  Checks run in the local sandbox."""
    app = ArenaApp(Settings((HUMAN, HUMAN), game_id="duel", params={"rounds": 2}, seed=7, pause=0.0, handle="ann"))
    secret = "271828"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen) and app.screen.seat == 0
        await lift(pilot, app)
        board = app.board
        board.query_one("#value").value = secret               # the proposer's secret sample
        board.query_one("#code").load_text("def mystery(x):\n    return x * 2 == 543656\n")
        await board.run_action("send")                          # sent once the sandbox finds the sample works
        for _ in range(300):
            await pilot.pause(0.1)
            if isinstance(app.screen, CurtainScreen):
                break
        assert isinstance(app.screen, CurtainScreen) and app.screen.seat == 1
        assert secret not in screen_text(app) and "543656" not in screen_text(app)
        await lift(pilot, app)
        assert app.screen is board and board.session.viewer == 1
        assert "543656" in screen_text(app) and secret not in screen_text(app)     # the puzzle, not its sample
        assert board.query_one("#value").value == ""
        await board.run_action("quit_game")                    # the answer field has the letters
        await pilot.pause()
        await pilot.press("y")


async def test_the_quit_question_of_play_names_the_game_resume_carries_on(db: Path) -> None:
    """Several games may be unfinished (starting one abandons none), so "--resume carries on" names this one."""
    with Store(db) as store:
        app = play_app(store, "--game", "tictactoe", "--vs", "random", "--name", "ann", "--seed", "5")
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, QuitScreen)
            kept = app.deal.kept()[0]
            assert f"--resume {kept[:8]}" in screen_text(app)
            await pilot.press("y")
            await pilot.pause()
