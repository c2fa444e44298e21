"""Eleusis under --protocol seed: the seed's scientist prompt, its reading of a reply, its retries and fallback.

The fixture checkout is written for these tests in the shape of the seed's source
(the same functions, blocks and names; its own few words), so every piece the
protocol reads from a checkout is seen in place.  With ``TCGTUI_ELEUSIS_UPSTREAM``
naming a real checkout, the prompt tcgtui assembles before each turn of a played
round is compared with the one the seed's own code builds for the same round.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.eleusis import _prompter
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.game import EleusisGame
from tcgtui.engine.eleusis.moves import parse_play
from tcgtui.engine.eleusis.seed_prompter import REPOSITORY, WordingError, action_text, seed_card, seed_confidence
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.upstream import load
from tests.eleusis.test_seed_deals import CHECKOUT, FIXTURES, HERE, needs_checkout
from tests.llm_support import play_llm, run

ACTION = '''def get_action_prompt(context):
    compact_board = context.compact_board
    hand_cards = context.hand_cards
    play_history = context.play_history
    failed_guesses = context.failed_guesses
    current_turn = context.current_turn
    max_turns = context.max_turns
    failed_guess_count = context.failed_guess_count
    hand_size = context.hand_size
    wrong_guess_penalty = context.wrong_guess_penalty
    hand_str = " / ".join(str(card["symbol"]) for card in hand_cards)
    history_str = ""
    if play_history:
        history_str = "Recent:\\n"
        for entry in play_history[-2:]:
            card = entry.get("card")
            reasoning_summary = entry.get("reasoning_summary", "")
            accepted = entry.get("accepted")
            if accepted is not None:
                result = "yes" if accepted else "no"
                history_str += f"* {card} {result}\\n"
                if reasoning_summary:
                    history_str += f"  why: {reasoning_summary}\\n"
    failed_guesses_str = ""
    if failed_guesses:
        failed_guesses_str = "<"
        for entry in failed_guesses:
            guess = entry.get("guess", "")
            failed_guesses_str += f"{guess};"
        failed_guesses_str += ">"
    return f"""R:{get_game_rules(hand_size=hand_size, wrong_guess_penalty=wrong_guess_penalty, max_turns=max_turns)}
T {current_turn}/{max_turns} W {failed_guess_count} P {wrong_guess_penalty * failed_guess_count} S {max_turns - current_turn + 1 - (wrong_guess_penalty * failed_guess_count)}
B {compact_board}
H {hand_str}
{history_str}F {failed_guesses_str} -{wrong_guess_penalty}"""
'''
RULES = 'def get_game_rules(hand_size, wrong_guess_penalty, max_turns):\n' \
        '    return f"hand {hand_size} cost {wrong_guess_penalty} turns {max_turns}"\n'
STATE = 'class GameState:\n    def to_compact_string(self):\n        if self.mainline.size() == 0:\n' \
        '            return "(none)"\n        return "x"\n'
PLAYER = '_TRUNCATION_RETRY_HINT = " [cut]"\n_CARD_PARSE_RETRY_HINT = " [card?]"\n_GENERIC_RETRY_HINT = " [again]"\n'
FILES = {"src/eleusis/prompts/action.py": ACTION, "src/eleusis/prompts/game_rules.py": RULES,
         "src/eleusis/game/state.py": STATE, "src/eleusis/player.py": PLAYER}
RULE = 3          # tcgtui's library rule played in the fixture rounds (its deal: the fixture rules.json's code)


def checkout(tmp_path: Path, files: dict[str, str] = FILES) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "rules.json").write_text((FIXTURES / "seed_rules.json").read_text(encoding="utf-8"), encoding="utf-8")
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def seed_game(folder: Path, guess_format: str = "code", round_index: int = 0) -> EleusisGame:
    return EleusisGame.from_params({"rule": RULE, "protocol": "seed", "upstream": load("--upstream", str(folder)),
                                    "seed_round": round_index, "guess_format": guess_format})


def reply(card: str, rule: str = "", guess=False, reasoning: str = "", confidence=3) -> str:
    body = {"reasoning_summary": reasoning, "card": parse_card(card).symbol(), "tentative_rule": rule,
            "confidence_level": confidence, "guess_rule": guess}
    return f"thinking...\n<ACTION>{json.dumps(body, ensure_ascii=False)}</ACTION>"


def test_the_prompt_is_the_checkouts_wording_filled_as_the_seed_fills_it(tmp_path):
    game = seed_game(checkout(tmp_path))
    state = game.new_state(0)
    p = _prompter(game.public(), locales.load("en"))
    obs = state.observation(0)
    hand = [parse_card(c) for c in obs.hand]
    assert obs.hand == tuple(c.text() for c in state.hand)            # as dealt, not sorted
    first = p.turn(obs, [])["content"]
    assert first == (f"R:hand 12 cost 2 turns 30\nT 1/30 W 0 P 0 S 30\nB {state.board[0][0].symbol()}\n"
                     f"H {' / '.join(c.symbol() for c in hand)}\nF  -2")
    for card, why, guess in [(hand[0], "one", "always"), (hand[1], "", ""), (hand[2], "three", "")]:
        obs = state.observation(0)
        p.turn(obs, [])
        state.apply(p.parse(reply(card.text(), guess, bool(guess), why), obs).move)   # "always" is no rule: wrong
    obs = state.observation(0)
    text = p.turn(obs, [])["content"]
    verdicts = ["yes" if a else "no" for _, a in state.plays]
    assert "T 4/30 W 1 P 2 S 25" in text
    assert f"Recent:\n* {hand[1].symbol()} {verdicts[1]}\n* {hand[2].symbol()} {verdicts[2]}\n  why: three\n" in text
    assert text.endswith("F <always;> -2")


def test_a_reply_is_read_as_the_seed_reads_it(tmp_path):
    game = seed_game(checkout(tmp_path), "text")
    obs = game.new_state(0).observation(0)
    p = _prompter(game.public(), locales.load("en"))
    card = parse_card(obs.hand[0])
    words = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}[card.suit]
    named = {1: "a", 11: "j", 12: "q", 13: "k"}.get(card.rank, str(card.rank))
    body = {"card": f"{named} {words}", "tentative_rule": "red", "guess_rule": "true", "confidence_level": 75}
    got = parse_play(p.parse("```json\n" + json.dumps(body) + "\n```", obs).move)
    assert got.card == card and got.rule == "red" and not got.guess and got.confidence == 8 and got.code is None
    assert p.parse("<ACTION>[1, 2]</ACTION>", obs).error == "json"
    assert p.parse("<action>{\"card\": \"K\"}</action>", obs).error == "card"
    outside = next(c for c in ("AH", "2S", "7D", "QC", "10H") if c not in obs.hand)
    assert p.parse(reply(outside), obs).error == "card"
    assert action_text('<ACTION>{"a": 1}</ACTION> then <ACTION>{"b": 2}</ACTION>') == '{"b": 2}'
    assert action_text("```json\n{}") == "{"              # no closing fence: cut before the last character
    assert action_text("<think><ACTION>x</ACTION></think> {}") == "{}"
    assert seed_card("10♥", [parse_card("10H")]) == parse_card("10H") and seed_card("10 Hearts", [parse_card("10H")]) is None
    assert [seed_confidence(v) for v in (7, 7.5, 11, 100, 101, True, "7", -1)] == [7, 8, 1, 10, None, None, None, None]


def test_three_requests_as_fresh_prompts_then_the_seeds_random_card(tmp_path):
    folder = checkout(tmp_path)
    game = registry.get("eleusis").game({"rule": RULE, "protocol": "seed", "guess_format": "code",
                                         "upstream": load("--upstream", str(folder))})
    state = game.new_state(5)
    hand = [c.text() for c in state.hand]
    script = [Reply("...", finish_reason="length"), Reply('<ACTION>{"card": "1X"}</ACTION>'), Reply("no action")]

    with ChatServer(script=script) as server:
        match, decisions = play_llm(server, game, 5)
        sent = [r.json["messages"] for r in server.requests]
    assert decisions[0][1].info["fallback"] == "random" and decisions[0][1].info["invalid"] == 3
    assert [len(m) for m in sent[:3]] == [1, 1, 1]                  # never a conversation
    base = sent[0][0]["content"]
    assert sent[1][0]["content"] == base + " [cut]" and sent[2][0]["content"] == base + " [card?]"
    assert sent[3][0]["content"] != base                                # turn 2: the fallback card was played
    want = random.Random(game.deck_seed(5)).choice(hand)
    assert f"* {parse_card(want).symbol()} " in sent[3][0]["content"]


def test_without_the_checkouts_prompt_a_model_player_is_refused_in_one_line(tmp_path):
    folder = checkout(tmp_path, {})                                      # rules.json alone: it deals, nobody prompts
    game = seed_game(folder)
    with pytest.raises(WordingError) as refused:
        _prompter(game.public(), locales.load("ar"))
    assert "--upstream" in str(refused.value) and REPOSITORY in str(refused.value) and "\n" not in str(refused.value)
    broken = checkout(tmp_path / "b", {**FILES, "src/eleusis/player.py": "X = 1\n"})
    with pytest.raises(WordingError, match="player.py has no retry hints"):
        seed_game(broken)


@needs_checkout
def test_each_turns_prompt_is_the_one_the_seeds_code_builds(tmp_path):
    code = "return card.rank % 2 == 0 or card.color == 'red'"
    game = EleusisGame(rule_code=code, guess_format="text", protocol="seed", seed_deal=991,
                       seed_wording=EleusisGame.from_params({"rule": 0, "protocol": "seed", "upstream":
                                                             load("--upstream", CHECKOUT)}).seed_wording)
    state = game.new_state(0)
    p = _prompter(game.public(), locales.load("en"))
    turns = [[0, "start", None], [4, "", "odd cards"], [11, "a long thought", None], [2, "more", "hearts"],
             [7, "", None], [1, "last", None]]
    ours = []
    for index, why, failed in turns:
        obs = state.observation(0)
        ours.append(p.turn(obs, [])["content"])
        state.apply(p.parse(reply(obs.hand[index], failed or "", bool(failed), why), obs).move)
    done = subprocess.run([sys.executable, str(HERE / "seed_code.py"), CHECKOUT, "-", "prompts"],
                          input=json.dumps({"code": code, "seed": 991, "turns": turns}), capture_output=True,
                          text=True, timeout=300, check=True)
    assert ours == json.loads(done.stdout)
