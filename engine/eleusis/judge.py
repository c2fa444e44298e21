"""Is a guessed rule the secret rule?  The seed's simulation, made reproducible.

From the current mainline, 100 continuations of up to 40 steps: at each step
both rules are asked about all 52 distinct cards; any disagreement, or an
error in the guess, makes the guess wrong, with that mainline and card as the
counterexample; otherwise a card the secret rule accepts (chosen by a seeded
generator) is appended.  When neither rule reads the mainline the answer is
exact: the 52 cards are all there is to compare.

``seed_walk`` is the seed's own walk (``--protocol seed``): one generator seeded
with 42 for the whole verdict, the 52 cards tried rank by rank (each rank in
the suit order hearts, diamonds, clubs, spades), every continuation compared at
each of its 40 steps from the starting mainline itself, a card drawn after every
step (the last one too), and an error in either rule a disagreement.  tcgtui's
own walk seeds its generator from the round and the mainline, so a guess judged
twice on one mainline is judged alike, and never spends a draw it will not use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.eleusis.cards import DISTINCT, SUITS, Card
from tcgtui.engine.eleusis.rulelang import BUDGET, MAX_STEPS, Rule, RuleError

CONTINUATIONS = 100
STEPS = 40
SEED_SIMULATION = 42  # the seed's configured simulation seed (rule_compiler.simulation_seed)
SEED_WALK = "seed-walk"  # ``remembered``'s seed for a verdict of ``seed_walk`` (a round's seeds have a ':')
RANK_MAJOR: tuple[Card, ...] = tuple(Card(r, s) for r in range(1, 14) for s in SUITS)  # the seed's card order
VERDICT_STEPS = 40_000_000  # the guess's steps over a verdict (about 10 s; the library's rules need at most 8M)


@dataclass(frozen=True)
class Verdict:
    """``counterexample``: the mainline, the card, and what the secret rule says of it."""

    equivalent: bool
    exact: bool
    counterexample: tuple[tuple[Card, ...], Card, bool] | None = None
    error: RuleError | None = None  # the guess failed to run on the counterexample
    walk: int = 0  # the continuation that found it, from 1 (0: the starting mainline)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"equivalent": self.equivalent, "exact": self.exact, "counterexample": None}
        if self.counterexample is not None:
            mainline, card, truth = self.counterexample
            out["counterexample"] = {
                "mainline": [c.text() for c in mainline],
                "card": card.text(),
                "secret_rule_accepts": truth,
            }
            if self.error is not None:
                out["counterexample"]["guess_error"] = str(self.error)
        return out


def accepts(rule: Rule, card: Card, mainline: Sequence[Card]) -> bool:
    """The secret rule's answer: a rule that errs on a card rejects it."""
    try:
        return rule.accepts(card, mainline)
    except RuleError:
        return False


class _Steps:
    """The steps a whole verdict may spend running the guess (a slow guess is a wrong guess, not a hang)."""

    def __init__(self, limit: int) -> None:
        self.left = limit


def _disagreement(
    truth: Rule,
    guess: Rule,
    mainline: list[Card],
    spent: _Steps,
    cards: Sequence[Card] = DISTINCT,
    truth_errs: bool = False,
) -> tuple[Verdict | None, list[Card]]:
    """Compare both rules on the 52 cards after ``mainline``; the first disagreement, and the cards accepted.
    ``truth_errs``: an error of the secret rule is a disagreement too (the seed), not a rejection."""
    accepted: list[Card] = []
    for card in cards:
        if truth_errs:
            try:
                t = truth.accepts(card, mainline)
            except RuleError as exc:
                return Verdict(False, False, (tuple(mainline), card, False), exc), accepted
        else:
            t = accepts(truth, card, mainline)
        try:
            g, used = guess.counted(card, mainline, min(MAX_STEPS, max(1, spent.left)))
            spent.left -= used
            if spent.left <= 0:
                raise RuleError(BUDGET, "verdict")
        except RuleError as exc:
            return Verdict(False, False, (tuple(mainline), card, t), exc), accepted
        if t != g:
            return Verdict(False, False, (tuple(mainline), card, t)), accepted
        if t:
            accepted.append(card)
    return None, accepted


def judge(
    truth: Rule,
    guess: Rule,
    mainline: Sequence[Card],
    seed: int | str = 0,
    continuations: int = CONTINUATIONS,
    steps: int = STEPS,
    max_steps: int = VERDICT_STEPS,
) -> Verdict:
    """Whether ``guess`` behaves as ``truth`` from ``mainline`` on (reproducible from ``seed``)."""
    start = list(mainline)
    exact = not truth.uses_mainline and not guess.uses_mainline
    spent = _Steps(max_steps)
    found, first_accepted = _disagreement(truth, guess, start, spent)
    if found is not None:
        return Verdict(False, exact, found.counterexample, found.error)
    if exact:
        return Verdict(True, True)
    rng = random.Random(f"eleusis-judge:{seed}:{' '.join(c.text() for c in start)}")
    for _ in range(continuations):
        line = list(start)
        accepted = first_accepted
        for _ in range(steps - 1):
            if not accepted:
                break
            line.append(rng.choice(accepted))
            found, accepted = _disagreement(truth, guess, line, spent)
            if found is not None:
                return found
    return Verdict(True, False)


def seed_walk(
    truth: Rule,
    guess: Rule,
    mainline: Sequence[Card],
    simulations: int = CONTINUATIONS,
    turns: int = STEPS,
    seed: int = SEED_SIMULATION,
    max_steps: int = VERDICT_STEPS,
) -> Verdict:
    """The seed's verdict on ``guess`` from ``mainline``: its walk, draw for draw (see the module's docstring)."""
    start = list(mainline)
    exact = not truth.uses_mainline and not guess.uses_mainline
    spent = _Steps(max_steps)
    found, first_accepted = _disagreement(truth, guess, start, spent, RANK_MAJOR, truth_errs=True)
    if found is not None:
        return Verdict(False, exact, found.counterexample, found.error)
    if exact:  # every step compares the same 52 answers: the walk cannot change the verdict
        return Verdict(True, True)
    rng = random.Random(seed)
    for walk in range(1, simulations + 1):
        line, accepted = list(start), first_accepted  # each walk's first step is the starting mainline's
        for step in range(turns):
            if step:
                found, accepted = _disagreement(truth, guess, line, spent, RANK_MAJOR, truth_errs=True)
                if found is not None:
                    return Verdict(False, False, found.counterexample, found.error, walk)
            if not accepted:
                break
            line.append(rng.choice(accepted))
    return Verdict(True, False)


KEEP = 8  # verdicts kept (a person's guess: judged apart, then found again by the round's move)
_kept: dict[tuple[Rule, Rule, tuple[Card, ...], str], Verdict] = {}


def remembered(truth: Rule, guess: Rule, mainline: tuple[Card, ...], seed: str) -> Verdict:
    """``judge``, its last verdicts kept: the app judges a person's guess in a process of its own on
    a copy of the round (``kept``, then ``keep`` here), and the round's own move then finds the
    verdict instead of judging again on the UI's loop (seconds for a rule that reads the mainline).
    ``seed`` ``SEED_WALK``: the verdict of ``seed_walk`` (``--protocol seed``)."""
    key = (truth, guess, mainline, seed)
    verdict = _kept.get(key)
    if verdict is None:
        verdict = seed_walk(truth, guess, mainline) if seed == SEED_WALK else judge(truth, guess, mainline, seed=seed)
        keep([(key, verdict)])
    return verdict


def kept() -> list[tuple[tuple[Rule, Rule, tuple[Card, ...], str], Verdict]]:
    return list(_kept.items())


def keep(verdicts: list[tuple[tuple[Rule, Rule, tuple[Card, ...], str], Verdict]]) -> None:
    for key, verdict in verdicts:
        _kept.pop(key, None)
        _kept[key] = verdict
    while len(_kept) > KEEP:
        del _kept[next(iter(_kept))]
