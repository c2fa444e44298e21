"""Build exact positions for rule tests: who holds what, who is on the board."""

from __future__ import annotations

import random
from typing import Any

from tcgtui.engine.tcg import Pack, build_pack
from tcgtui.engine.tcg.state import Champion, TcgState
from tcgtui.games.tcg.packs import load_pack


def pack_from(cards: list[dict[str, Any]], pack_id: str = "test", **rules: int) -> Pack:
    """A pack built in memory from card tables, with English names made from ids."""
    manifest = {"pack": {"id": pack_id, "version": 1, **rules}, "card": cards}
    names = {c["id"]: {"name": c["id"].replace("_", " ").title()} for c in cards}
    return build_pack(manifest, {"en": {"pack": {"name": pack_id}, "card": names}})


def all_cards_pack() -> Pack:
    """The 15 community cards and the 3 starter cards in one pack."""
    import tomllib
    from tcgtui.games.tcg.packs import resolve
    cards = []
    for name in ("community", "starter"):
        with (resolve(name) / "pack.toml").open("rb") as fh:
            cards += tomllib.load(fh)["card"]
    return pack_from(cards, "all")


def champ(card: str, **fields: Any) -> dict[str, Any]:
    return {"card": card, **fields}


def position(pack: Pack, *, current: int = 0, turn: int = 5, lp: tuple[int, int] = (10, 10),
             hands: tuple[list[str], list[str]] = ([], []),
             boards: tuple[list[Any], list[Any]] = ([], []),
             tricks: tuple[list[str], list[str]] = ([], []),
             graves: tuple[list[str], list[str]] = ([], []),
             decks: tuple[list[str] | None, list[str] | None] = (None, None),
             seed: int = 0) -> TcgState:
    """A state at the start of ``current``'s main phase (after its draw).

    Decks default to every card not placed elsewhere, in pack order, the last
    card on top.  Board entries are card ids or ``champ(id, power=.., ...)``.
    """
    idx = pack.index  # type: ignore[attr-defined]
    s = TcgState.__new__(TcgState)
    s.pack, s.cards, s.rules = pack, pack.cards, pack.rules
    s.lp = list(lp)
    s.hands = [[idx[c] for c in h] for h in hands]
    s.tricks = [[idx[c] for c in t] for t in tricks]
    s.graves = [[idx[c] for c in g] for g in graves]
    s.boards = [[], []]
    for p in (0, 1):
        for entry in boards[p]:
            spec = entry if isinstance(entry, dict) else {"card": entry}
            card = pack.card(spec["card"])
            ch = Champion(idx[card.id], spec.get("power", card.power), spec.get("guard", card.guard),
                          spec.get("summoned_turn", 1))
            ch.temp_power = spec.get("temp_power", 0)
            ch.temp_guard = spec.get("temp_guard", 0)
            ch.frozen_through = spec.get("frozen_through", 0)
            s.boards[p].append(ch)
    s.decks = [[], []]
    for p in (0, 1):
        if decks[p] is not None:
            s.decks[p] = [idx[c] for c in decks[p]]
        else:
            used = set(s.hands[p]) | set(s.tricks[p]) | set(s.graves[p]) | {c.card for c in s.boards[p]}
            s.decks[p] = [i for i in range(len(pack.cards)) if i not in used]
    s.turn, s.current, s._outcome, s._depth = turn, current, None, 0
    s.rng = random.Random(seed)
    s._events, s.start_events = [], []
    return s


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def of(events: list, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def board_ids(state: TcgState, p: int) -> list[str]:
    return [state.cards[c.card].id for c in state.boards[p]]


__all__ = ["all_cards_pack", "board_ids", "champ", "kinds", "load_pack", "of", "pack_from", "position"]


def rule(key: str):
    """Mark a test as checking the rules-text entry ``key`` (see test_rules_coverage)."""
    import pytest
    return pytest.mark.rule(key)
