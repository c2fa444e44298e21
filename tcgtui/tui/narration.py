"""The battle log's sentences: one event, one sentence, in the reader's language.

Kept to a single function so the LLM branch's narrator (``opponents/narrate.py``)
can replace it at merge.  Templates live in ``locales/<lang>/ui.toml`` under
``narrate``: ``you`` for what the reader did, ``other`` for the opponent (or, for
a spectator, "player N"), ``any`` for champions, whose owner is named in the
phrase itself.  The event is filtered to the reader's seat first, so a hidden
card is never named.
"""

from __future__ import annotations

from engine.core import Event
from engine.tcg.cards import Pack
from locales import Catalog

SPECTATOR = -1

# Champion events read the same from any seat: the owner goes into {champ}.
_CHAMPION_EVENTS = ("ability", "attack", "attack_stopped", "destroy", "freeze")


def _card(card_id: object, pack: Pack, lang: str) -> str:
    try:
        return pack.card(str(card_id)).name(lang)
    except KeyError:
        return str(card_id)


def _names(ids: list[str], pack: Pack, text: Catalog) -> str:
    names = [_card(c, pack, text.code) for c in ids]
    if len(names) < 2:
        return "".join(names)
    rest = text.t("ui.narrate.list_sep").join(names[:-1])
    return text.t("ui.narrate.list_last", rest=rest, last=names[-1])


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def narrate(event: Event, seat: int, catalog: Catalog, pack: Pack) -> str | None:
    """A sentence for the log from ``seat``'s point of view (``SPECTATOR`` sees all),
    or None for events the log shows otherwise (the end of a turn: the next turn's
    header marks it)."""
    if seat != SPECTATOR:
        event = event.for_seat(seat)
    t, lang, d, kind = catalog.t, catalog.code, event.data, event.kind
    if kind == "end_turn":
        return None
    player = event.player
    who = (t("ui.narrate.player", n=player + 1) if seat == SPECTATOR
           else t("ui.narrate.opponent"))

    def champ(owner: int, card_id: object) -> str:
        name = _card(card_id, pack, lang)
        if owner == seat:
            return t("ui.narrate.champ_you", card=name)
        owner_name = (t("ui.narrate.player", n=owner + 1) if seat == SPECTATOR
                      else t("ui.narrate.opponent"))
        return t("ui.narrate.champ_other", who=owner_name, card=name)

    if kind == "game_over":
        if player < 0:
            return _sentence(t("ui.narrate.any.draw_game"))
        return _sentence(t("ui.narrate.you.win") if player == seat else t("ui.narrate.other.win", who=who))
    if kind in _CHAMPION_EVENTS:
        return _sentence(t(f"ui.narrate.any.{kind}", champ=champ(player, d.get("card")),
                           power=d.get("power", 0), until_turn=d.get("until_turn", 0)))
    if kind == "block":
        blockers = _names(list(d.get("blockers", [])), pack, catalog)
        n = len(d.get("blockers", []))
        owner = (t("ui.narrate.blockers_you", cards=blockers, n=n) if player == seat else
                 t("ui.narrate.blockers_other", cards=blockers, who=who, n=n))
        return _sentence(t("ui.narrate.any.block", blockers=owner, n=n,
                           attacker=champ(1 - player, d.get("attacker"))))
    if kind == "buff":
        direction = "up" if d.get("amount", 0) > 0 else "down"
        temp = "_temp" if d.get("until") == "end_of_turn" else ""
        return _sentence(t(f"ui.narrate.any.{d.get('stat')}_{direction}{temp}",
                           champ=champ(player, d.get("card")), amount=abs(int(d.get("amount", 0))),
                           power=d.get("power", 0), guard=d.get("guard", 0)))
    if kind == "repeat":
        return _sentence(t("ui.narrate.any.repeat", card=_card(d.get("card"), pack, lang)))

    persona = "you" if player == seat else "other"
    params: dict[str, object] = {"who": who, "turn": d.get("turn", 0), "amount": d.get("amount", 0),
                                 "lp": d.get("lp", 0), "count": d.get("count", 0)}
    key = kind
    if "card" in d:
        params["card"] = _card(d["card"], pack, lang)
    elif kind in ("draw", "set_trick"):
        key = f"{kind}_hidden"
    if kind in ("damage", "heal"):
        if d.get("source"):
            params["source"] = _card(d["source"], pack, lang)
        else:
            key = f"{kind}_plain"
        if kind == "damage" and int(d.get("lp", 0)) <= 0:
            key += "_out"       # no negative number in prose: right-to-left text would show "1-"
    return _sentence(t(f"ui.narrate.{persona}.{key}", **params))
