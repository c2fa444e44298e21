"""Eleusis under --protocol seed on the released code (c616356, the code of the published run
``results/260121_78_rounds``), beside the later fork the protocol was first written for.

The released player has one retry hint, a local of ``LLMScientist._select_move`` added to every
retried prompt whatever went wrong, where the fork names three module constants; its action
prompt takes its values as arguments (the fork: one context object) and says a correct guess
now would score ``max_turns - current_turn - penalty``, one less than the fork's line.  The
fixture checkout is written here in the released shape (its own few words, none of the seed's).
"""

from __future__ import annotations

import sqlite3

import pytest

from tcgtui import locales
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.eleusis import _prompter
from tcgtui.engine.eleusis.seed_prompter import WordingError
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.upstream import load
from tests.eleusis.test_seed_prompt import FILES, RULE, checkout, seed_game
from tests.eleusis.test_seed_translated_games import COMPILE, policy
from tests.llm_support import play_llm, run

FORK_HEAD = "def get_action_prompt(context):\n" + "".join(
    f"    {name} = context.{name}\n" for name in ("compact_board", "hand_cards", "play_history", "failed_guesses",
                                                  "current_turn", "max_turns", "failed_guess_count", "hand_size",
                                                  "wrong_guess_penalty"))
RELEASED_HEAD = ("def get_action_prompt(compact_board, hand_cards, play_history, failed_guesses, current_turn,\n"
                 "                      max_turns, failed_guess_count, hand_size, wrong_guess_penalty):\n")
FORK_SCORE = "{max_turns - current_turn + 1 - (wrong_guess_penalty * failed_guess_count)}"
RELEASED_SCORE = "{max_turns - current_turn - (wrong_guess_penalty * failed_guess_count)}"
PLAYER = '''import random


class LLMScientist:
    def _select_move(self, game_state):
        NUDGE = " [shorter]"
        base_prompt = "x"
        for attempt in range(self.max_retries):
            prompt = base_prompt + NUDGE if attempt > 0 else base_prompt
            self.llm_client.generate(prompt, xml_tag="ACTION", return_dict=True)
        return random.choice([])
'''
assert FORK_HEAD in FILES["src/eleusis/prompts/action.py"] and FORK_SCORE in FILES["src/eleusis/prompts/action.py"]
RELEASED = {**FILES, "src/eleusis/player.py": PLAYER,
            "src/eleusis/prompts/action.py": FILES["src/eleusis/prompts/action.py"]
            .replace(FORK_HEAD, RELEASED_HEAD).replace(FORK_SCORE, RELEASED_SCORE)}


def test_the_released_wording_is_read_with_its_one_hint_and_told_apart_by_its_digest(tmp_path):
    released = seed_game(checkout(tmp_path / "released", RELEASED)).seed_wording
    fork = seed_game(checkout(tmp_path / "fork")).seed_wording
    assert released.hints == {"truncated": " [shorter]", "card": " [shorter]", "other": " [shorter]"}
    assert fork.hints == {"truncated": " [cut]", "card": " [card?]", "other": " [again]"}
    assert released.digest() != fork.digest()
    game = seed_game(checkout(tmp_path / "released", RELEASED))
    p = _prompter(game.public(), locales.load("en"))
    assert p.version.endswith(released.digest())                   # what a run records of the wording it used
    assert "T 1/30 W 0 P 0 S 29\n" in p.turn(game.new_state(0).observation(0), [])["content"]


def test_a_player_without_the_hint_in_either_shape_is_refused_in_one_line(tmp_path):
    no_hint = PLAYER.replace("base_prompt + NUDGE if attempt > 0 else base_prompt", "base_prompt")
    for player in (no_hint, PLAYER.replace('NUDGE = " [shorter]"\n', "")):
        with pytest.raises(WordingError) as refused:
            seed_game(checkout(tmp_path / str(len(player)), {**RELEASED, "src/eleusis/player.py": player}))
        assert "src/eleusis/player.py" in str(refused.value) and "\n" not in str(refused.value)


def test_every_retry_of_the_released_code_ends_with_its_one_hint(tmp_path):
    game = registry.get("eleusis").game({"rule": RULE, "protocol": "seed", "guess_format": "code",
                                         "upstream": load("--upstream", str(checkout(tmp_path, RELEASED)))})
    script = [Reply("...", finish_reason="length"), Reply('<ACTION>{"card": "1X"}</ACTION>'), Reply("no action")]

    with ChatServer(script=script) as server:
        match, decisions = play_llm(server, game, 5)
        sent = [r.json["messages"][0]["content"] for r in server.requests]
    assert decisions[0][1].info["invalid"] == 3 and decisions[0][1].info["fallback"] == "random"
    assert sent[1] == sent[0] + " [shorter]" and sent[2] == sent[0] + " [shorter]"


def test_a_seed_bench_with_the_translator_finishes_every_round_on_the_released_code(tmp_path, capsys):
    folder = checkout(tmp_path / "seed", {**RELEASED, "src/eleusis/prompts/compile.py": COMPILE})
    db, asked = tmp_path / "b.sqlite3", []
    with ChatServer(policy=policy(asked)) as server:
        assert main(["bench", "--game", "eleusis", "--protocol", "seed", "--upstream", str(folder),
                     "--agent", "llm:fake", "--base-url", server.base_url, "--translator", "llm:translator",
                     "--agent", "scientist", "--rules", "7", "--seeds", "2", "--db", str(db),
                     "--concurrency", "1"]) == 0
    with sqlite3.connect(db) as c:
        games = c.execute("SELECT agent, status, score FROM games ORDER BY agent, game_index").fetchall()
    # the fake model's guesses come on its 2nd and 4th replies of the bench: both in its first round
    assert [(a.split("@")[0], s) for a, s, _ in games] == [("llm:fake", "finished")] * 2 + [("scientist", "finished")] * 2
    assert games[0][2] == 25 and asked == ["only red cards", "anything goes"]
