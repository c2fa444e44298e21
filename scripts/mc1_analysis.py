"""Why does uniform random win less against our mc:1 than the paper's 35%?

Plays random against pure-Python variants of mc:1 on the reference engine,
each changing one thing towards the public engine (see
shared/notes/prior-art.md), 1,000 games each, seats alternated:

  honest        our mc:1: re-deal, play the card, random tie-break
  peek          sees the true state (the public engine's cheat)
  peek+inhand   ... and leaves the evaluated card in hand during the rollout
  +first-tie    ... and takes the first of tied moves instead of a random one
  +no-combat    ... under the public engine's rule of no combat in a turn with a spell

The rule change exists only inside this script, as a subclass, to measure it;
the game's rules are not changed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.engine.tcg import TcgGame, TcgState, determinize  # noqa: E402
from tcgtui.opponents.base import Agent, Decision  # noqa: E402
from tcgtui.opponents.random_agent import RandomAgent  # noqa: E402
from tcgtui.match import run_match  # noqa: E402
from tcgtui.games.tcg.packs import load_pack  # noqa: E402


class NoCombatAfterSpell(TcgState):
    """The public engine's unwritten rule: a turn in which a spell is cast has no combat."""

    __slots__ = ()

    def _combat(self, p: int) -> None:
        for e in reversed(self._events):        # this turn's events so far
            if e.kind == "turn":
                break
            if e.kind == "cast" and e.player == p:
                return
        super()._combat(p)


class VariantGame(TcgGame):
    def __init__(self, pack, rules: type[TcgState]) -> None:
        super().__init__(pack)
        self.rules = rules

    def new_state(self, seed: int) -> TcgState:
        state = super().new_state(seed)
        state.__class__ = self.rules
        return state


class PythonMC(Agent):
    """mc:K on the reference engine, with the public engine's habits as switches."""

    def __init__(self, k: int, peek: bool, in_hand: bool, first_tie: bool, rules: type[TcgState]):
        self.k, self.peek, self.in_hand, self.first_tie, self.rules = k, peek, in_hand, first_tie, rules
        self.omniscient = peek
        self.spec = f"mc:{k}"

    def see_state(self, state: TcgState) -> None:
        self.state = state

    async def decide(self, obs, events) -> Decision:
        moves = list(obs.legal_moves)
        scores = []
        for move in moves:
            wins = 0.0
            for _ in range(self.k):
                s = self.state.clone() if self.peek else determinize(obs, self.ctx.game.pack, self.rng)
                s.__class__ = self.rules
                s.rng.seed(self.rng.getrandbits(32))
                me = s.current
                s.apply(move)
                if self.in_hand and not s.is_terminal():
                    s.hands[me].append(self.ctx.game.pack.index[move])
                while not s.is_terminal():
                    s.apply(self.rng.choice(s.legal_moves()))
                wins += 1.0 if s.winner == obs.seat else 0.5 if s.winner is None else 0.0
            scores.append(wins)
        top = max(scores)
        tied = [m for m, v in zip(moves, scores) if v == top]
        return Decision(tied[0] if self.first_tie else self.rng.choice(tied))


VARIANTS = {
    "honest": dict(peek=False, in_hand=False, first_tie=False, rules=TcgState),
    "peek": dict(peek=True, in_hand=False, first_tie=False, rules=TcgState),
    "peek+inhand": dict(peek=True, in_hand=True, first_tie=False, rules=TcgState),
    "+first-tie": dict(peek=True, in_hand=True, first_tie=True, rules=TcgState),
    "+no-combat": dict(peek=True, in_hand=True, first_tie=True, rules=NoCombatAfterSpell),
    "honest, no-combat rule": dict(peek=False, in_hand=False, first_tie=False, rules=NoCombatAfterSpell),
}


def play(variant: str, k: int, seed: int) -> tuple[int | None, int]:
    options = VARIANTS[variant]
    pack = load_pack("community")
    seat = seed % 2
    agents = [PythonMC(k, **options), PythonMC(k, **options)]
    agents[seat] = RandomAgent()
    result = asyncio.run(run_match(VariantGame(pack, options["rules"]), seed, tuple(agents)))
    return result.outcome.winner, seat


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--k", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    print(f"| random vs mc:{args.k} variant | games | random wins | win rate | 95% exact CI |")
    print("|---|---|---|---|---|")
    with ProcessPoolExecutor(args.workers) as pool:
        for variant in VARIANTS:
            results = list(pool.map(play, [variant] * args.games, [args.k] * args.games,
                                    range(args.games), chunksize=20))
            wins = sum(w == seat for w, seat in results)
            ci = binomtest(wins, args.games).proportion_ci(method="exact")
            print(f"| {variant} | {args.games} | {wins} | {wins / args.games:.1%} | "
                  f"{ci.low:.1%} – {ci.high:.1%} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
