"""The reference scientist: no model, only a hypothesis space, evidence and a decision rule.

It reads nothing but the seat's observation (the board, its plays, its failed
guesses): it keeps every hypothesis (``hypotheses.space()``) consistent with
what it has seen, weighs them by simplicity (a prior of ``exp(-0.3 x
complexity)``), groups the survivors that behave the same from the current
mainline, plays the card whose verdict splits the survivors' weight most
evenly, and guesses the heaviest group when its share passes 2/3, the
threshold where a guess's expected gain (1 point a turn) beats its expected
cost (2 points when wrong).  Its score on each rule and seed is the yardstick
a player can be measured against.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.eleusis.cards import DISTINCT, Card, parse_card
from tcgtui.engine.eleusis.game import consistent
from tcgtui.engine.eleusis.hypotheses import space
from tcgtui.engine.eleusis.judge import accepts, judge
from tcgtui.engine.eleusis.moves import Play
from tcgtui.engine.eleusis.observation import EleusisObservation
from tcgtui.engine.eleusis.rulelang import Rule

THRESHOLD = 2 / 3
PRIOR = 0.3  # weight exp(-PRIOR x complexity): simpler rules first, as people and the library do
GROUPED = 30  # the heaviest survivors grouped by behaviour; the rest count as groups of their own
PROBES = 8  # continuations (and steps) of the quick sameness check between two survivors


def survivors(obs: EleusisObservation) -> list[Rule]:
    """Hypotheses that accept the starter on an empty mainline and give every verdict seen, minus failed guesses."""
    start = [parse_card(obs.board[0][0])] if obs.board and obs.board[0][0] is not None else []
    plays = [(parse_card(c), a) for c, a in obs.plays]
    failed = set(obs.failed_guesses)
    out = []
    for h in space():
        if h.source in failed:
            continue
        if start and not accepts(h, start[0], []):
            continue
        if consistent(h, plays, start):
            out.append(h)
    return out


def weight(h: Rule) -> float:
    return math.exp(-PRIOR * h.complexity)


def _same(a: Rule, b: Rule, mainline: Sequence[Card], signatures: dict[int, tuple[bool, ...]]) -> bool:
    if not a.uses_mainline and not b.uses_mainline:
        return _signature(a, signatures) == _signature(b, signatures)
    return judge(a, b, mainline, seed="scientist", continuations=PROBES, steps=PROBES).equivalent


def _signature(h: Rule, cache: dict[int, tuple[bool, ...]]) -> tuple[bool, ...]:
    key = id(h)
    if key not in cache:
        cache[key] = tuple(accepts(h, c, []) for c in DISTINCT)
    return cache[key]


def groups(alive: list[Rule], mainline: Sequence[Card]) -> list[tuple[float, Rule]]:
    """(weight, representative) of each group of survivors that behave the same, heaviest first."""
    ranked = sorted(alive, key=lambda h: -weight(h))
    signatures: dict[int, tuple[bool, ...]] = {}
    found: list[list[Any]] = []  # [weight, representative]
    for i, h in enumerate(ranked):
        if i < GROUPED:
            for g in found:
                if _same(g[1], h, mainline, signatures):
                    g[0] += weight(h)
                    break
            else:
                found.append([weight(h), h])
        else:
            found.append([weight(h), h])
    return sorted(((w, r) for w, r in found), key=lambda x: -x[0])


def best_card(alive: list[Rule], hand: Sequence[str], mainline: Sequence[Card], rng: Any) -> str:
    """The card of the hand whose verdict is most uncertain under the survivors' weights."""
    total = sum(weight(h) for h in alive) or 1.0
    scored = []
    for text in sorted(set(hand)):
        card = parse_card(text)
        yes = sum(weight(h) for h in alive if accepts(h, card, mainline)) / total
        scored.append((min(yes, 1 - yes), rng.random(), text))
    return max(scored)[2]


def decide(obs: EleusisObservation, rng: Any) -> Play:
    mainline = [parse_card(c) for c in obs.mainline]
    alive = survivors(obs)
    card = (
        parse_card(best_card(alive, obs.legal_moves, mainline, rng))
        if alive
        else parse_card(rng.choice(obs.legal_moves))
    )
    if not alive:
        return Play(card)
    ranked = groups(alive, mainline)
    total = sum(w for w, _ in ranked)
    share, top = ranked[0][0] / total, ranked[0][1]
    confidence = min(10, int(share * 10))
    return Play(card, guess=share > THRESHOLD, rule=top.source, code=top.source, confidence=confidence)


def policy(game: Game, arg: int | None) -> Callable[[Any, Any], str]:
    """``choose(state, rng)`` for the arena's reference player; it looks only at the seat's observation."""

    def choose(state: Any, rng: Any) -> str:
        return decide(state.observation(0), rng).text()

    return choose
