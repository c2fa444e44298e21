"""The puzzle bank: ``tcgtui duel mine`` turns recorded duels into a bank, and
``tcgtui bench --game duel --bank FILE`` has a player solve puzzle i in game i (``duel-bank``
is the id its records keep; nobody types it)."""

from __future__ import annotations

import json
from pathlib import Path


from tcgtui import locales
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import Match, replay
from tcgtui.engine.duel import Answer, Verdict
from tcgtui.engine.duel.prompter import DuelPrompter
from tcgtui.report.data import load_games
from tcgtui.store import Store


def bank_game(**params):
    spec = registry.get("duel-bank")
    return spec.make(spec.info.resolve(params))


def test_a_bank_game_is_one_answer_checked_by_the_referee():
    game = bank_game()
    match = Match(game, 2)
    assert match.state.current_player == 0 and match.state.observation(0).code == game.puzzles[2].code
    assert match.events[0].for_seat(0).data["puzzle"] == 2
    match.play(Answer("5").text())
    assert match.state.pending().code == game.puzzles[2].code and match.state.pending().value == "5"
    match.play(Verdict("true", 0.1).text())
    assert match.state.is_terminal() and match.state.returns() == [1.0]
    again = replay(game, match.record())
    assert again.state.to_json() == match.state.to_json()
    unusable = Match(bank_game(attempts=2), 0)
    unusable.play_invalid("no_solution", "hmm")
    unusable.play_invalid("no_solution", "hmm")
    assert unusable.state.is_terminal() and unusable.state.returns() == [0.0]
    assert unusable.state.outcome.reason == "failure"


def test_the_bank_prompt_is_the_solvers_without_a_duel_score():
    cat = locales.load("ar")
    obs = Match(bank_game(), 1).state.observation(0)
    text = DuelPrompter(bank_game(), cat, 0).turn(obs, [])["content"]
    assert cat.t("duel.prompts.solve.task") in text and obs.code.strip() in text
    assert cat.t("duel.prompts.score", round=1, rounds=0, mine=0, theirs=0) not in text


def test_mine_then_check_then_bench_the_bank(tmp_path, capsys):
    db, bank = str(tmp_path / "d.sqlite3"), tmp_path / "bank.jsonl"
    assert main(["bench", "--game", "duel", "--agent", "puzzler", "--vs", "puzzler", "--games", "2",
                 "--param", "rounds=4", "--db", db]) == 0
    assert main(["duel", "mine", "--db", db, "--out", str(bank)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in bank.read_text().splitlines()]
    assert rows and len({r["code"] for r in rows}) == len(rows)
    assert all({"code", "value", "proposer", "duel", "round", "outcome"} <= set(r) for r in rows)
    assert main(["duel", "check", str(bank)]) == 0
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["result"] for v in verdicts] == ["true"] * len(rows)      # mined puzzles are valid
    bench_db = str(tmp_path / "bank.sqlite3")
    assert main(["bench", "--game", "duel", "--bank", str(bank), "--agent", "puzzler",
                 "--games", str(len(rows)), "--db", bench_db]) == 0
    with Store(Path(bench_db)) as store:
        games = load_games(store, None, game="duel-bank", with_record=True)
    asked = sorted(g.record["events"][0]["puzzle"] for g in games)
    assert asked == list(range(len(rows)))                              # game i solves puzzle i, each once
    assert {g.record["setup"]["bank"] for g in games} == {str(bank)}
    capsys.readouterr()
    assert main(["report", "--game", "duel", "--db", bench_db]) == 0      # the bank's runs, under the duel
    out = capsys.readouterr().out
    assert "puzzler" in out and str(len(rows)) in out


def test_bad_bank_files_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"code": "def mystery(x): return 1", "value": "1"}\nnot json\n')
    assert main(["bench", "--game", "duel", "--bank", str(bad), "--agent", "puzzler", "--games", "1",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "line 2: not JSON" in capsys.readouterr().err
    bad.write_text('{"code": "def mystery(x): return 1"}\n')
    assert main(["bench", "--game", "duel", "--bank", str(bad), "--agent", "puzzler", "--games", "1",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert 'bank row 1: expected "code" and "value"' in capsys.readouterr().err
    assert main(["bench", "--game", "duel", "--param", f"bank={tmp_path / 'none.jsonl'}", "--agent", "puzzler",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "none.jsonl: no such file" in capsys.readouterr().err
    assert main(["bench", "--game", "tictactoe", "--bank", str(bad), "--agent", "random",
                 "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "--bank" in capsys.readouterr().err


def test_the_bank_is_a_variant_of_the_duel_not_a_game_of_its_own(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "duel-bank" not in out and "--bank BANK" in out


def test_a_bank_puzzle_keeps_the_round_of_the_duel_it_came_from():
    """``round`` as ``duel mine`` writes it, ``file_index`` (from 0) as the seed's ``mine_puzzles.py`` does."""
    from tcgtui.engine.duel.bank import rounds_from_rows
    rows = [{"round": 3}, {"file_index": 4}, {"round": True}, {}]
    assert rounds_from_rows(rows) == (3, 5, None, None)
    spec = registry.get("duel-bank")
    code = "def mystery(x):\n    return x == 1\n"
    game = spec.make(spec.info.resolve({"bank": {"rows": [{"code": code, "value": "1", "round": 3},
                                                          {"code": code, "value": "1"}], "path": "b.jsonl"}}))
    assert Match(game, 0).events[0].data["from_round"] == 3
    assert "from_round" not in Match(game, 1).events[0].data
