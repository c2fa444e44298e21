"""Card text rendered from card data through a language's templates.

A new pack needs no new text beyond its card names: every effect, trigger and
target has a template in ``locales/<lang>/tcg/cards.toml``.  The catalog is passed
in, so the engine still does no I/O and holds no prose.
"""

from __future__ import annotations

from typing import Protocol

from tcgtui.engine.tcg import cards as C


class Templates(Protocol):
    def t(self, key: str, **params: object) -> str: ...


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def effect_phrase(eff: C.Effect, tpl: Templates) -> str:
    if eff.do == C.DAMAGE:
        return tpl.t(f"cards.effect.damage_{eff.to}", amount=eff.amount)
    if eff.do == C.BUFF:
        direction = "up" if eff.amount > 0 else "down"
        return tpl.t(
            f"cards.effect.buff_{direction}_{eff.until}",
            amount=abs(eff.amount),
            stat=tpl.t(f"cards.stat_in_effect.{eff.stat}"),
            target=tpl.t(f"cards.target.{eff.target}"),
        )
    params: dict[str, object] = {}
    if eff.target:
        params["target"] = tpl.t(f"cards.target.{eff.target}")
    if eff.do in (C.HEAL, C.DRAW, C.BLOCK_WITH):
        params["amount"] = eff.amount
    return tpl.t(f"cards.effect.{eff.do}", **params)


def effects_text(effects: tuple[C.Effect, ...], tpl: Templates) -> str:
    text = effect_phrase(effects[0], tpl)
    for eff in effects[1:]:
        key = "cards.join.if_done" if eff.if_done else "cards.join.then"
        text = tpl.t(key, before=text, effect=effect_phrase(eff, tpl))
    return text


def ability_text(ab: C.Ability, tpl: Templates) -> str:
    when = tpl.t(f"cards.when.{ab.when}", n=ab.n) if ab.n else tpl.t(f"cards.when.{ab.when}")
    return _sentence(tpl.t("cards.join.ability", when=when, effects=effects_text(ab.effects, tpl)))


def shown_lp(lp: int) -> int:
    """Life points as players read them: damage past zero is kept in the state (it decides
    nothing more) but never shown, so a player is at 0, not at -1."""
    return max(0, int(lp))


def card_text(card: C.Card, tpl: Templates) -> str:
    """What the card does, without its name, type or stats."""
    if card.type == C.SPELL:
        return _sentence(tpl.t("cards.join.sentence", effects=effects_text(card.effects, tpl)))
    if card.type == C.TRICK:
        assert card.trigger is not None
        return ability_text(card.trigger, tpl)
    parts = [tpl.t(f"cards.keyword.{k}") for k in C.KEYWORDS if k in card.keywords]
    parts += [ability_text(ab, tpl) for ab in card.abilities]
    return " ".join(parts) if parts else tpl.t("cards.no_text")


def rules_params(pack: C.Pack) -> dict[str, int]:
    r = pack.rules
    return {
        "starting_lp": r.starting_lp,
        "opening_hand": r.opening_hand,
        "turn_limit": r.turn_limit,
        "max_chain": C.MAX_CHAIN,
    }


class Catalog(Templates, Protocol):
    def items(self, prefix: str) -> list[tuple[str, object]]: ...


DECK_LIST_RULES = "tcg.rules"  # the sentences that replace setup.decks in a game with deck lists


def rules_sentences(catalog: Catalog, pack: C.Pack, deck_lists: bool = False) -> list[tuple[str, str]]:
    """The rules text as (key, text) pairs in reading order, numbers from the pack.  With
    ``deck_lists`` (the game's decks are lists, not the whole pack) the deck-list sentences
    stand where the whole-pack one (``setup.decks``) stands."""
    params = {
        **rules_params(pack),
        "deck_size": pack.rules.deck_size or len(pack.cards),
        "max_copies": pack.rules.max_copies,
    }
    out = []
    for key, _ in catalog.items("rules"):
        if deck_lists and key == "setup.decks":
            out += [
                (f"{DECK_LIST_RULES}.{k}", catalog.t(f"{DECK_LIST_RULES}.{k}", **params))
                for k, _ in catalog.items(DECK_LIST_RULES)
            ]
        else:
            out.append((key, catalog.t(f"rules.{key}", **params)))
    return out
