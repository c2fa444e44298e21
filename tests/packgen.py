"""Random valid packs over the whole effect vocabulary, from an explicit seed.

Property tests play thousands of games on these so that "every game ends" and
"observations never leak" hold for any pack, not just the shipped ones.
"""

from __future__ import annotations

import random
from typing import Any

from tcgtui.engine.tcg import Pack
from tcgtui.engine.tcg import cards as C
from tests.scenario import pack_from

GENERAL_TARGETS = [t for t in C.TARGETS if t not in (C.THIS, C.ATTACKER, C.BLOCKERS)]


def _effect(rng: random.Random, when: str | None, champion: bool, first: bool) -> dict[str, Any]:
    options = [C.DAMAGE, C.HEAL, C.DRAW, C.BUFF, C.DESTROY, C.FREEZE, C.SHUFFLE_HAND]
    if when == C.YOU_CAST_SPELL:
        options.append(C.REPEAT_SPELL)
    if when == C.ENEMY_ATTACKS:
        options.append(C.BLOCK_WITH)
    if when in C.ATTACK_TRIGGERS:
        options.append(C.CANCEL_ATTACK)
    do = rng.choice(options)
    targets = list(GENERAL_TARGETS)
    if champion:
        targets.append(C.THIS)
    if when in C.ATTACK_TRIGGERS:
        targets.append(C.ATTACKER)
    if when == C.THIS_BLOCKED:
        targets.append(C.BLOCKERS)
    eff: dict[str, Any] = {"do": do}
    if do in (C.DAMAGE, C.HEAL):
        eff["amount"] = rng.randint(1, 4)
    if do == C.DAMAGE:
        eff["to"] = rng.choice(C.PLAYERS)
    if do == C.DRAW:
        eff["amount"] = rng.randint(1, 3)
    if do == C.BLOCK_WITH:
        eff["amount"] = rng.randint(2, 3)
    if do == C.BUFF:
        eff.update(stat=rng.choice(C.STATS), amount=rng.choice([-2, -1, 1, 2, 3]),
                   until=rng.choice(C.DURATIONS))
    if do in (C.BUFF, C.DESTROY, C.FREEZE):
        eff["target"] = rng.choice(targets)
    if not first and rng.random() < 0.2:
        eff["if_done"] = True
    return eff


def _effects(rng: random.Random, when: str | None, champion: bool) -> list[dict[str, Any]]:
    return [_effect(rng, when, champion, i == 0) for i in range(rng.choice([1, 1, 2, 3]))]


def random_pack(seed: int) -> Pack:
    rng = random.Random(seed)
    cards: list[dict[str, Any]] = []
    for i in range(rng.randint(3, 18)):
        kind = rng.choice(C.CARD_TYPES)
        card: dict[str, Any] = {"id": f"c{i}", "type": kind}
        if kind == C.CHAMPION:
            card.update(power=rng.randint(0, 6), guard=rng.randint(0, 6),
                        keywords=rng.sample(C.KEYWORDS, rng.randint(0, 2)))
            abilities = []
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                when = rng.choice(C.TRIGGERS)
                ab: dict[str, Any] = {"when": when, "effects": _effects(rng, when, True)}
                if when in C.TRIGGERS_WITH_N:
                    ab["n"] = rng.randint(1, 6)
                abilities.append(ab)
            card["abilities"] = abilities
        elif kind == C.SPELL:
            card["effects"] = _effects(rng, None, False)
        else:
            when = rng.choice([t for t in C.TRIGGERS if t not in C.CHAMPION_ONLY_TRIGGERS])
            card.update(when=when, effects=_effects(rng, when, False))
            if when in C.TRIGGERS_WITH_N:
                card["n"] = rng.randint(1, 6)
        cards.append(card)
    return pack_from(cards, f"random-{seed}", starting_lp=rng.randint(1, 20),
                     opening_hand=rng.randint(0, 5), turn_limit=rng.randint(2, 60))
