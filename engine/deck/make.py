"""Questions from our own cards: deal a legal deck, take a card out, add five distractors,
and keep the question only when simulation shows one option beats every other.

The verdict (``verdict``) is split-sample, so the chosen best is tested on games it was
not chosen from: the first half of every pairing's games picks the best option, the
second half tests it against each other option with an exact one-sided sign test on the
paired games (McNemar's exact test: a binomial test on the games the two options score
differently; pairing removes the deal's luck, which both options share), and Holm's step-down
correction over the five comparisons keeps the chance of keeping a question whose best is
not better than all five below 5 %.  Win rates reported with the question use all games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from tcgtui.engine.deck.questions import LETTERS, Option, Question
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.decks import deck_limits
from tcgtui.engine.tcg.describe import card_text

ALPHA = 0.05


@dataclass(frozen=True)
class Candidate:
    """A deck with one card out and six cards that could fill the slot (pack indices)."""

    partial: tuple[int, ...]  # copies per pack card, one short of a legal deck
    removed: int
    options: tuple[int, ...]  # in letter order

    def deck(self, option: int) -> tuple[int, ...]:
        counts = list(self.partial)
        counts[self.options[option]] += 1
        return tuple(counts)


def random_deck(pack: Pack, rng: random.Random) -> tuple[int, ...]:
    """A legal deck list drawn at random: the pack's size, at most its copies of a card."""
    size, copies = deck_limits(pack)
    counts = [0] * len(pack.cards)
    for _ in range(size):
        i = rng.choice([j for j, c in enumerate(counts) if c < copies])
        counts[i] += 1
    return tuple(counts)


def candidate(pack: Pack, rng: random.Random) -> Candidate:
    """A random deck, one copy of one of its cards removed, five other cards that fit the slot."""
    _, copies = deck_limits(pack)
    deck = list(random_deck(pack, rng))
    removed = rng.choice([i for i, c in enumerate(deck) if c])
    deck[removed] -= 1
    fits = [i for i, c in enumerate(deck) if c < copies and i != removed]
    if len(fits) < len(LETTERS) - 1:
        raise ValueError(f"pack {pack.id!r} has too few cards for five distractors")
    options = [removed] + rng.sample(fits, len(LETTERS) - 1)
    rng.shuffle(options)
    return Candidate(tuple(deck), removed, tuple(options))


def field(pack: Pack, count: int, seed: int) -> list[tuple[int, ...]]:
    """The fixed field of opponent decks every question's options play against."""
    rng = random.Random(f"tcgtui/deck/field/{seed}")
    return [random_deck(pack, rng) for _ in range(count)]


@dataclass(frozen=True)
class Verdict:
    best: int
    rates: tuple[float, ...]
    p_values: tuple[float, ...]  # best against each option (1.0 for itself), uncorrected
    kept: bool
    games: int  # per option


def verdict(table: np.ndarray, alpha: float = ALPHA) -> Verdict:
    """``table[option, game]``: paired scores.  See the module docstring for the test."""
    # start-up time: scipy only when a table is tested
    from scipy.stats import binomtest

    half = table.shape[1] // 2
    pick, test = table[:, :half], table[:, half:]
    best = int(np.argmax(pick.mean(axis=1)))
    p_values = []
    for o in range(table.shape[0]):
        if o == best:
            p_values.append(1.0)
            continue
        ahead = int(np.sum(test[best] > test[o]))
        behind = int(np.sum(test[best] < test[o]))
        p_values.append(binomtest(ahead, ahead + behind, 0.5, alternative="greater").pvalue if ahead + behind else 1.0)
    others = sorted(p for o, p in enumerate(p_values) if o != best)
    m = len(others)
    kept = all(p <= alpha / (m - i) for i, p in enumerate(others))  # Holm: every step rejects
    rates = tuple(float(r) for r in table.mean(axis=1))
    return Verdict(best, rates, tuple(float(p) for p in p_values), kept, int(table.shape[1]))


def question(pack: Pack, cand: Candidate, v: Verdict, qid: str, catalog: Any, sim: dict[str, Any]) -> Question:
    """The question as players read it in ``catalog``'s language; the answer is the measured best."""
    lang = catalog.code
    deck = tuple((pack.cards[i].name(lang), c) for i, c in enumerate(cand.partial) if c)
    options = tuple(
        Option(pack.cards[i].name(lang), full_text(pack, i, catalog), catalog.t(f"cards.type.{pack.cards[i].type}"), "")
        for i in cand.options
    )
    return Question(
        qid,
        deck,
        options,
        LETTERS[v.best],
        f"tcgtui deck make: pack {pack.id} {pack.short_hash}",
        lang,
        v.rates,
        v.games,
        sim,
    )


def full_text(pack: Pack, i: int, catalog: Any) -> str:
    """Type, stats and rules text of a card, as the quiz shows it."""
    card = pack.cards[i]
    body = card_text(card, catalog)
    if card.type == "champion":
        stats = catalog.t("deck.cards.stats", power=card.power, guard=card.guard)
        return f"{stats} {body}".strip()
    return body
