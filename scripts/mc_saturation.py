"""Why more playouts stop helping in the card game: the measurements of docs/ladder.md.

    python scripts/mc_saturation.py duel peek:1000 mc:1000 --games 100 --seed 7
    python scripts/mc_saturation.py agree 1000 10000 --games 30 --seed 1
    python scripts/mc_saturation.py replay 1000 --games 100 --seed 7

``duel A B``: whole games on the compiled path (``engine.tcg.fast.mc_variants``), A in seat g % 2 of
game g, deals from the seed.  A player is ``VARIANT:K[:ARG]``: ``mc`` (the ``mc:K`` player),
``peek`` (from the true state, as ``mc:K:peek``), ``hands`` (both hands and tricks known, the
deck orders re-shuffled), ``paired`` (every card tried on the same K re-deals), ``heavy:K:EPS``
(playouts by an EPS-greedy one-turn look-ahead for both sides), ``nested:K:K2`` (playouts in
which both sides play flat Monte Carlo with K2 random playouts per card), ``honest:K:K2`` (the
same, but the players inside re-deal what they cannot see of the playout's world, as real players
do, instead of playing on it).
``agree K1 K2``: along mc:K1 self-play, how often mc:K1 picks the same card twice, and as mc:K2.
``replay K``: mc:K self-play on the same deals twice, with other search streams; how often the
same seat wins both (the deals that search noise does not change).
Intervals are exact (Clopper-Pearson) 95% intervals of wins over games; draws are not wins.
Pack: the built-in default, both seats playing the whole pack.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from scipy.stats import binomtest

from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.fast.mc_variants import KINDS, agreement, duel
from tcgtui.games.tcg.packs import DEFAULT_PACK, load_pack


def player(text: str) -> tuple[int, int, int, float]:
    """``VARIANT:K[:ARG]`` -> (kind, K, integer argument, epsilon)."""
    name, _, rest = text.partition(":")
    k, _, arg = rest.partition(":")
    if name not in KINDS or not k.isdigit() or int(k) < 1:
        sys.exit(f"{text!r} is not a player; expected VARIANT:K[:ARG] with VARIANT one of {', '.join(KINDS)}")
    try:
        eps = float(arg) if name == "heavy" and arg else 0.0
        nested = name in ("nested", "halving", "honest")
        whole = (int(arg) if arg else 1) if nested else 0
    except ValueError:
        sys.exit(f"{text!r}: the argument after K must be a number")
    return KINDS[name], int(k), whole, eps


def line(label: str, out: np.ndarray, seconds: float) -> str:
    wins, draws, games = int((out == 1).sum()), int((out == 0.5).sum()), len(out)
    ci = binomtest(wins, games).proportion_ci(method="exact")
    return (f"{label}: {games} games, {wins} wins, {draws} draws: {wins / games:.1%} "
            f"[{ci.low:.1%}, {ci.high:.1%}], score {out.mean():.3f}  ({seconds:.0f} s)")


def run_duel(code: np.ndarray, a: str, b: str, games: int, seed: int, salt: int) -> np.ndarray:
    pa, pb = player(a), player(b)
    out = np.zeros(games)
    duel(code, np.array([pa[0], pb[0]]), np.array([pa[1], pb[1]]), np.array([pa[2], pb[2]]),
         np.array([pa[3], pb[3]]), seed, 0, games, salt, out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("duel", "agree", "replay"))
    ap.add_argument("a")
    ap.add_argument("b", nargs="?")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--salt", type=int, default=0, help="duel: another search stream on the same deals")
    args = ap.parse_args()
    code = L.compile_pack(load_pack(DEFAULT_PACK)).code
    started = time.time()
    if args.what == "duel":
        if args.b is None:
            sys.exit("duel needs two players, e.g. duel peek:1000 mc:1000")
        out = run_duel(code, args.a, args.b, args.games, args.seed, args.salt)
        print(line(f"{args.a} vs {args.b}", out, time.time() - started))
    elif args.what == "agree":
        k1, k2 = int(args.a), int(args.b or 10 * int(args.a))
        out = np.zeros(4)
        agreement(code, k1, k2, args.seed, 0, args.games, out)
        print(f"{out[0]:.0f} decisions: mc:{k1} agrees with itself {out[1] / out[0]:.1%}, with mc:{k2} "
              f"{out[2] / out[0]:.1%}; mc:{k2}'s mean gap between its best two cards {out[3] / out[0]:.3f}"
              f"  ({time.time() - started:.0f} s)")
    else:
        spec = f"mc:{int(args.a)}"
        first = run_duel(code, spec, spec, args.games, args.seed, 0)
        second = run_duel(code, spec, spec, args.games, args.seed, 1)
        seat = np.arange(args.games) % 2                  # the score of seat 0 in each game
        s1, s2 = np.where(seat == 0, first, 1 - first), np.where(seat == 0, second, 1 - second)
        decisive = (s1 != 0.5) & (s2 != 0.5)
        same = float((s1[decisive] == s2[decisive]).mean())
        print(f"{spec} self-play, each deal twice: {decisive.sum()} deals decisive both times, the same seat "
              f"won both {same:.1%}; decided by the deal (2 x same - 1): {2 * same - 1:.0%}"
              f"  ({time.time() - started:.0f} s)")


if __name__ == "__main__":
    main()
