"""Puzzle duels and the puzzle bank under --protocol seed read The Token Games' own prompts from the
user's checkout (--upstream DIR) and put them together as its arena.py and mine_puzzles.py do.

``tests/fixtures/ttg_checkout`` is written for these tests in the shape of the seed's arena.py and
llm_utils.py, with wording of its own: tcgtui carries none of the seed's text."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.core import Match
from tcgtui.engine.duel import Answer, Proposal, Verdict
from tcgtui.engine.duel.seed_prompter import SeedDuelPrompter
from tcgtui.engine.duel.seed_wording import WordingError
from tcgtui.opponents.base import OptionError, SeatContext
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.opponents.registry import make_agent
from tcgtui.report.data import load_games
from tcgtui.store import Store
from tcgtui.upstream import load as load_upstream

CHECKOUT = Path(__file__).resolve().parents[1] / "fixtures" / "ttg_checkout"
RULES = "RULES-FIXTURE: write a puzzle `mystery(x)`, then a line `SOLUTION: x`.\n"
REMINDER = "\nREMINDER-FIXTURE: end with `SOLUTION: x`.\n"
FIRST = RULES + "\nHISTORY-FIXTURE:\nNO-HISTORY-YET" + REMINDER
SOLVE = "SOLVE-FIXTURE: find x with mystery(x) True; last line `SOLUTION: x`.\n\n```python\n{}\n```"
BANK_SOLVE = "BANK-SOLVE-FIXTURE: one value x, last line `SOLUTION: x`.\n```python\n{}\n```"
IDENTITY = "\ndef mystery(x):\n    return x\n"          # as the seed's pattern captures it: newlines kept
THREE = "\ndef mystery(x):\n    return x == 3\n"


def duel(upstream: str | None = str(CHECKOUT), **params):
    if upstream is not None:
        params["upstream"] = load_upstream("--upstream", upstream)
    return registry.get("duel").game({"rounds": 2, "protocol": "seed", **params})


def prompter(game, seat: int = 0) -> SeedDuelPrompter:
    return registry.get(game.name).prompter(game, locales.load("en"), seat, "")


def test_the_proposer_reads_the_seeds_instructions_and_history_section_in_its_order():
    game = duel(rounds=4)
    match = Match(game, 0)
    assert prompter(game, 0).turn(match.state.observation(0), [])["content"] == FIRST
    match.play(Proposal(IDENTITY, "7", " Truthy.\n").text())
    match.play(Verdict("true").text())
    match.play(Answer("0").text())
    match.play(Verdict("false").text())
    match.play(Proposal(THREE, "4", " Off by one.\n").text())
    match.play(Verdict("error").text())                         # puzzle-wrong-ex: the seed's penalty words
    past = ("=== EARLIER ({}) ===\n" + IDENTITY + "\nNOTES: {}\nRESULT: FIXTURE-UNSOLVED\n\n"
            "=== EARLIER ({}) ===\n" + THREE + "\nNOTES: {}\nRESULT: FIXTURE-PENALTY\n\n")
    for seat, mine, theirs in ((0, "MINE-FIXTURE", "THEIRS-FIXTURE"), (1, "THEIRS-FIXTURE", "MINE-FIXTURE")):
        own, other = (" Truthy.\n", "(NOT-YOURS)") if seat == 0 else ("(NOT-YOURS)", " Off by one.\n")
        text = prompter(game, seat).turn(match.state.observation(seat), [])["content"]
        assert text == RULES + "\nHISTORY-FIXTURE:\n" + past.format(mine, own, theirs, other) + REMINDER, seat


def test_the_solver_reads_the_seeds_prompt_with_the_code_as_proposed():
    game = duel()
    match = Match(game, 0)
    match.play(Proposal(IDENTITY, "7").text())
    match.play(Verdict("true").text())
    message = prompter(game, 1).turn(match.state.observation(1), [])
    assert message == {"role": "user", "content": SOLVE.format(IDENTITY)}
    assert prompter(game, 1).system() is None
    assert prompter(game).version.startswith("ttg-seed-") and game.setup()["wording"] in prompter(game).version
    assert game.setup()["upstream"]["path"] == str(CHECKOUT)


def test_an_unusable_reply_gets_the_fresh_prompt_again():
    game = duel()
    obs = Match(game, 0).state.observation(0)
    p = prompter(game)
    assert p.invalid("no code", obs, 3) == p.turn(obs, [], retry=("my reply", "no code")) == p.turn(obs, [])


def test_a_checkout_of_another_shape_is_one_line_naming_the_file(tmp_path, capsys):
    for name in ("arena.py", "llm_utils.py"):
        shutil.copy(CHECKOUT / name, tmp_path / name)
    arena = (CHECKOUT / "arena.py").read_text(encoding="utf-8")
    (tmp_path / "arena.py").write_text(arena.replace("def promptSolvePuzzle", "def askSolver"), encoding="utf-8")
    with pytest.raises(WordingError, match="arena.py has no function promptSolvePuzzle; expected the source of "
                                           "thetokengames/thetokengames"):
        duel(str(tmp_path))
    (tmp_path / "arena.py").write_text(arena.replace("NOT-YOURS", "{code}"), encoding="utf-8")
    duel(str(tmp_path))                              # a value's braces are the seed's text, not a field
    (tmp_path / "arena.py").write_text(arena.replace("RESULT: {outcome}", "RESULT: {score}"), encoding="utf-8")
    with pytest.raises(WordingError, match="PAST_PUZZLE filled with only code, expl, outcome, proposer"):
        duel(str(tmp_path))
    (tmp_path / "arena.py").write_text(arena.replace('"FIXTURE-SOLVED"', "solved_words"), encoding="utf-8")
    with pytest.raises(WordingError, match="the words of each result"):
        duel(str(tmp_path))
    (tmp_path / "arena.py").write_text(arena + "\ndef broken(:\n", encoding="utf-8")
    with pytest.raises(WordingError, match="arena.py is not Python this protocol can read"):
        duel(str(tmp_path))
    (tmp_path / "arena.py").unlink()
    db = str(tmp_path / "d.sqlite3")
    capsys.readouterr()
    assert main(["bench", "--game", "duel", "--protocol", "seed", "--upstream", str(tmp_path), "--agent", "puzzler",
                 "--vs", "puzzler", "--games", "1", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no arena.py; expected a checkout of thetokengames/thetokengames" in err[0]
    (tmp_path / "llm_utils.py").unlink()                # the bank reads the solver's prompt from llm_utils.py
    bank = tmp_path / "bank.jsonl"
    bank.write_text('{"code": "def mystery(x):\\n    return x == 1\\n", "value": "1"}\n', encoding="utf-8")
    assert main(["bench", "--game", "duel", "--bank", str(bank), "--protocol", "seed", "--upstream", str(tmp_path),
                 "--agent", "puzzler", "--games", "1", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no llm_utils.py; expected a checkout of thetokengames/thetokengames" in err[0]


@pytest.mark.parametrize("game_id", ["duel", "duel-bank"])
def test_a_model_under_the_seed_protocol_needs_the_checkout(game_id):
    game = registry.get(game_id).game({"protocol": "seed"})
    agent = make_agent("llm:fake-model", base_url="http://127.0.0.1:9")
    with pytest.raises(OptionError, match=r"give --upstream DIR") as caught:
        agent.start(SeatContext(0, 1, None, "en", game))
    assert "thetokengames/thetokengames" in str(caught.value) and "\n" not in str(caught.value)
    assert ("llm_utils.py" if game_id == "duel-bank" else "arena.py") in str(caught.value)


def _duel_policy(seen: list[str]):
    """Round 1: seat 0 refuses once (the round is rerun), then proposes the identity with a truthy
    sample; seat 1 answers 0 first (its first SOLUTION: line counts).  Round 2: seat 1 proposes
    ``x == 3``, seat 0 answers 3."""
    def answer(request) -> Reply:
        text = request["messages"][-1]["content"]
        seen.append(text)
        if text.startswith("SOLVE-FIXTURE"):
            return Reply("SOLUTION: 0\nSOLUTION: 5\n" if "return x\n" in text else "SOLUTION: 3\nSOLUTION: 4\n")
        if len(seen) == 1:
            return Reply("I would rather not.")
        code = IDENTITY if "NO-HISTORY-YET" in text else THREE
        sample = "7" if code == IDENTITY else "3"
        return Reply(f"```python{code}```\nMy notes.\nSOLUTION: {sample}\n")
    return answer


def test_a_whole_duel_under_the_seed_protocol_through_the_local_server(tmp_path):
    db = str(tmp_path / "d.sqlite3")
    seen: list[str] = []
    with ChatServer(policy=_duel_policy(seen)) as server:
        assert main(["bench", "--game", "duel", "--protocol", "seed", "--upstream", str(CHECKOUT),
                     "--agent", "llm:a", "--vs", "llm:b", "--games", "1", "--param", "rounds=2", "--db", db,
                     "--base-url", server.base_url, "--max-retries", "0"]) == 0
        messages = [r.json["messages"] for r in server.requests]
    assert all(len(m) == 1 and m[0]["role"] == "user" for m in messages)        # one user message, no system
    history = ("=== EARLIER (THEIRS-FIXTURE) ===\n" + IDENTITY + "\nNOTES: (NOT-YOURS)\nRESULT: FIXTURE-UNSOLVED\n\n")
    assert seen == [FIRST, FIRST, SOLVE.format(IDENTITY), RULES + "\nHISTORY-FIXTURE:\n" + history + REMINDER,
                    SOLVE.format(THREE)]
    with Store(Path(db)) as store:
        (game,) = load_games(store, None, game="duel", with_record=True)
    setup = game.record["setup"]
    assert setup["protocol"] == "seed" and setup["upstream"]["path"] == str(CHECKOUT) and len(setup["wording"]) == 10
    proposals = [json.loads(m) for m in game.record["moves"] if m.startswith('{"code"')]
    assert [p["solution"] for p in proposals] == ["7", "3"] and proposals[0]["explanation"] == "\nMy notes.\n"
    verdicts = [json.loads(m)["result"] for m in game.record["moves"] if m.startswith('{"detail"')]
    assert verdicts == ["true", "false", "true", "true"]          # 7 is true-looking: the seed's judge
    assert game.record["moves"].count("!no_code") == 1
    assert game.record["outcome"]["scores"] == [1.0, 0.0]


def test_the_bank_under_the_seed_protocol_asks_each_puzzle_once_with_the_seeds_solver_prompt(tmp_path):
    bank = tmp_path / "bank.jsonl"
    rows = [{"code": "\ndef mystery(x):\n    return x\n\n", "value": "1"},
            {"code": "def mystery(x):\n    return x == 'ab'\n", "value": "'ab'"}]
    bank.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = str(tmp_path / "b.sqlite3")

    def answer(request) -> Reply:
        text = request["messages"][-1]["content"]
        return Reply("SOLUTION: 5\nSOLUTION: 0" if "return x\n" in text else "no idea")
    with ChatServer(policy=answer) as server:
        assert main(["bench", "--game", "duel", "--bank", str(bank), "--protocol", "seed", "--upstream", str(CHECKOUT),
                     "--agent", "llm:a", "--games", "2", "--db", db, "--base-url", server.base_url,
                     "--max-retries", "0", "--concurrency", "1"]) == 0
        prompts = sorted(r.json["messages"][-1]["content"] for r in server.requests)
    assert prompts == sorted(BANK_SOLVE.format(r["code"].strip()) for r in rows)      # each asked once
    with Store(Path(db)) as store:
        games = sorted(load_games(store, None, game="duel-bank", with_record=True),
                       key=lambda g: g.record["events"][0]["puzzle"])
    assert [g.record["setup"]["protocol"] for g in games] == ["seed", "seed"]
    assert {g.record["setup"]["attempts"] for g in games} == {1}
    assert [g.record["outcome"]["scores"] for g in games] == [[1.0], [0.0]]   # 5 is true-looking; no SOLUTION line
    assert games[1].record["moves"] == ["!no_solution"]


def test_the_bank_keeps_tcgtuis_setup_under_its_own_protocol():
    spec = registry.get("duel-bank")
    assert "protocol" not in spec.game({}).setup() and spec.game({}).attempts == 3
    assert spec.game({"protocol": "seed"}).setup()["protocol"] == "seed" and spec.game({"protocol": "seed"}).attempts == 1


def test_tcgtuis_own_duel_prompt_is_unchanged_by_a_checkout():
    game = registry.get("duel").game({"rounds": 2, "upstream": load_upstream("--upstream", str(CHECKOUT))})
    text = prompter(game).turn(Match(game, 0).state.observation(0), [])["content"]
    assert "RULES-FIXTURE" not in text and locales.load("en").t("duel.prompts.propose.task") in text
    assert "wording" not in game.setup() and re.match(r"duel-v1-en-", prompter(game).version)


@pytest.mark.parametrize("protocol, judge", [("seed", "seed"), ("tcgtui", "strict")])
def test_checks_are_judged_as_the_protocol_judges(protocol, judge):
    """The seed counts any true-looking result (its check prints TRUE for a truthy value); tcgtui only True."""
    match = Match(registry.get("duel").game({"rounds": 2, "protocol": protocol}), 0)
    match.play(Proposal(IDENTITY, "7").text())
    assert match.state.pending().judge == judge
    bank = Match(registry.get("duel-bank").game({"protocol": protocol}), 0)
    bank.play(Answer("7").text())
    assert bank.state.pending().judge == judge


def test_bench_refuses_a_model_without_the_checkout_in_one_line_before_asking_it(tmp_path, capsys):
    bank = tmp_path / "bank.jsonl"
    bank.write_text('{"code": "def mystery(x):\\n    return x == 1\\n", "value": "1"}\n', encoding="utf-8")
    db = str(tmp_path / "r.sqlite3")
    with ChatServer(policy=lambda request: Reply("SOLUTION: 1")) as server:
        duel_cmd = ["--vs", "puzzler", "--param", "rounds=2"]
        for game, source in ((duel_cmd, "arena.py"), (["--bank", str(bank)], "llm_utils.py")):
            capsys.readouterr()
            assert main(["bench", "--game", "duel", *game, "--protocol", "seed", "--agent", "llm:a", "--games", "1",
                         "--db", db, "--base-url", server.base_url]) == 2
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1 and "give --upstream DIR" in err[0] and "thetokengames/thetokengames" in err[0]
            assert source in err[0]
        assert server.requests == []
