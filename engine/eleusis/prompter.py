"""What a language model reads each turn of Eleusis, and how its ``<ACTION>`` reply is read.

tcgtui's wording of the seed's layout (``seed_prompter.py`` is the seed's own, under
``--protocol seed``): one fresh message per turn with the rules, ``Turn n / 30``,
the penalty so far, the score a right guess would earn, the board, the hand,
the last 3 turns (card, verdict, the model's own reasoning then) and every
failed guess; the reply ends with ``<ACTION>{...}</ACTION>`` (the last block,
reasoning already set apart by the agent).  In the ``code`` guess format the
tentative rule is written in the rule language; in the ``text`` format it is
plain words, and ``follow_up`` asks a translator model for the code
(``complete`` puts its answer into the move; the agent makes the call: ``engine.prompting.JudgeFollowUp``).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any

from tcgtui.engine.eleusis.cards import CardError, parse_card
from tcgtui.engine.eleusis.moves import Play, parse_play
from tcgtui.engine.eleusis.narrator import rules_text
from tcgtui.engine.eleusis.state import PENALTY
from tcgtui.engine.prompting import Message, Parsed

if TYPE_CHECKING:
    from tcgtui.engine.eleusis.game import EleusisGame

HISTORY = 3
ACTION = re.compile(r"<ACTION>(.*?)</ACTION>", re.S | re.I)
CODE = re.compile(r"<CODE>(.*?)</CODE>", re.S | re.I)
FENCE = re.compile(r"```(?:python)?\n?(.*?)```", re.S)
FIELDS = {"reasoning_summary", "card", "tentative_rule", "confidence_level", "guess_rule"}


def card_symbols(text: str) -> str:
    return parse_card(text).symbol()


class EleusisPrompter:
    keeps_history = False

    def __init__(self, game: EleusisGame, catalog: Any, seat: int = 0, style: str | None = None) -> None:
        self.game = game
        self.catalog = catalog
        self.seat = seat
        self.format = game.guess_format
        self.needs_follow_up = self.format == "text"  # tentative rules in words need the translator
        self.reasoning: dict[int, str] = {}  # turn -> the model's reasoning summary then
        used = "\n".join(repr(catalog.raw(k)) for k in self._keys())
        digest = hashlib.sha1(used.encode("utf-8")).hexdigest()[:8]
        self.version = f"eleusis-v1-{catalog.code}-{self.format}-{digest}"

    def _keys(self) -> list[str]:
        names = (
            "intro",
            "simple",
            "status",
            "board",
            "empty",
            "hand",
            "history",
            "accepted",
            "rejected",
            "no_reasoning",
            "failed",
            "fallback",
            "none",
            "reply",
            f"{self.format}_rule",
            "example",
            "retry.reason",
            "reason.no_action",
            "reason.json",
            "reason.card",
            "reason.confidence",
            "reason.guess",
        )
        return [f"eleusis.prompts.{k}" for k in names] + [k for k, _ in rules_text(self.game, self.catalog)]

    def _t(self, key: str, **params: Any) -> str:
        return self.catalog.t(f"eleusis.prompts.{key}", **params)

    # --- the board -------------------------------------------------------------------------------
    def board(self, obs: Any) -> str:
        words = []
        for card, rejected in obs.board:
            if card is not None:
                words.append(card_symbols(card))
            words += [f"[{card_symbols(x)}]" for x in rejected]
        return " ".join(words) or self._t("empty")

    def hand(self, obs: Any) -> str:
        return " ".join(card_symbols(c) for c in obs.hand)

    def history(self, obs: Any) -> list[str]:
        first = max(0, len(obs.plays) - HISTORY)
        lines = []
        for i, (card, accepted) in enumerate(obs.plays[first:], start=first + 1):
            lines.append(
                self._t(
                    "accepted" if accepted else "rejected",
                    turn=i,
                    card=card_symbols(card),
                    reasoning=self.reasoning.get(i) or self._t("no_reasoning"),
                )
            )
        return lines

    # --- the messages ----------------------------------------------------------------------------
    def system(self) -> Message | None:
        return None

    def turn(self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None) -> Message:
        rules = " ".join(sentence for _, sentence in rules_text(self.game, self.catalog))
        parts = [
            f"{self._t('intro')} {rules}",
            self._t("simple"),
            self._t(
                "status",
                turn=obs.turn,
                max_turns=obs.max_turns,
                wrong=obs.wrong,
                penalty=PENALTY * obs.wrong,
                potential=obs.potential,
            ),
            f"{self._t('board')}\n{self.board(obs)}",
            f"{self._t('hand')} {self.hand(obs)}",
        ]
        history = self.history(obs)
        if history:
            parts.append("\n".join([self._t("history"), *history]))
        failed = [f"- {g}" for g in obs.failed_guesses] or [self._t("none")]
        parts.append("\n".join([self._t("failed"), *failed]))
        if fallback is not None:
            parts.append(self._t("fallback", card=card_symbols(parse_play(fallback).card.text())))
        example = {
            "reasoning_summary": "...",
            "card": card_symbols(obs.hand[0]) if obs.hand else "5♥",
            "tentative_rule": "...",
            "confidence_level": 3,
            "guess_rule": False,
        }
        parts += [
            self._t("reply"),
            self._t(f"{self.format}_rule"),
            self._t("example", example=json.dumps(example, ensure_ascii=False)),
        ]
        return {"role": "user", "content": "\n\n".join(parts)}

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        return {"role": "user", "content": self._t("retry.reason", reason=reason)}

    # --- the reply -------------------------------------------------------------------------------
    def parse(self, answer: str, obs: Any) -> Parsed:
        blocks = ACTION.findall(str(answer))
        if not blocks:
            return Parsed(None, "action", "no_action", str(answer).strip()[-200:])
        snippet = blocks[-1].strip()
        try:
            data = json.loads(snippet)
        except ValueError:
            return Parsed(None, "action", "json", snippet)
        if not isinstance(data, dict) or not {"card", "tentative_rule"} <= set(data):
            return Parsed(None, "action", "json", snippet)
        try:
            card = parse_card(str(data["card"]))
        except CardError:
            return Parsed(None, "action", "card", snippet)
        if card.text() not in obs.legal_moves:
            return Parsed(None, "action", "card", snippet)
        conf = data.get("confidence_level", 0)
        if isinstance(conf, str) and conf.strip().isdigit():
            conf = int(conf.strip())
        if isinstance(conf, float) and conf.is_integer():
            conf = int(conf)
        if isinstance(conf, bool) or not isinstance(conf, int) or not 0 <= conf <= 10:
            return Parsed(None, "action", "confidence", snippet)
        guess = data.get("guess_rule", False)
        if not isinstance(guess, bool):
            return Parsed(None, "action", "guess", snippet)
        rule = str(data.get("tentative_rule") or "")[:2000]
        self.reasoning[obs.turn] = str(data.get("reasoning_summary") or "")[:500]
        code = rule if self.format == "code" else None
        return Parsed(Play(card, guess, rule, code, conf).text(), "action", None, snippet)

    def reason(self, parsed: Parsed) -> str:
        kind = parsed.error if parsed.error in ("no_action", "json", "card", "confidence", "guess") else "json"
        return self._t(f"reason.{kind}")

    # --- the choice the match lists, and the translation of free text -----------------------------
    @staticmethod
    def choice(move: str) -> str:
        """The listed legal move a full move carries (its card)."""
        return parse_play(move).card.text()

    def follow_up(self, move: str) -> list[Message] | None:
        """The translator's prompt for a move whose tentative rule is words, or None."""
        play = parse_play(move)
        if self.format != "text" or not play.rule or play.code is not None:
            return None
        t = lambda key, **kw: self.catalog.t(f"eleusis.prompts.translate.{key}", **kw)  # noqa: E731
        return [{"role": "user", "content": "\n\n".join([t("intro"), t("rule", rule=play.rule), t("answer")])}]

    @staticmethod
    def complete(move: str, reply: str) -> str:
        """The move with the translator's code put in (the reply's <CODE> block, else a fenced block, else all)."""
        play = parse_play(move)
        found = CODE.findall(reply) or FENCE.findall(reply)
        code = (found[-1] if found else reply).strip("\n")
        return Play(play.card, play.guess, play.rule, code, play.confidence).text()
