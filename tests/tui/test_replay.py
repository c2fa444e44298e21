"""The replay viewer on a stored game of each kind, ``tcgtui replay``'s one-line refusals, and the
marked moments checked against the games' own analyses.  The games are played by ``tcgtui bench``
into a real store (random players, seeded; the duel by the reference puzzler)."""

from __future__ import annotations

import pytest

from tcgtui.cli import main
from tcgtui.engine.grid.analysis import missed
from tcgtui.engine.tcg.describe import shown_lp
from tcgtui import locales
from tcgtui.replay.boards import draw
from tcgtui.replay.load import load
from tcgtui.store import Store
from tcgtui.tui.app import ArenaApp, Settings
from tcgtui.tui.driving import screen_text
from tcgtui.tui.games import replay_board_for
from tcgtui.tui.games.tcg.cards import CardRow
from tcgtui.tui.games.tcg.player import HiddenCards, PlayerBar
from tcgtui.tui.screens.replay import ReplayScreen

BENCH = {"tcg": [], "tictactoe": [], "connect4": [], "gomoku": [],
         "eleusis": ["--rules", "5", "--seeds", "1", "--param", "guess_format=code"],
         "deck": ["--param", "questions=frontier-sample"], "duel": ["--param", "rounds=2"]}
AGENT = {"eleusis": "scientist", "duel": "puzzler"}
VS = {"tcg": "random", "tictactoe": "random", "connect4": "random", "gomoku": "random", "duel": "puzzler"}


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> dict[str, object]:
    db = tmp_path_factory.mktemp("replay") / "games.sqlite3"
    for game, extra in BENCH.items():
        argv = ["bench", "--game", game, "--agent", AGENT.get(game, "random"), "--db", str(db), "--run", game,
                "--concurrency", "1", *extra]
        if game in VS:
            argv += ["--vs", VS[game]]
        if game != "eleusis":
            argv += ["--games", "1"]
        assert main(argv) == 0
    with Store(db, create=False) as store:
        return {"db": db, "ids": {g.game: g.id for g in store.games()}}


def visible(line: str) -> str:
    return " ".join(line.split())


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game", list(BENCH))
async def test_stepping_shows_the_board_as_it_was(stored, game: str, lang: str) -> None:
    with Store(stored["db"], create=False, read_only=True) as store:
        replay = load(store, stored["ids"][game][:10])            # a prefix is enough
    assert replay.row.game == game and len(replay.steps) == len(replay.row.record["moves"]) + 1
    app = ArenaApp(Settings(lang=lang, replay=replay))
    target = min(3, len(replay.steps) - 1)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.index == 0 and screen.has_class("rtl") == (lang == "ar")
        last = len(replay.steps) - 1
        await pilot.press(*["right"] * target, *(("right", "left") if target < last else ("left", "right")))
        await pilot.pause()
        assert screen.index == target
        text = visible(screen_text(app))
        table = replay_board_for(game)
        if table is not None:                   # the board the game is played on, at that position
            assert isinstance(screen.query_one("#replay-board"), table)
            shows_position(app, screen, replay.steps[target].state, lang)
        else:
            board = draw(replay, target, locales.load(lang), lang)
            if board.picture and board.picture[0].plain.strip():
                assert visible(board.picture[-1].plain)[:40] in text
            if lang == "en":
                assert visible(board.facts[0])[:30] in text if board.facts else True
        if lang == "en":
            assert f"Move {target} of {len(replay.steps) - 1}" in text
        await pilot.press("end")
        await pilot.pause()
        assert screen.index == len(replay.steps) - 1
        await pilot.press("home", "q")
        await pilot.pause()
    assert app._exception is None and app.return_code in (None, 0)


def shows_position(app, screen, state, lang: str) -> None:
    """The table drawn is the stored position: a grid's stones where the state has them; the card
    game's life, deck and both hands by name, as the rules hold them after that move."""
    if hasattr(state, "rows_text"):
        board = screen.query_one("#replay-board")
        assert board.obs.board == state.rows_text() and board.obs.last_move == state.last_move
        drawn = board.render().renderables                     # as large as the pane lets it be
        assert len(drawn) >= state.config.rows * min(board.cell()[1], 2) > 0
        return
    views = [state.observation(seat) for seat in (0, 1)]      # no person played: seat 1 on top
    for seat, where in ((1, "top"), (0, "bottom")):
        bar = screen.query_one(f"#replay-{where}-bar", PlayerBar).state
        assert bar.label == screen.player_name(seat) and bar.deck == views[seat].deck_sizes[seat]
        assert bar.lp == shown_lp(views[seat].lp[seat])
        hand = list(views[seat].hand)                # 120x40 is tall: the hands as cards, counted above
        assert screen.query_one(f"#replay-{where}-hidden", HiddenCards).hand == len(hand)
        assert [slot.card for slot in screen.query_one(f"#replay-{where}-hand", CardRow).slots] == hand
    if lang == "en":
        names = visible(screen_text(app))
        assert all(screen.files[0].card(view.hand[0]).name(lang).split()[0] in names for view in views if view.hand)


def test_grid_moments_agree_with_the_report_analysis(stored) -> None:
    with Store(stored["db"], create=False, read_only=True) as store:
        for game in ("tictactoe", "connect4", "gomoku"):
            replay = load(store, stored["ids"][game])
            counted = missed(replay.row.record)["seats"]
            for seat in (0, 1):
                marks = [s.moment[0] for s in replay.steps if s.moment and s.seat == seat]
                assert marks.count("replay.moment.missed_win") == counted[seat]["missed_wins"]
                assert marks.count("replay.moment.missed_block") == counted[seat]["missed_blocks"]


def test_a_wrong_deck_answer_and_failed_duel_checks_are_marked(stored) -> None:
    with Store(stored["db"], create=False, read_only=True) as store:
        deck = load(store, stored["ids"]["deck"])
        duel = load(store, stored["ids"]["duel"])
    wrong = deck.row.score == 0
    assert any(s.moment and s.moment[0] == "replay.moment.wrong_answer" for s in deck.steps) == wrong
    failed = [e for s in duel.steps for e in s.events if e.kind == "checked" and e.data.get("result") != "true"]
    assert len([s for s in duel.steps if s.moment]) == len({id(s) for s in duel.steps
                                                            for e in s.events if e in failed})


@pytest.mark.parametrize("given, needle", [("zz!", "is not a game id"), ("ffffffff", "no stored game"),
                                           ("", "is not a game id")])
def test_bad_ids_are_one_line(stored, capsys, given: str, needle: str) -> None:
    assert main(["replay", given, "--db", str(stored["db"])]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_ambiguous_prefix_names_the_games(stored, capsys) -> None:
    ids = list(stored["ids"].values())
    prefix = next((a[:n] for n in range(1, 4) for a in ids for b in ids if a != b and a[:n] == b[:n]), None)
    if prefix is None:
        pytest.skip("no two stored ids share a first character")   # 7 random ids over 16 digits: rare
    assert main(["replay", prefix, "--db", str(stored["db"])]) == 2
    err = capsys.readouterr().err
    assert "type more of it" in err and err.count("\n") == 1


def test_a_game_under_way_is_not_replayed(tmp_path, capsys) -> None:
    """Its replay would show the opponent's hidden cards while it can still be continued."""
    from tcgtui.store.rows import pending_row
    game = __import__("tcgtui.engine.registry", fromlist=["get"]).get("tictactoe").game({})
    db = tmp_path / "g.sqlite3"
    with Store(db, create=True) as store:
        row = pending_row(game, seed=1, agent="human:ann", opponent="random", lang="en", game_index=0,
                          agent_seat=0, run_id=None, started_at="2026-01-01T00:00:00")
        store.start_game(row)
    assert main(["replay", row.id[:8], "--db", str(db)]) == 2
    said = capsys.readouterr().err
    assert "still under way" in said and "from home" in said and "bench" not in said


def test_a_run_game_under_way_points_to_the_run_not_to_home(tmp_path, capsys) -> None:
    """A bench run's game is finished by running the run's command again, not from home (issue 26)."""
    from tcgtui.engine import registry
    from tcgtui.store.rows import pending_row
    game = registry.get("tictactoe").game({})
    db = tmp_path / "g.sqlite3"
    with Store(db, create=True) as store:
        run = store.create_run("night-run", {})
        row = pending_row(game, seed=1, agent="random", opponent="mc:100", lang="en", game_index=0,
                          agent_seat=0, run_id=run.id, started_at="2026-01-01T00:00:00")
        store.start_game(row)
    assert main(["replay", row.id[:8], "--db", str(db)]) == 2
    said = capsys.readouterr().err
    assert "night-run" in said and "tcgtui bench" in said and "--resume" not in said


def test_card_game_lethal_marks_hold_in_the_engine(tmp_path) -> None:
    """Every 'lethal not taken' step had a card that won at once and played another; every 'lethal not
    answered' step left the opponent a winning card.  Six seeded random games show both."""
    db = tmp_path / "tcg.sqlite3"
    assert main(["bench", "--game", "tcg", "--agent", "random", "--vs", "random", "--games", "6", "--db", str(db),
                 "--concurrency", "1"]) == 0
    seen = set()
    with Store(db, create=False, read_only=True) as store:
        for row in store.games():
            replay = load(store, row.id)
            for before, step in zip(replay.steps, replay.steps[1:]):
                if step.moment is None:
                    continue
                kind = step.moment[0].rsplit(".", 1)[-1]
                seen.add(kind)
                winners = []
                for move in before.state.legal_moves():
                    after = before.state.clone()
                    after.apply(move)
                    if after.outcome is not None and after.outcome.winner == step.seat:
                        winners.append(move)
                if kind == "lethal_missed":
                    assert winners and step.move not in winners
                else:
                    assert kind == "lethal_unanswered" and not step.state.is_terminal()
                    replies = []
                    for move in step.state.legal_moves():
                        after = step.state.clone()
                        after.apply(move)
                        replies.append(after.outcome is not None and after.outcome.winner == 1 - step.seat)
                    assert any(replies)
    assert seen == {"lethal_missed", "lethal_unanswered"}


@pytest.mark.anyio
async def test_a_person_is_named_by_their_handle_as_everywhere_else() -> None:
    """The board, home and the game-over summary say ``ann``; the replay said ``human:ann``."""
    from tests.tui.test_home_replay_snapshots import stored_game
    app = ArenaApp(Settings(lang="en", replay=stored_game()))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "llm:demo-model – ann" in text and "human:" not in text
        await pilot.press("q")


@pytest.mark.anyio
async def test_a_short_terminal_names_the_card_games_hands_on_a_line(stored) -> None:
    """At 80x24 there is no room for two more rows of cards: each hand is a line of names."""
    with Store(stored["db"], create=False, read_only=True) as store:
        replay = load(store, stored["ids"]["tcg"][:10])
    app = ArenaApp(Settings(lang="en", replay=replay))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right", "right")
        await pilot.pause()
        views = [replay.steps[2].state.observation(seat) for seat in (0, 1)]
        assert app.screen.query_one("#replay-bottom-hidden", HiddenCards).hand == list(views[0].hand)
        assert not app.screen.query_one("#replay-bottom-hand", CardRow).display
        await pilot.press("q")
    assert app._exception is None
