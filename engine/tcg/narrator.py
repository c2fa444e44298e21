"""Game events told as sentences, in any language and from any seat's point of view.

Prompts and the battle log both use it (registered as the card game's
``GameSpec.narrator``; the catalog is passed in, the engine loads no text).  ``viewer`` is the seat reading:
its own events read "you ...", the other seat's "your opponent ...".  With no
viewer (an onlooker) both seats are named "player 1" and "player 2".  Events
arrive already filtered for the reader (``Event.for_seat``), so a hidden card
is simply absent and the ``other_hidden`` sentence is used.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from tcgtui.engine.core import Event
from tcgtui.engine.tcg.describe import shown_lp


class Catalog(Protocol):
    """What the narrator reads of a locale catalog (``tcgtui.locales.Catalog``), passed in."""

    code: str

    def t(self, key: str, /, **params: object) -> str: ...

    def has(self, key: str) -> bool: ...


def join_names(names: list[str], text: Catalog) -> str:
    """``A``, ``A and B``, ``A, B and C`` in the catalog's language."""
    sep = text.t("prompts.list_sep")
    if len(names) <= 1:
        return "".join(names)
    return sep.join(names[:-1]) + text.t("events.and") + names[-1]


class Narrator:
    """Turns events into sentences for one reader; reuse it across a game."""

    def __init__(self, text: Catalog, pack: Any = None, viewer: int | None = None) -> None:
        self.text, self.pack, self.viewer = text, pack, viewer
        self.lang = text.code

    def card(self, card_id: Any) -> str:
        if self.pack is None or card_id not in getattr(self.pack, "index", {}):
            return str(card_id)
        return self.pack.card(card_id).name(self.lang)

    def player(self, seat: int) -> str:
        if self.viewer is not None:
            return self.text.t("events.player.opponent")
        return self.text.t("events.player.seat", n=seat + 1)

    def __call__(self, event: Event) -> str:
        kind, d = event.kind, event.data
        t = self.text
        mine = self.viewer is not None and event.player == self.viewer
        who = "you" if mine else "other"
        params: dict[str, Any] = {"player": self.player(event.player)}
        key = f"events.{kind}.{who}"
        if kind == "game_over":
            params["reason"] = t.t(f"events.reason.{d.get('reason', 'lp')}")
            if event.player < 0:
                key = "events.game_over.draw"
        elif kind == "block":
            params["attacker"] = self.card(d.get("attacker"))
            params["blockers"] = join_names([self._quoted(b) for b in d.get("blockers", [])], t)
        elif kind in ("damage", "heal"):
            params.update(amount=d.get("amount"), lp=shown_lp(d.get("lp", 0)))
            if d.get("source") is None:
                key += "_plain"
            else:
                params["source"] = self.card(d["source"])
        elif kind == "buff":
            amount = int(d.get("amount", 0))
            key += "_up" if amount >= 0 else "_down"
            until = d.get("until") == "end_of_turn"
            params.update(
                amount=abs(amount),
                power=d.get("power"),
                guard=d.get("guard"),
                card=self.card(d.get("card")),
                stat=t.t(f"events.buff.stat.{d.get('stat', 'power')}"),
                until=t.t("events.buff.until_end_of_turn") if until else "",
            )
        else:
            if "card" in d:
                params["card"] = self.card(d["card"])
            elif t.has(f"events.{kind}.other_hidden") and not mine:
                key = f"events.{kind}.other_hidden"
            params.update({k: v for k, v in d.items() if k not in ("card", "player")})
        if not t.has(key):  # an event this language has no sentence for (a newer engine)
            return self._sentence(t.t("events.unknown.other", kind=kind, player=params["player"]))
        return self._sentence(t.t(key, **params))

    def _quoted(self, card_id: Any) -> str:
        """A card name inside a list, quoted the way the language quotes names."""
        return self.text.t("events.name", card=self.card(card_id))

    @staticmethod
    def _sentence(text: str) -> str:
        return text[:1].upper() + text[1:]

    def all(self, events: Iterable[Event]) -> list[str]:
        return [self(e) for e in events]
