"""The reference scientist's score on every rule and seed (the 78 rounds of the benchmark by default).

    python scripts/eleusis_reference.py [--rules 0-25] [--seeds 3] [--json OUT]

Each round is the arena's game (engine/eleusis) played by the registered
``scientist`` reference from the seat's observation only; seeds are the
round seeds 0..N-1, the same deals every player of a bench meets.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.engine import registry  # noqa: E402
from tcgtui.engine.core import Match  # noqa: E402


def play(rule: int, seed: int) -> dict:
    spec = registry.get("eleusis")
    game = spec.game({"rule": rule, "guess_format": "code"})
    choose = spec.reference("scientist").policy(game, None)
    match = Match(game, seed)
    turn = 0
    while not match.state.is_terminal():
        turn += 1
        rng = random.Random(f"scientist:{seed}:{turn}")
        state = game.resample(match.state.observation(0), rng)
        match.play(choose(state, rng))
    s = match.state
    guesses = sum(1 for e in match.events if e.kind == "guess")
    return {"rule": rule, "seed": seed, "score": s.score, "reason": s.outcome.reason, "turns": s.turns,
            "wrong": len(s.failed), "guesses": guesses}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="0-25")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--json", default="")
    args = p.parse_args()
    lo, _, hi = args.rules.partition("-")
    rules = range(int(lo), int(hi or lo) + 1)
    rows = []
    started = time.perf_counter()
    for rule in rules:
        for seed in range(args.seeds):
            rows.append(play(rule, seed))
            r = rows[-1]
            print(f"rule {rule:2d} seed {seed}: score {r['score']:3d} ({r['reason']}, turn {r['turns']}, "
                  f"{r['wrong']} wrong)", flush=True)
    floored = [max(0, r["score"]) for r in rows]
    print(f"\nrounds {len(rows)}  mean floored score {statistics.mean(floored):.2f}  "
          f"solved {sum(r['reason'] == 'solved' for r in rows)}/{len(rows)}  "
          f"mean wrong guesses {statistics.mean(r['wrong'] for r in rows):.2f}  "
          f"({time.perf_counter() - started:.0f} s)")
    print("\nrule  mean  scores")
    for rule in rules:
        mine = [r for r in rows if r["rule"] == rule]
        print(f"{rule:4d}  {statistics.mean(max(0, r['score']) for r in mine):5.1f}  "
              f"{' '.join(str(r['score']) for r in mine)}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
