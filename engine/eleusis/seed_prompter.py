"""The seed's scientist under ``--protocol seed``: its prompt, read from the user's checkout, and its reply rules.

tcgtui carries none of the seed's wording.  ``SeedWording.read`` takes it at run
time from the checkout's source by its syntax tree: the action prompt
(``get_action_prompt`` in src/eleusis/prompts/action.py, with its recent-turns and
failed-guesses blocks), the rules section it embeds (src/eleusis/prompts/game_rules.py),
the empty-board word (src/eleusis/game/state.py) and the hint its player
appends to a retried prompt (src/eleusis/player.py): one for every retry in the
released code (c616356, which produced the published run), one per failure in
the later fork; a run records which wording it used by the wording's digest.

What is done with a reply follows the seed's player too: the last ``<ACTION>``
block, else the first fenced block, else the whole reply, must be a JSON object
whose ``card`` names a card of the hand (a suit symbol or suit word, a rank as
``A``/``J``/``Q``/``K`` or a number); a guess counts only when ``guess_rule`` is
``true`` itself and the tentative rule is text.  An unusable reply is asked
again as a fresh prompt with the hint for what went wrong, three requests in
all; then the card is drawn by ``random.Random(round seed)`` from the hand in
the order it was dealt, the one generator kept for the whole round.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from tcgtui.engine.eleusis.cards import Card, parse_card
from tcgtui.engine.eleusis.moves import Play, parse_play
from tcgtui.engine.eleusis.prompter import EleusisPrompter
from tcgtui.engine.eleusis.state import HAND, PENALTY
from tcgtui.engine.prompting import Compiler, Message, Parsed
from tcgtui.engine.seed_text import Parts, fstring_parts, parse_source

if TYPE_CHECKING:
    from tcgtui.engine.eleusis.game import EleusisGame

REPOSITORY = "github.com/scienceetonnante/eleusis-llm-benchmark"
ACTION_FILE, RULES_FILE = "src/eleusis/prompts/action.py", "src/eleusis/prompts/game_rules.py"
STATE_FILE, PLAYER_FILE = "src/eleusis/game/state.py", "src/eleusis/player.py"
FILES = (ACTION_FILE, RULES_FILE, STATE_FILE, PLAYER_FILE)
ATTEMPTS = 3  # the seed's max_llm_retries: requests per turn before the random card
TRUNCATED = "truncated"  # the reply hit the token limit (the agent says so; the seed never reads such a reply)
CARD, JSON = "card", "json"
FORK_HINTS = {TRUNCATED: "_TRUNCATION_RETRY_HINT", CARD: "_CARD_PARSE_RETRY_HINT", "other": "_GENERIC_RETRY_HINT"}
ACTION = re.compile(r"<ACTION>(.*?)</ACTION>", re.S | re.I)
SUITS = (
    ("\u2665", "H"),
    ("\u2666", "D"),
    ("\u2663", "C"),
    ("\u2660", "S"),
    ("hearts", "H"),
    ("diamonds", "D"),
    ("clubs", "C"),
    ("spades", "S"),
)  # in the order the seed tries them
RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


class WordingError(ValueError):
    """The checkout's source is not in the shape this protocol reads (another version of the code)."""


def _shape(path: str, what: str) -> WordingError:
    return WordingError(f"--upstream: {path} has no {what}; expected the source of {REPOSITORY}")


def _function(tree: ast.AST, name: str, path: str) -> ast.FunctionDef:
    found = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if found is None:
        raise _shape(path, f"function {name}")
    return found


def _parts(node: ast.AST | None, path: str) -> Parts:
    return fstring_parts(node, partial(_shape, path))


def _string(node: ast.AST | None, path: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise _shape(path, f"plain string at line {getattr(node, 'lineno', '?')}")


def _returned(fn: ast.FunctionDef, path: str) -> ast.expr:
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        raise _shape(path, f"return in {fn.name}")
    return returns[-1].value  # type: ignore[return-value]


def _if_on(fn: ast.FunctionDef, name: str, path: str) -> ast.If:
    found = next((n for n in fn.body if isinstance(n, ast.If) and ast.unparse(n.test) == name), None)
    if found is None:
        raise _shape(path, f"'if {name}:' block in {fn.name}")
    return found


def _writes(node: ast.AST, target: str) -> list[ast.expr]:
    """The values assigned or added to ``target`` under ``node``, in source order."""
    found = [
        n
        for n in ast.walk(node)
        if isinstance(n, (ast.Assign, ast.AugAssign))
        and ast.unparse(n.targets[0] if isinstance(n, ast.Assign) else n.target) == target
    ]
    return [n.value for n in sorted(found, key=lambda n: (n.lineno, n.col_offset))]


def render(parts: Parts, slots: dict[str, Any], where: str) -> str:
    out = []
    for piece in parts:
        if isinstance(piece, str):
            out.append(piece)
        elif piece[1] in slots:
            out.append(str(slots[piece[1]]))
        else:
            raise WordingError(
                f"--upstream: {where} interpolates {piece[1]!r}, which this protocol does not know; "
                f"expected the source of {REPOSITORY}"
            )
    return "".join(out)


@dataclass(frozen=True)
class SeedWording:
    """The seed's action prompt as pieces, and the texts it is assembled from."""

    prompt: Parts
    rules: Parts
    hand_sep: str
    history_header: str
    history_count: int
    verdicts: tuple[str, str]  # accepted, rejected
    history_line: Parts
    reasoning_line: Parts
    failed_open: str
    failed_line: Parts
    failed_close: str
    empty_board: str
    hints: dict[str, str]  # truncated, card, other

    @classmethod
    def read(cls, text: Callable[[str], str]) -> SeedWording:
        """``text(path)``: a file of the checkout (the caller does the reading)."""

        def tree(path: str) -> ast.Module:
            return parse_source(text(path), path, lambda why: WordingError(f"--upstream: {why}"))

        action = _function(tree(ACTION_FILE), "get_action_prompt", ACTION_FILE)
        rules = _function(tree(RULES_FILE), "get_game_rules", RULES_FILE)
        hand = _writes(action, "hand_str")
        if not hand or not isinstance(hand[0], ast.Call) or not isinstance(hand[0].func, ast.Attribute):
            raise _shape(ACTION_FILE, "hand_str joined from the hand's symbols")
        history = _if_on(action, "play_history", ACTION_FILE)
        loop = next((n for n in ast.walk(history) if isinstance(n, ast.For)), None)
        count = (
            loop.iter.slice.lower
            if loop is not None and isinstance(loop.iter, ast.Subscript) and isinstance(loop.iter.slice, ast.Slice)
            else None
        )
        verdict = next(
            (n.value for n in ast.walk(history) if isinstance(n, ast.Assign) and isinstance(n.value, ast.IfExp)), None
        )
        if (
            not (
                isinstance(count, ast.UnaryOp)
                and isinstance(count.operand, ast.Constant)
                and isinstance(count.operand.value, int)
            )
            or verdict is None
        ):
            raise _shape(ACTION_FILE, "loop over the last turns with their verdicts")
        lines = _writes(history, "history_str")
        failed = _writes(_if_on(action, "failed_guesses", ACTION_FILE), "failed_guesses_str")
        if len(lines) != 3 or len(failed) != 3:
            raise _shape(ACTION_FILE, "recent-turns and failed-guesses blocks in the released shape")
        compact = _function(tree(STATE_FILE), "to_compact_string", STATE_FILE)
        empty = next(
            (n.value for n in ast.walk(compact) if isinstance(n, ast.Return) and isinstance(n.value, ast.Constant)),
            None,
        )
        hints = retry_hints(tree(PLAYER_FILE))
        return cls(
            prompt=_parts(_returned(action, ACTION_FILE), ACTION_FILE),
            rules=_parts(_returned(rules, RULES_FILE), RULES_FILE),
            hand_sep=_string(hand[0].func.value, ACTION_FILE),
            history_header=_string(lines[0], ACTION_FILE),
            history_count=int(count.operand.value),
            verdicts=(_string(verdict.body, ACTION_FILE), _string(verdict.orelse, ACTION_FILE)),
            history_line=_parts(lines[1], ACTION_FILE),
            reasoning_line=_parts(lines[2], ACTION_FILE),
            failed_open=_string(failed[0], ACTION_FILE),
            failed_line=_parts(failed[1], ACTION_FILE),
            failed_close=_string(failed[2], ACTION_FILE),
            empty_board=_string(empty, STATE_FILE),
            hints=hints,
        )

    def digest(self) -> str:
        blob = json.dumps(self.__dict__, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:10]


def retry_hints(player: ast.Module) -> dict[str, str]:
    """The text a retried request ends with, by what went wrong (truncated, card, other).

    The released code (c616356, the published run's) has one hint, a local of
    ``LLMScientist._select_move`` appended on every retry whatever failed
    (``prompt = base_prompt + HINT if attempt > 0 else base_prompt``); the later fork
    names three module constants and appends the one for the failure just seen."""
    consts = {
        t.id: n.value for n in player.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)
    }
    if all(name in consts for name in FORK_HINTS.values()):
        return {k: _string(consts[v], PLAYER_FILE) for k, v in FORK_HINTS.items()}
    select = next((n for n in ast.walk(player) if isinstance(n, ast.FunctionDef) and n.name == "_select_move"), None)
    chosen = (
        next(
            (
                right
                for v in _writes(select, "prompt")
                if isinstance(v, ast.IfExp)
                and isinstance(body := v.body, ast.BinOp)
                and isinstance(body.op, ast.Add)
                and isinstance(right := body.right, ast.Name)
            ),
            None,
        )
        if select is not None
        else None
    )
    if chosen is None or select is None:
        raise _shape(PLAYER_FILE, "retry hints")
    name = chosen.id
    local = {
        t.id: n.value
        for n in ast.walk(select)
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    value = local.get(name, consts.get(name))
    if value is None:
        raise _shape(PLAYER_FILE, f"value of the retry hint {name}")
    hint = _string(value, PLAYER_FILE)
    return {TRUNCATED: hint, CARD: hint, "other": hint}


# --- the seed's reading of a reply -----------------------------------------------------------------


def action_text(reply: str) -> str:
    """The part of a reply the seed decodes: the last <ACTION> block, else the first fenced block (its
    ```json one first), else the whole reply; reasoning after a closing think tag is all that counts."""
    if "</think>" in reply:
        reply = reply.split("</think>", 1)[-1]
    blocks = ACTION.findall(reply)
    found = blocks[-1].strip() if blocks else ""
    if not found:
        for fence in ("```json", "```"):
            if fence in reply:
                start = reply.find(fence) + len(fence)
                found = reply[start : reply.find("```", start)].strip()  # no closing fence: up to the last character
                break
    return found or reply.strip()


def seed_card(value: str, hand: list[Card]) -> Card | None:
    """The hand's card ``value`` names, read as the seed reads it (None if it names none)."""
    value = value.strip()
    suit, rank_text = None, value
    for word, letter in SUITS:
        if word in value:
            suit, rank_text = letter, value.replace(word, "").strip()
            break
    if suit is None:
        return None
    rank_text = rank_text.upper()
    try:
        rank = RANKS[rank_text] if rank_text in RANKS else int(rank_text)
    except ValueError:
        return None
    return next((c for c in hand if c.rank == rank and c.suit == suit), None)


def seed_confidence(raw: Any) -> int | None:
    """The seed's 0-10 confidence: whole numbers kept, 0-10 decimals and 11-100 (tenths) rounded half up."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    value = raw if 0 <= raw <= 10 else raw / 10 if 10 < raw <= 100 else None
    if value is None:
        return None
    return int(value) if isinstance(value, int) else int(value + 0.5)


class SeedPrompter(EleusisPrompter):
    """The seed's scientist prompt for one round, in the seed's English.  A guess in words is translated
    by the seed's translator into its Python (``engine.prompting.SeedTranslation``: ``seed_words``,
    ``with_code``) when the game names one (``--translator``), else as under tcgtui's protocol
    (``JudgeFollowUp``: ``follow_up``, ``--judge``)."""

    fresh_retries = True  # a retry is the turn's prompt again with a hint, not a conversation
    attempts = ATTEMPTS

    def __init__(
        self, game: EleusisGame, catalog: Any, wording: SeedWording, compiler: Callable[[], Compiler] | None = None
    ) -> None:
        super().__init__(game, catalog)
        self.wording = wording
        self.version = f"eleusis-seed-en-{self.format}-{wording.digest()}"
        self.translator = str(getattr(game, "translator", ""))
        self._compiler = compiler  # seed_compile.compiler_for the game's checkout (it imports this module)
        self.seed_translation = bool(self.translator)
        # words need the seed's translator (--translator) under this protocol, never --judge's
        self.translator_missing = self.needs_follow_up and not self.seed_translation
        self.needs_follow_up = False
        self.words_by_judge = not self.seed_translation  # a person's words on the screen: --judge's
        self.base = ""
        self.rng: random.Random | None = None

    def follow_up(self, move: str) -> list[Message] | None:
        """tcgtui's translator prompt only where the seed's translator is not named (a person's words)."""
        return super().follow_up(move) if self.words_by_judge else None

    def compiler(self) -> Compiler:
        """The seed's compiler for the translator (``engine.prompting.SeedTranslation``)."""
        if self._compiler is None:
            raise TypeError("a SeedPrompter made without its compiler cannot translate")
        return self._compiler()

    def seed_words(self, move: str) -> str | None:
        """The words the seed's translator turns into code: a formal guess's tentative rule (the seed
        compiles only guesses), or None."""
        play = parse_play(move)
        return play.rule if self.seed_translation and play.guess and play.code is None else None

    @staticmethod
    def with_code(move: str, code: str | None) -> str:
        """The move with the translator's code (none: empty, and the walk counts the guess wrong)."""
        play = parse_play(move)
        return Play(play.card, play.guess, play.rule, code or "", play.confidence).text()

    def board(self, obs: Any) -> str:
        if not obs.mainline:
            return self.wording.empty_board
        words = []
        for card, rejected in obs.board:
            if card is not None:
                words.append(parse_card(card).symbol())
            words += [f"[{parse_card(x).symbol()}]" for x in rejected]
        return " ".join(words)

    def _history(self, obs: Any) -> str:
        w = self.wording
        first = max(0, len(obs.plays) - w.history_count)
        if not obs.plays:
            return ""
        out = w.history_header
        for turn, (card, accepted) in enumerate(obs.plays[first:], start=first + 1):
            result = w.verdicts[0] if accepted else w.verdicts[1]
            out += render(w.history_line, {"card": parse_card(card).symbol(), "result": result}, ACTION_FILE)
            if self.reasoning.get(turn):
                out += render(w.reasoning_line, {"reasoning_summary": self.reasoning[turn]}, ACTION_FILE)
        return out

    def _failed(self, obs: Any) -> str:
        w = self.wording
        if not obs.failed_guesses:
            return ""
        lines = "".join(render(w.failed_line, {"guess": g}, ACTION_FILE) for g in obs.failed_guesses)
        return w.failed_open + lines + w.failed_close

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        w, wrong = self.wording, len(obs.failed_guesses)
        numbers = {"hand_size": HAND, "wrong_guess_penalty": PENALTY, "max_turns": obs.max_turns}
        rules = render(w.rules, numbers, RULES_FILE)
        slots = {
            **numbers,
            "current_turn": obs.turn,
            "failed_guess_count": wrong,
            "wrong_guess_penalty * failed_guess_count": PENALTY * wrong,
            "max_turns - current_turn + 1 - wrong_guess_penalty * failed_guess_count": obs.max_turns
            - obs.turn
            + 1
            - PENALTY * wrong,
            # the released code's line (c616356); the later fork added the + 1
            "max_turns - current_turn - wrong_guess_penalty * failed_guess_count": obs.max_turns
            - obs.turn
            - PENALTY * wrong,
            "get_game_rules(hand_size=hand_size, wrong_guess_penalty=wrong_guess_penalty, max_turns=max_turns)": rules,
            "compact_board": self.board(obs),
            "hand_str": w.hand_sep.join(parse_card(c).symbol() for c in obs.hand),
            "history_str": self._history(obs),
            "failed_guesses_str": self._failed(obs),
        }
        self.base = render(w.prompt, slots, ACTION_FILE)
        self.reasoning.pop(obs.turn, None)
        return {"role": "user", "content": self.base}

    def parse(self, answer: str, obs: Any) -> Parsed:
        snippet = action_text(str(answer))
        try:
            data = json.loads(snippet)
        except ValueError:
            return Parsed(None, "action", JSON, snippet[-200:])
        if not isinstance(data, dict):
            return Parsed(None, "action", JSON, snippet[-200:])
        value = data.get("card", "")
        card = seed_card(value if isinstance(value, str) else "", [parse_card(c) for c in obs.hand])
        if card is None:
            return Parsed(None, "action", CARD, snippet[-200:])
        tentative = data.get("tentative_rule", "")
        rule = tentative[:2000] if isinstance(tentative, str) else ""
        summary = data.get("reasoning_summary", "")
        self.reasoning[obs.turn] = summary[:2000] if isinstance(summary, str) else ""
        code = rule if self.format == "code" and rule else None
        guess = data.get("guess_rule") is True and bool(rule)
        return Parsed(
            Play(card, guess, rule, code, seed_confidence(data.get("confidence_level"))).text(),
            "action",
            None,
            snippet[-200:],
        )

    def reason(self, parsed: Parsed) -> str:
        return parsed.error if parsed.error in (TRUNCATED, CARD) else "other"

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        """The retried request: the turn's prompt again, with the seed's hint for what went wrong."""
        return {"role": "user", "content": self.base + self.wording.hints.get(reason, self.wording.hints["other"])}

    def fallback_move(self, obs: Any) -> str:
        """The seed's random card after its retries: one generator seeded with the round seed, for the round."""
        if self.rng is None:
            self.rng = random.Random(obs.round_seed)
        return self.rng.choice(list(obs.hand)) if obs.hand else ""
