"""People's games: saved after every move, resumed exactly, exported and merged, on a ladder."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import Agent, Decision
from tcgtui.opponents.registry import make_agent
from tcgtui import config
from tcgtui.baseline import export, import_games, read_files
from tcgtui.cli import build_parser
from tcgtui.commands import play as play_command
from tcgtui.deals import unmet_seed
from tcgtui.games.tcg.campaign import LADDER, open_campaign, unfinished_game
from tcgtui.errors import UserError
from tcgtui.live import LiveGame, abandon_unfinished, human_spec, unfinished
from tcgtui.match import run_match
from tcgtui.report import analyses
from tcgtui.report.data import load_games
from tcgtui.store import ABANDONED, FINISHED, IN_PROGRESS, Store


class Person(Agent):
    """Plays the last card of its hand after a think; stops answering after ``quit_after`` moves."""

    spec = "human:ada"

    def __init__(self, quit_after: int | None = None) -> None:
        self.quit_after, self.moves = quit_after, 0

    async def decide(self, obs, events) -> Decision:
        if self.quit_after is not None and self.moves >= self.quit_after:
            await asyncio.Event().wait()            # the person walked away
        self.moves += 1
        return Decision(obs.legal_moves[-1])


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "t.sqlite3") as s:
        yield s


def play(live: LiveGame, agents) -> object:
    return asyncio.run(run_match(live.game, live.match.seed, agents, match=live.match,
                                 on_decision=live.on_decision))


def begin(store: Store, game: TcgGame, seed: int, seat: int = 0, **kw) -> LiveGame:
    return LiveGame.begin(store, game, seed, agent=human_spec("ada"), opponent="mc:10", agent_seat=seat,
                          lang="en", resume={"pack": "community", "vs": "mc:10"}, **kw)


def seats(seat: int, person: Agent) -> tuple:
    other = make_agent("mc:10")
    return (person, other) if seat == 0 else (other, person)


def leave_after_first_move(live: LiveGame, seat: int = 0) -> None:
    """The person plays one card, then walks away (the process ends mid-game)."""
    async def go():
        task = asyncio.ensure_future(run_match(live.game, live.match.seed, seats(seat, Person(quit_after=1)),
                                               match=live.match, on_decision=live.on_decision))
        while len(live.match.moves) < 2 and not task.done():
            await asyncio.sleep(0.01)
        task.cancel()
    asyncio.run(go())


def test_quit_mid_game_keeps_every_move_and_resume_finishes_it_exactly_once(store, community):
    game = TcgGame(community)
    live = begin(store, game, seed=11)

    async def quit_midway():
        task = asyncio.ensure_future(run_match(game, 11, seats(0, Person(quit_after=4)), match=live.match,
                                               on_decision=live.on_decision))
        while len(live.match.moves) < 8 and not task.done():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        task.cancel()
    asyncio.run(quit_midway())
    [saved] = store.games()
    assert saved.status == IN_PROGRESS and saved.moves == 8 and len(saved.record["moves"]) == 8
    assert [d.idx for d in store.decisions(saved.id)] == list(range(8))

    reopened = LiveGame.reopen(store, unfinished(store, human_spec("ada"))[0])
    assert reopened.match.state.to_json() == live.match.state.to_json()
    result = play(reopened, seats(0, Person()))
    reopened.finish(result)
    [done] = store.games()
    decisions = store.decisions(done.id)
    assert done.status == FINISHED and done.id == saved.id
    assert [d.idx for d in decisions] == list(range(done.moves))
    assert done.record["moves"] == result.record.moves

    # The same game played straight through ends identically: resuming changed nothing.
    straight = begin(Store(store.path), game, seed=11)
    assert play(straight, seats(0, Person())).record.moves == done.record["moves"]


def test_a_game_never_resumed_becomes_abandoned_not_lost(store, community):
    game = TcgGame(community)
    first = begin(store, game, seed=1)
    untouched = begin(store, game, seed=3)
    second = begin(store, game, seed=2)
    leave_after_first_move(first)
    leave_after_first_move(second)
    assert not untouched.stored and len(store.games()) == 2       # a game never played is not kept
    assert abandon_unfinished(store, human_spec("ada"), keep=second.row.id) == 1
    statuses = {g.id: g.status for g in store.games()}
    assert statuses == {first.row.id: ABANDONED, second.row.id: IN_PROGRESS}
    report = analyses.build(load_games(store, None))
    [row] = [r for r in report.sections["win_rates"] if r["agent"] == human_spec("ada")]
    assert (row["finished"], row["losses"], row["abandoned"]) == (0, 0, 1)


def test_resume_takes_the_game_started_last_or_the_one_named(store, community):
    """With several unfinished games (starting one abandons none), --resume carries on the one
    started last and --resume GAME the one whose id starts with GAME; a GAME naming none is one line."""
    game = TcgGame(community)
    first, second = begin(store, game, seed=1), begin(store, game, seed=2)
    first.row.started_at, second.row.started_at = "2026-01-01T10:00:00+00:00", "2026-01-01T10:00:01+00:00"
    leave_after_first_move(first)
    leave_after_first_move(second)

    def resumed(*flags: str) -> str:
        args = build_parser().parse_args(["play", "--resume", *flags, "--pause", "0"])
        settings = play_command.resume(args, store, "ada")
        return settings.dealer_for(settings).first.row.id

    assert resumed() == second.row.id
    assert resumed(first.row.id[:8]) == first.row.id
    with pytest.raises(UserError) as refused:
        resumed("nosuchid")
    line = str(refused.value)
    assert "\n" not in line and "'nosuchid'" in line and first.row.id[:8] in line and second.row.id[:8] in line


def test_a_fresh_seed_is_one_the_person_never_met_in_that_game(store, community, monkeypatch):
    game = TcgGame(community)
    met = begin(store, game, seed=11)
    leave_after_first_move(met)
    draws = iter([11, 11, 12])
    monkeypatch.setattr("tcgtui.deals.secrets", SimpleNamespace(randbelow=lambda n: next(draws)))
    assert unmet_seed(store, human_spec("ada"), game.name) == 12
    draws = iter([11])
    assert unmet_seed(store, human_spec("bob"), game.name) == 11       # another person's deal is theirs


def test_play_deals_the_seed_sequence_it_is_given_else_a_fresh_seed_per_game(store, monkeypatch):
    """--seed S: S, then S+1 on a rematch, as ever (a session dealt again); no --seed: each game a fresh draw."""
    draws = iter([7, 9])
    monkeypatch.setattr("tcgtui.deals.secrets", SimpleNamespace(randbelow=lambda n: next(draws)))
    for flags, seeds in ((["--seed", "5"], [5, 6]), ([], [7, 9])):
        args = build_parser().parse_args(["play", "--game", "tictactoe", "--vs", "random", "--pause", "0", *flags])
        settings = play_command.seat(play_command.start(args, "ada"), args, store, "ada")
        dealer = settings.dealer_for(settings)
        first = dealer.deal(None, "en")
        assert [first.seed, dealer.deal(first, "en").seed] == seeds


def _finished_games(store: Store, community, seeds: list[int]) -> None:
    game = TcgGame(community)
    for seed in seeds:
        live = begin(store, game, seed=seed, seat=seed % 2)
        live.finish(play(live, seats(seed % 2, Person())))


def test_export_then_import_reproduces_the_human_rows(store, community, tmp_path):
    _finished_games(store, community, [1, 2, 3, 4])
    leave_after_first_move(begin(store, TcgGame(community), seed=9))   # unfinished: it travels as abandoned
    path = tmp_path / "ada.jsonl"
    assert export(store, path, include_text=False) == 5
    with Store(tmp_path / "fresh.sqlite3") as fresh:
        assert import_games(fresh, read_files([path])) == (5, 0)
        assert import_games(fresh, read_files([path])) == (0, 5)        # twice changes nothing
        rows = lambda s: [r for r in analyses.build(load_games(s, None)).sections["win_rates"]
                          if r["agent"].startswith("human")]
        original, merged = rows(store), rows(fresh)
        assert [(r["agent"], r["wins"], r["finished"], r["ci_low"], r["ci_high"], r["abandoned"] + r["unfinished"]) for r in merged] == \
               [(r["agent"], r["wins"], r["finished"], r["ci_low"], r["ci_high"], r["abandoned"] + r["unfinished"]) for r in original]
        assert sum(len(fresh.decisions(g.id)) for g in fresh.games()) == \
               sum(len(store.decisions(g.id)) for g in store.games())


def test_a_malformed_file_is_refused_with_file_and_line_and_nothing_is_imported(store, community, tmp_path):
    _finished_games(store, community, [1, 2])
    good = tmp_path / "good.jsonl"
    export(store, good, include_text=False)
    lines = good.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    broken = json.loads(lines[1])
    del broken["seed"]
    bad.write_text(lines[0] + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.jsonl:2: missing field 'seed'"):
        read_files([good, bad])
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"garbage.jsonl:1: not JSON"):
        read_files([garbage])
    with Store(tmp_path / "fresh.sqlite3") as fresh:
        assert fresh.games() == []


def test_private_pack_cards_stay_private_unless_asked(store, tmp_path):
    from tests.test_packs import edit
    import shutil
    from tcgtui.games.tcg.packs import load_pack, resolve
    private = tmp_path / "secret"
    shutil.copytree(resolve("starter"), private)
    edit(private / "text" / "en.toml", "Fireball", "Ember Lance")
    pack = load_pack(str(private))
    live = LiveGame.begin(store, TcgGame(pack), 3, agent=human_spec("ada"), opponent="random", agent_seat=0,
                          lang="en", resume={"pack": str(private), "vs": "random"})
    live.finish(play(live, (Person(), make_agent("random"))))
    plain, full = tmp_path / "plain.jsonl", tmp_path / "full.jsonl"
    export(store, plain, include_text=False)
    export(store, full, include_text=True)
    text = plain.read_text(encoding="utf-8")
    for secret in ("mighty_warrior", "fireball", "counterattack", "Ember Lance", str(private)):
        assert secret not in text
    line = json.loads(text)
    assert line["pack_hash"] == pack.hash and line["moves"] > 0
    assert all(m.startswith("card-") for m in line["record"]["moves"])
    rich = json.loads(full.read_text(encoding="utf-8"))
    assert rich["pack_text"]["en"]["fireball"]["name"] == "Ember Lance"
    assert str(private) not in full.read_text(encoding="utf-8")


def test_campaign_ladder_progress_and_pairing_with_bench(store, community):
    from tcgtui.bench.plan import deal_seed
    camp = open_campaign(store, "ada", community, "en", games=2, seed=5)
    assert [lvl.opponent for lvl in camp.levels] == list(LADDER) and camp.current() == 0
    game = TcgGame(community)
    for expected_index in (0, 1):
        opponent, index, seed, seat = camp.next_game()
        assert (opponent, index, seed, seat) == ("mc:1", expected_index, deal_seed(5, expected_index),
                                                  expected_index % 2)
        live = LiveGame.begin(store, game, seed, agent=human_spec("ada"), opponent=opponent, agent_seat=seat,
                              lang="en", resume={"pack": "community", "vs": opponent}, run_id=camp.run.id,
                              game_index=index)
        if expected_index == 1:
            leave_after_first_move(live, seat)      # left in the middle of the second game
            break
        live.finish(play(live, seats(seat, Person())))
        camp = open_campaign(store, "ada", community, "en", games=2)
    camp = open_campaign(store, "ada", community, "en", games=2)
    assert camp.levels[0].finished == 1 and camp.current() == 0
    waiting = unfinished_game(store, camp)
    assert waiting is not None and waiting.game_index == 1
    reopened = LiveGame.reopen(store, waiting)
    reopened.finish(play(reopened, seats(waiting.agent_seat, Person())))
    camp = open_campaign(store, "ada", community, "en", games=2)
    assert camp.levels[0].complete and camp.current() == 1 and camp.next_game()[0] == "mc:2"
    assert len(store.games()) == 2


def test_handle_is_kept_in_the_config_and_checked(tmp_path, monkeypatch):
    monkeypatch.setenv(config.ENV, str(tmp_path / "cfg" / "config.toml"))
    assert config.saved_handle() is None
    config.save_handle("ada_01")
    assert config.saved_handle() == "ada_01"
    with pytest.raises(UserError, match="--name: 'ada lovelace' is not a handle"):
        config.check_handle("ada lovelace")
    (tmp_path / "cfg" / "config.toml").write_text("handle = [", encoding="utf-8")
    with pytest.raises(UserError, match="not a readable settings file"):
        config.saved_handle()


def test_leaving_a_fresh_rematch_names_no_other_game(store, community, capsys):
    """Quitting at move 0 said "Game <an older one> is saved after move 1" (issue 12 §4)."""
    from tcgtui.commands.play import farewell
    from tcgtui.deals import person_deal
    game = TcgGame(community)
    older = begin(store, game, seed=5, run_id=None)
    leave_after_first_move(older)                      # an older unfinished game stays in the store
    fresh = begin(store, game, seed=6)
    farewell(store, "ada", person_deal(fresh))
    said = capsys.readouterr().out
    assert older.row.id[:8] not in said and "Nothing of the game you left is saved" in said

    leave_after_first_move(fresh)
    farewell(store, "ada", person_deal(fresh))
    said = capsys.readouterr().out
    assert fresh.row.id[:8] in said and older.row.id[:8] not in said and "after move 2" in said


def _one_exported_line(store, community, tmp_path) -> dict:
    _finished_games(store, community, [1])
    good = tmp_path / "good.jsonl"
    export(store, good, include_text=False)
    return json.loads(good.read_text(encoding="utf-8").splitlines()[0])


def _lie(line: dict, change) -> dict:
    out = json.loads(json.dumps(line))
    change(out)
    return out


LIES = {
    "negative decision idx": lambda g: g["decisions"][0].update(idx=-1),
    "negative decision seat": lambda g: g["decisions"][0].update(seat=-1),
    "seat past the game's": lambda g: g["decisions"][0].update(seat=7),
    "an idx twice": lambda g: g["decisions"][1].update(idx=g["decisions"][0]["idx"]),
    "negative turn": lambda g: g["decisions"][0].update(turn=-3),
    "negative turns": lambda g: g.update(turns=-1),
    "unknown game": lambda g: g.update(game="chess"),
    "unknown language": lambda g: g.update(lang="xx"),
    "escape in the opponent": lambda g: g.update(opponent="random\x1b[2J\x1b]0;pwned\x07"),
    "a person as the opponent": lambda g: g.update(opponent="human:bob"),
    "no player as the opponent": lambda g: g.update(opponent="nobody-at-all"),
    "a 50 MB info": lambda g: g["decisions"][0].update(info={"x": "a" * (50 << 20)}),
}


@pytest.mark.parametrize("lie", sorted(LIES))
def test_an_imported_line_that_lies_is_one_line_naming_file_and_line_and_nothing_is_stored(
        store, community, tmp_path, lie):
    line = _one_exported_line(store, community, tmp_path)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_lie(line, LIES[lie])) + "\n", encoding="utf-8")
    with pytest.raises(UserError) as refused:
        with Store(tmp_path / "fresh.sqlite3") as fresh:
            import_games(fresh, read_files([bad]))
    assert str(refused.value).startswith(f"{bad}:1: ") and "\n" not in str(refused.value)
    assert "\x1b" not in str(refused.value)
    with Store(tmp_path / "fresh.sqlite3") as fresh:
        assert fresh.games() == []


def test_a_winner_the_result_contradicts_is_refused(tmp_path):
    from tcgtui.baseline import parse_line
    from tcgtui.engine import registry
    grid = next(s.id for s in registry.games() if s.store.result_code is not None)
    record = {"game": grid, "seed": 1, "setup": {}, "moves": [], "outcome": None}
    line = {"format": "tcgtui-human-game", "version": 2, "id": "0123abcd", "agent": "human:ada", "opponent": "random",
            "lang": "en", "seed": 1, "agent_seat": 0, "game": grid, "status": "finished", "winner": 0,
            "result": "winner2nd", "reason": "line", "turns": 3, "moves": 5, "started_at": "2026-01-01",
            "record": record, "decisions": []}
    with pytest.raises(Exception) as refused:
        parse_line(json.dumps(line))
    assert "result" in str(refused.value) and "winner2nd" in str(refused.value)
