"""The conversation a model plays through, built from locale templates only.

The first (system) message carries the game's rules text and every card's
text; each turn message carries the whole visible state plus what happened
since the model's last move, narrated for its seat.  History is trimmed to an
estimated token budget, oldest turns first; the first message and the current
turn always stay.  The prompt version hashes every template a prompt is made
of, so a changed word shows up in the records.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from tcgtui import locales
from tcgtui.engine.core import Event
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.describe import card_text, rules_sentences
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation
from tcgtui.opponents.narrate import Narrator
from tcgtui.opponents.llm.tokens import estimate_tokens  # noqa: F401  (measured constants; re-exported)

PROMPT_VERSION = 1          # bump when the structure (not only the wording) of prompts changes
TEMPLATE_PREFIXES = ("prompts.", "events.", "rules.", "cards.")
Message = dict[str, str]


@cache
def prompt_version(lang: str) -> str:
    """``v1-en-<hash>``: the explicit version plus a hash of this language's templates."""
    entries = locales.load(lang).entries
    used = {k: v for k, v in entries.items() if k.startswith(TEMPLATE_PREFIXES)}
    digest = hashlib.sha256(json.dumps(used, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return f"v{PROMPT_VERSION}-{lang}-{digest[:10]}"


def message_tokens(msg: Message) -> int:
    return estimate_tokens(msg["content"]) + 4      # role and separators


@cache
def _system_tokens(content: str) -> int:
    """The first message is the same all game (and across games): count it once."""
    return estimate_tokens(content) + 4


def rules_text(text: locales.Catalog, pack: C.Pack) -> str:
    """The game's rules text (``locales/<lang>/rules.toml``) with this pack's numbers.

    One sentence per line in reading order; a blank line between sections.
    """
    sentences = rules_sentences(text, pack)
    if not sentences:
        raise locales.LocaleError(f"locales/{text.code}: no rules text (rules.toml) for the prompt")
    lines: list[str] = []
    section = None
    for key, sentence in sentences:
        head = key.split(".")[0]
        if lines and head != section:
            lines.append("")
        section = head
        lines.append(sentence)
    return "\n".join(lines)


def cards_text(text: locales.Catalog, pack: C.Pack) -> str:
    """Every card of the pack: name, type, stats and what it does."""
    lines = []
    for card in pack.cards:
        params: dict[str, Any] = {"name": card.name(text.code), "type": text.t(f"cards.type.{card.type}"),
                                  "text": card_text(card, text)}
        if card.type == C.CHAMPION:
            lines.append(text.t("prompts.card.champion", power=card.power, guard=card.guard, **params))
        else:
            lines.append(text.t("prompts.card.other", **params))
    return "\n".join(lines)


class PromptBuilder:
    """Messages for one seat of one game, in one language."""

    def __init__(self, pack: C.Pack, lang: str, seat: int) -> None:
        self.pack, self.seat = pack, seat
        self.text = locales.load(lang)
        self.lang = lang
        self.narrate = Narrator(self.text, pack, viewer=seat)
        self.version = prompt_version(lang)

    def name(self, card_id: str) -> str:
        return self.pack.card(card_id).name(self.lang)

    def names(self, card_ids: tuple[str, ...] | list[str]) -> str:
        if not card_ids:
            return self.text.t("prompts.none")
        return self.text.t("prompts.list_sep").join(self.name(c) for c in card_ids)

    def system(self) -> Message:
        t = self.text
        content = t.t("prompts.system", seat=self.seat + 1, rules=rules_text(t, self.pack),
                      cards=cards_text(t, self.pack), example=self.pack.cards[0].name(self.lang))
        return {"role": "system", "content": content}

    def _champions(self, views: tuple[ChampionView, ...], mine: bool) -> str:
        t = self.text
        if not views:
            return t.t("prompts.none")
        items = []
        for v in views:
            status = [t.t("prompts.status.frozen")] if v.frozen else []
            if mine and v.can_attack:
                status.append(t.t("prompts.status.attacks"))
            sep = t.t("prompts.list_sep")
            items.append(t.t("prompts.turn.champion", name=self.name(v.card), power=v.power, guard=v.guard,
                             status="".join(sep + s for s in status)))
        return t.t("prompts.item_sep").join(items)

    def turn(self, obs: TcgObservation, events: list[Event], fallback_card: str | None = None) -> Message:
        """The state message for one decision, with what happened since the last one."""
        t = self.text
        me, opp = obs.seat, obs.opponent
        parts: list[str] = []
        if fallback_card:
            parts.append(t.t("prompts.turn.fallback", card=self.name(fallback_card)))
        parts.append(t.t("prompts.turn.header", turn=obs.turn, limit=obs.turn_limit))
        news = self.narrate.all(events)
        if news:
            parts.append(t.t("prompts.turn.news") + "\n" + "\n".join(f"- {line}" for line in news))
        else:
            parts.append(t.t("prompts.turn.news_none"))
        state = [
            t.t("prompts.turn.lp", mine=obs.lp[me], theirs=obs.lp[opp]),
            t.t("prompts.turn.board_mine", list=self._champions(obs.boards[me], True)),
            t.t("prompts.turn.board_theirs", list=self._champions(obs.boards[opp], False)),
            t.t("prompts.turn.tricks_mine", list=self.names(obs.my_tricks)),
            t.t("prompts.turn.opp_hand", count=obs.opp_hand_size),
            t.t("prompts.turn.opp_tricks", count=obs.opp_trick_count),
            t.t("prompts.turn.decks", mine=obs.deck_sizes[me], theirs=obs.deck_sizes[opp]),
            t.t("prompts.turn.grave_mine", list=self.names(obs.graves[me])),
            t.t("prompts.turn.grave_theirs", list=self.names(obs.graves[opp])),
            t.t("prompts.turn.hand", list=self.names(obs.hand)),
        ]
        parts.append("\n".join(state))
        parts.append(t.t("prompts.turn.ask"))
        return {"role": "user", "content": "\n\n".join(parts)}

    def reason(self, error: str, text: str = "", card: str | None = None) -> str:
        """Why a reply was not a move, in the game's language."""
        params: dict[str, Any] = {"text": text}
        if card is not None:
            params["card"] = self.name(card)
        return self.text.t(f"prompts.invalid.reason.{error}", **params)

    def invalid(self, reason: str, obs: TcgObservation, left: int) -> Message:
        return {"role": "user", "content": self.text.t("prompts.invalid.message", reason=reason,
                                                        list=self.names(obs.hand), left=left)}


@dataclass
class TurnLog:
    """One past decision's messages, kept or dropped as a whole."""

    messages: list[Message]
    tokens: int


def fit_history(system: Message, history: list[TurnLog], current: list[Message], budget: int
                ) -> list[Message]:
    """System message, as many recent turns as fit the budget, then the current turn."""
    left = budget - _system_tokens(system["content"]) - sum(message_tokens(m) for m in current)
    kept: list[TurnLog] = []
    for turn in reversed(history):
        if turn.tokens > left:
            break
        kept.append(turn)
        left -= turn.tokens
    out = [system]
    for turn in reversed(kept):
        out.extend(turn.messages)
    out.extend(current)
    return out
