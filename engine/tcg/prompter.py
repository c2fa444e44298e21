"""What a language model reads and writes in the card game: the card game's ``Prompter``.

The first (system) message carries the game's rules text and every card's
text; each turn message carries the whole visible state plus what happened
since the model's last move, narrated for its seat.  The model answers with a
card name between ``<BEGIN_MOVE>`` and ``<END_MOVE>`` (``soft`` parsing also
takes the last card named).  The prompt version hashes every template a prompt
is made of, so a changed word shows up in the records.

All text comes from the locale catalog handed in (``locales/<lang>/tcg/prompts.toml``,
``events.toml``, ``card_rules.toml``, ``cards.toml``): the engine loads nothing.
The loop that talks to the model is ``opponents.llm``'s, shared by every game.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import TYPE_CHECKING, Any

from tcgtui.engine.core import Event
from tcgtui.engine.prompting import Message, Parsed
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.describe import DECK_LIST_RULES, card_text, rules_sentences
from tcgtui.engine.tcg.narrator import Narrator
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation
from tcgtui.engine.tcg.parse import STRICT, CardMatcher, CardParsed, parse_answer

if TYPE_CHECKING:
    from tcgtui.engine.tcg.game import TcgGame

PROMPT_VERSION = 1  # bump when the structure (not only the wording) of prompts changes
TEMPLATE_PREFIXES = ("prompts.", "events.", "rules.", "cards.")
STYLES = ("text",)

_MATCHERS: dict[str, CardMatcher] = {}  # per pack hash: building one compiles a large pattern


def prompt_version(catalog: Any, deck_lists: bool = False) -> str:
    """``v1-en-<hash>``: the explicit version plus a hash of this language's templates (with deck
    lists, their rules sentences too; without, the version is what it always was)."""
    prefixes = TEMPLATE_PREFIXES + ((DECK_LIST_RULES + ".",) if deck_lists else ())
    used = {k: v for k, v in catalog.entries.items() if k.startswith(prefixes)}
    digest = hashlib.sha256(json.dumps(used, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return f"v{PROMPT_VERSION}-{catalog.code}-{digest[:10]}"


def _locale_error(catalog: Any, message: str) -> Exception:
    """The catalog's own error (``locales.LocaleError``) without the engine importing the locales package."""
    cls = getattr(sys.modules.get(type(catalog).__module__), "LocaleError", LookupError)
    return cls(message)


def matcher(pack: C.Pack) -> CardMatcher:
    found = _MATCHERS.get(pack.hash)
    if found is None:
        if len(_MATCHERS) > 16:
            _MATCHERS.clear()
        found = _MATCHERS[pack.hash] = CardMatcher(pack)
    return found


def rules_text(text: Any, pack: C.Pack, deck_lists: bool = False) -> str:
    """The game's rules text (``locales/<lang>/tcg/card_rules.toml``) with this pack's numbers.

    One sentence per line in reading order; a blank line between sections.
    """
    sentences = rules_sentences(text, pack, deck_lists)
    if not sentences:
        raise _locale_error(text, f"locales/{text.code}: no rules text (tcg/card_rules.toml) for the prompt")
    lines: list[str] = []
    section = None
    for key, sentence in sentences:
        head = key.split(".")[0]
        if lines and head != section:
            lines.append("")
        section = head
        lines.append(sentence)
    return "\n".join(lines)


def cards_text(text: Any, pack: C.Pack) -> str:
    """Every card of the pack: name, type, stats and what it does."""
    lines = []
    for card in pack.cards:
        params: dict[str, Any] = {
            "name": card.name(text.code),
            "type": text.t(f"cards.type.{card.type}"),
            "text": card_text(card, text),
        }
        if card.type == C.CHAMPION:
            lines.append(text.t("prompts.card.champion", power=card.power, guard=card.guard, **params))
        else:
            lines.append(text.t("prompts.card.other", **params))
    return "\n".join(lines)


class TcgPrompter:
    """Messages for one seat of one card game, in one language, and the reader of replies.

    ``parse_mode`` (``strict`` or ``soft``) is set by the player from its settings.
    """

    keeps_history = True

    def __init__(
        self, pack: C.Pack, catalog: Any, seat: int, style: str | None = None, deck_lists: bool = False
    ) -> None:
        if style not in (None, *STYLES):
            raise ValueError(f"the card game has no prompt style {style!r}; expected one of {', '.join(STYLES)}")
        self.pack, self.seat, self.style = pack, seat, style or STYLES[0]
        self.text = catalog
        self.lang = catalog.code
        self.narrate = Narrator(catalog, pack, viewer=seat)
        self.deck_lists = deck_lists  # the decks are lists: the rules say so (see rules_sentences)
        self.version = prompt_version(catalog, deck_lists)
        self.matcher = matcher(pack)
        self.parse_mode = STRICT

    def name(self, card_id: str) -> str:
        return self.pack.card(card_id).name(self.lang)

    def names(self, card_ids: tuple[str, ...] | list[str]) -> str:
        if not card_ids:
            return self.text.t("prompts.none")
        return self.text.t("prompts.list_sep").join(self.name(c) for c in card_ids)

    def system(self) -> Message:
        t = self.text
        content = t.t(
            "prompts.system",
            seat=self.seat + 1,
            rules=rules_text(t, self.pack, self.deck_lists),
            cards=cards_text(t, self.pack),
            example=self.pack.cards[0].name(self.lang),
        )
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
            items.append(
                t.t(
                    "prompts.turn.champion",
                    name=self.name(v.card),
                    power=v.power,
                    guard=v.guard,
                    status="".join(sep + s for s in status),
                )
            )
        return t.t("prompts.item_sep").join(items)

    def turn(
        self,
        obs: TcgObservation,
        events: list[Event],
        fallback: str | None = None,
        retry: tuple[str, str] | None = None,
    ) -> Message:
        """The state message for one decision, with what happened since the last one.

        ``retry`` never comes: the card game's rules do not count invalid moves
        (the player re-prompts within the decision instead, see ``invalid``).
        """
        t = self.text
        me, opp = obs.seat, obs.opponent
        parts: list[str] = []
        if fallback:
            parts.append(t.t("prompts.turn.fallback", card=self.name(fallback)))
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

    def parse(self, answer: str, obs: TcgObservation) -> Parsed:
        """The card the answer names; ``not_in_hand`` when it names one that cannot be played now."""
        parsed = parse_answer(answer, self.matcher, self.parse_mode)
        if parsed.error is None and parsed.move not in obs.legal_moves:
            return CardParsed(parsed.move, parsed.path, "not_in_hand", parsed.text)
        return parsed

    def reason(self, parsed: Parsed) -> str:
        """Why a reply was not a move, in the game's language."""
        params: dict[str, Any] = {"text": parsed.text}
        if parsed.move is not None:
            params["card"] = self.name(parsed.move)
        return self.text.t(f"prompts.invalid.reason.{parsed.error}", **params)

    def invalid(self, reason: str, obs: TcgObservation, left: int) -> Message:
        return {
            "role": "user",
            "content": self.text.t("prompts.invalid.message", reason=reason, list=self.names(obs.hand), left=left),
        }


def build(game: TcgGame, catalog: Any, seat: int, style: str | None = None) -> TcgPrompter:
    """``GameSpec.prompter`` of the card game."""
    return TcgPrompter(game.pack, catalog, seat, style, deck_lists=not game.default_decks)
