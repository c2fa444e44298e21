"""Coverage of the study report's person-clustered interval on simulated people with known strengths.

    python scripts/study_coverage.py                      # 1000 studies per line, seed 1
    python scripts/study_coverage.py --studies 2000 --people 10,20,30 --games 9

Each line: a population (a share who always win, a share who never do, the rest Beta(a, b)),
the people per study, and the share of simulated studies whose 95% interval covers the
population's true rate, for the cluster bootstrap's three variants (expanded BCa, the
report's; BCa; percentile) and the pooled Clopper–Pearson interval over games.
The simulation is tests/study_population.py's, which tests/test_study_stats.py checks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from study_population import Population, coverage  # noqa: E402

from tcgtui.report.people import METHODS  # noqa: E402

POPULATIONS = {
    "always 20%, never 15%, rest Beta(2,3)": Population(),
    "always 5%, never 50%, rest Beta(1,4)": Population(always=0.05, never=0.5, a=1, b=4),
    "always 60%, never 5%, rest Beta(4,1)": Population(always=0.6, never=0.05, a=4, b=1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=1000)
    parser.add_argument("--people", default="10,20,30")
    parser.add_argument("--games", type=int, default=9, help="games per person (before dropouts)")
    parser.add_argument("--dropout", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'population':<40} {'true':>5} {'people':>6} " + " ".join(f"{m:>12}" for m in (*METHODS, "pooled")))
    for name, population in POPULATIONS.items():
        for people in (int(n) for n in args.people.split(",")):
            found = coverage(args.seed, args.studies, population, people, args.games, args.dropout, METHODS)
            print(f"{name:<40} {population.rate:>5.3f} {people:>6} "
                  + " ".join(f"{found[m]:>12.3f}" for m in (*METHODS, "pooled")), flush=True)


if __name__ == "__main__":
    main()
