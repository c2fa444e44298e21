"""How often each of the 26 rules accepts a random card: 10 simulations x 50 random plays, 104-card deck.

    python scripts/eleusis_acceptance.py [--sims 10] [--plays 50] [--seed 0]

Each simulation shuffles the shoe (the game's own ``deck_order``), draws the
starter as the game does (the first card the rule accepts on an empty
mainline), then plays the next 50 cards of the deck in order: an accepted
card extends the mainline.  The rate is accepted plays over all plays.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.engine.eleusis.judge import accepts  # noqa: E402
from tcgtui.engine.eleusis.library import library  # noqa: E402
from tcgtui.engine.eleusis.state import deck_order  # noqa: E402


def rate(rule, sims: int, plays: int, seed: int) -> list[float]:
    out = []
    for sim in range(sims):
        deck = deck_order(seed * 1000 + sim)
        mainline = []
        while deck:
            card = deck.pop(0)
            if accepts(rule, card, []):
                mainline.append(card)
                break
        hits = 0
        for card in deck[:plays]:
            if accepts(rule, card, mainline):
                hits += 1
                mainline.append(card)
        out.append(hits / plays)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sims", type=int, default=10)
    p.add_argument("--plays", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    print(f"{'rule':>4}  {'accept':>6}  {'sd':>5}  complexity  name")
    for r in library():
        rates = rate(r.rule, args.sims, args.plays, args.seed)
        print(f"{r.number:4d}  {statistics.mean(rates):6.1%}  {statistics.pstdev(rates):5.1%}  "
              f"{r.rule.complexity:10.1f}  {r.name_in('en')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
