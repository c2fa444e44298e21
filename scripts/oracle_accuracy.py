"""How many games per option the simulation oracle (``oracle:K``) needs to find the answers of
a question set made by ``tcgtui deck make``: its accuracy for each K, with exact intervals.

    python -m scripts.oracle_accuracy --questions frontier-sample --k 25,100,400 --repeats 10
"""

from __future__ import annotations

import argparse
import time

from tcgtui.engine.deck.analysis import clopper_pearson
from tcgtui.engine.deck.players import answer
from tcgtui.questions import load_set


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--questions", default="frontier-sample")
    p.add_argument("--k", default="25,100,400")
    p.add_argument("--repeats", type=int, default=10)
    args = p.parse_args()
    qset = load_set("--questions", args.questions)
    for k in (int(x) for x in args.k.split(",")):
        right = n = 0
        started = time.perf_counter()
        for r in range(args.repeats):
            for i, q in enumerate(qset.questions):
                best, _ = answer(q.public(), qset.packs, k, seed=10_000 * r + i + 1)
                right += "ABCDEF"[best] == q.answer
                n += 1
        lo, hi = clopper_pearson(right, n)
        print(f"oracle:{k}: {right}/{n} right = {right / n:.0%} [{lo:.0%}, {hi:.0%}] "
              f"({(time.perf_counter() - started) / n:.2f} s per answer)", flush=True)


if __name__ == "__main__":
    main()
