"""Helpers for the opponents' tests: random packs that use every primitive, and a
Python twin of the fast path's random stream so both rule engines can share it."""

from __future__ import annotations

import random

from tcgtui.engine.tcg import Pack, TcgState, build_pack
from tcgtui.engine.tcg import cards as C

_MASK = (1 << 64) - 1


class SplitMix:
    """The fast path's SplitMix64 stream, usable as ``TcgState.rng`` (it only shuffles)."""

    def __init__(self, state: int = 0) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        return ((self.next() >> 32) * bound) >> 32

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    @classmethod
    def seeded(cls, seed: int, a: int, b: int) -> SplitMix:
        """``rules.rng_seed``: the stream of playout (a, b) under ``seed``."""
        r = cls(seed)
        r.state = r.next() ^ a
        r.state = r.next() ^ b
        r.state = r.next()
        return r


def random_playout(state: TcgState, rng: SplitMix) -> None:
    """The fast path's playout policy on the reference engine, drawing from the same stream."""
    state.rng = rng
    while not state.is_terminal():
        hand = state.hands[state.current]
        state.apply(state.cards[hand[rng.below(len(hand))]].id)


# --- random packs ---------------------------------------------------------------------------

_SIDE_PICKS = tuple(t for t in C.TARGETS if t.startswith(("your_", "enemy_")))


def _targets(when: str | None, champion: bool) -> list[str]:
    out = ["all_yours", "all_enemies", *_SIDE_PICKS]
    if champion:
        out.append(C.THIS)
    if when in C.ATTACK_TRIGGERS:
        out += [C.ATTACKER] * 4
    if when == C.THIS_BLOCKED:
        out += [C.BLOCKERS] * 4
    return out


def _effect(rng: random.Random, when: str | None, champion: bool, first: bool) -> dict:
    kinds = [C.DAMAGE, C.DAMAGE, C.HEAL, C.DRAW, C.BUFF, C.BUFF, C.DESTROY, C.FREEZE, C.SHUFFLE_HAND]
    if when == C.YOU_CAST_SPELL:
        kinds += [C.REPEAT_SPELL] * 3
    if when == C.ENEMY_ATTACKS:
        kinds += [C.BLOCK_WITH] * 3
    if when in C.ATTACK_TRIGGERS:
        kinds += [C.CANCEL_ATTACK] * 2
    do = rng.choice(kinds)
    eff: dict = {"do": do}
    if do == C.DAMAGE:
        eff.update(amount=rng.randint(1, 4), to=rng.choice([C.OPPONENT] * 3 + [C.YOU]))
    elif do in (C.HEAL, C.DRAW):
        eff["amount"] = rng.randint(1, 3)
    elif do == C.BUFF:
        eff.update(stat=rng.choice(C.STATS), amount=rng.choice([-2, -1, 1, 2, 3]),
                   target=rng.choice(_targets(when, champion)), until=rng.choice(C.DURATIONS))
    elif do in (C.DESTROY, C.FREEZE):
        eff["target"] = rng.choice(_targets(when, champion))
    elif do == C.BLOCK_WITH:
        eff["amount"] = rng.randint(2, 3)
    if not first and rng.random() < 0.3:
        eff["if_done"] = True
    return eff


def _ability(rng: random.Random, champion: bool) -> dict:
    whens = [w for w in C.TRIGGERS if champion or w not in C.CHAMPION_ONLY_TRIGGERS]
    when = rng.choice(whens)
    out: dict = {"when": when,
                 "effects": [_effect(rng, when, champion, i == 0) for i in range(rng.randint(1, 3))]}
    if when in C.TRIGGERS_WITH_N:
        out["n"] = rng.randint(1, 8)
    return out


def random_pack_data(seed: int) -> tuple[dict, dict]:
    """A valid manifest and English text, drawn from ``seed``."""
    rng = random.Random(seed)
    cards = []
    for i in range(rng.randint(6, 16)):
        kind = rng.choice([C.CHAMPION, C.CHAMPION, C.SPELL, C.TRICK])
        card: dict = {"id": f"c{i}", "type": kind}
        if kind == C.CHAMPION:
            card.update(power=rng.randint(0, 4), guard=rng.randint(0, 5),
                        keywords=[k for k in C.KEYWORDS if rng.random() < 0.2],
                        abilities=[_ability(rng, True) for _ in range(rng.choice([0, 1, 1, 2]))])
        elif kind == C.SPELL:
            card["effects"] = [_effect(rng, None, False, j == 0) for j in range(rng.randint(1, 3))]
        else:
            card.update(_ability(rng, False))
        cards.append(card)
    manifest = {"pack": {"id": f"random-{seed}", "starting_lp": rng.randint(4, 14),
                         "opening_hand": rng.randint(1, 4), "turn_limit": rng.randint(8, 50)},
                "card": cards}
    text = {"pack": {"name": f"Random {seed}"}, "card": {c["id"]: {"name": f"Card {c['id']}"} for c in cards}}
    return manifest, {"en": text}


def random_pack(seed: int) -> Pack:
    manifest, texts = random_pack_data(seed)
    return build_pack(manifest, texts, source=f"random:{seed}")


def primitives(pack: Pack) -> set[str]:
    """Every vocabulary item a pack uses, as 'kind:name' strings."""
    used: set[str] = set()

    def effects(effs: tuple[C.Effect, ...]) -> None:
        for e in effs:
            used.add(f"effect:{e.do}")
            if e.target:
                used.add(f"target:{e.target}")
            if e.do == C.BUFF:
                used.add(f"stat:{e.stat}")
                used.add(f"until:{e.until}")
            if e.do == C.DAMAGE:
                used.add(f"to:{e.to}")
            if e.if_done:
                used.add("if_done")

    for card in pack.cards:
        used.add(f"type:{card.type}")
        used.update(f"keyword:{k}" for k in card.keywords)
        for ab in card.abilities + ((card.trigger,) if card.trigger else ()):
            used.add(f"trigger:{ab.when}")
            effects(ab.effects)
        effects(card.effects)
    return used


def vocabulary() -> set[str]:
    return ({f"effect:{e}" for e in C.EFFECTS} | {f"target:{t}" for t in C.TARGETS}
            | {f"trigger:{t}" for t in C.TRIGGERS} | {f"keyword:{k}" for k in C.KEYWORDS}
            | {f"type:{t}" for t in C.CARD_TYPES} | {f"stat:{s}" for s in C.STATS}
            | {f"until:{u}" for u in C.DURATIONS} | {f"to:{p}" for p in C.PLAYERS} | {"if_done"})


def midgame(pack: Pack, seed: int, turn: int) -> TcgState:
    """A position reached by random play: the first one at or after ``turn`` (or the last
    before the game ended), with the player to move holding at least one card."""
    state = TcgState.new(pack, seed)
    rng = random.Random(seed)
    last = state.clone()
    while not state.is_terminal() and state.turn < turn:
        last = state.clone()
        state.apply(rng.choice(state.legal_moves()))
    return last if state.is_terminal() else state
