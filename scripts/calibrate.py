"""Calibrate the opponents of any game: one player's win rate against each opponent, or a ladder.

    python scripts/calibrate.py                                   # card game: random vs mc:1,2,5,10,100,1000
    python scripts/calibrate.py --player mcts:4000 --opponents mc:1000 --games 500
    python scripts/calibrate.py --game connect4 --opponents mc:10,100,1000,ab:2,ab:8
    python scripts/calibrate.py --game connect4 --ladder mc:10,mc:100,mc:1000,ab:4,ab:8   # each against the next

Game i uses seed SEED+i for every opponent (the same deals across the table),
and the measured player sits in seat i % 2, so seats alternate.  Games run in
a pool of worker processes, one whole game per task.  The interval is the
exact (Clopper-Pearson) 95% interval of wins over games; draws are not wins.
A developer's tool until ``tcgtui bench`` does the same for everyone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path

from scipy.stats import binomtest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.arena import build_game, game_spec  # noqa: E402
from tcgtui.opponents.registry import make_agent  # noqa: E402
from tcgtui.opponents.spec import expand_specs, parse_spec  # noqa: E402
from tcgtui.match import run_match  # noqa: E402


@cache
def _game(game_id: str, params: str):
    spec = game_spec(game_id)
    return build_game(spec, spec.info.resolve(json.loads(params)))


def _effort(info: dict) -> tuple[int, int]:
    """Playouts (mc) or iterations (mcts) spent on a decision, and the moves it weighed."""
    work = int(info.get("playouts", 0) or info.get("iterations", 0))
    return work, len(info.get("scores") or info.get("visits") or {})


def play_one(game: tuple[str, str], seed: int, player: str, opponent: str, seat: int) -> dict:
    """One game; what the table needs from it."""
    agents = [make_agent(opponent), make_agent(opponent)]
    agents[seat] = make_agent(player)
    result = asyncio.run(run_match(_game(*game), seed, (agents[0], agents[1])))

    def searched(mine: bool) -> list[tuple[int, int]]:
        return [_effort(d.info) for d in result.decisions
                if (d.seat == seat) == mine and _effort(d.info)[0]]

    winner = None if result.outcome is None else result.outcome.winner
    return {"seed": seed, "seat": seat, "status": result.status, "winner": winner,
            "turns": result.turns, "player_search": searched(True), "opponent_search": searched(False)}


def summarise(player: str, opponent: str, games: list[dict]) -> dict:
    wins = sum(g["winner"] == g["seat"] for g in games)
    draws = sum(g["winner"] is None for g in games)
    n = len(games)
    ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="exact")
    opp = [s for g in games for s in g["opponent_search"]]
    mine = [s for g in games for s in g["player_search"]]
    return {"player": player, "opponent": opponent, "games": n, "wins": wins, "draws": draws,
            "losses": n - wins - draws, "win_rate": wins / n, "ci_low": ci.low, "ci_high": ci.high,
            "score": (wins + draws / 2) / n,
            "opponent_work_per_decision": sum(s[0] for s in opp) / len(opp) if opp else 0,
            "opponent_moves_per_decision": sum(s[1] for s in opp) / len(opp) if opp else 0,
            "player_work_per_decision": sum(s[0] for s in mine) / len(mine) if mine else 0,
            "player_moves_per_decision": sum(s[1] for s in mine) / len(mine) if mine else 0,
            "mean_turns": sum(g["turns"] for g in games) / n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="random", help="the player whose win rate is measured")
    ap.add_argument("--opponents", default="mc:1,2,5,10,100,1000", help="e.g. mc:1,2,5 or mcts:400")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--game", default="tcg")
    ap.add_argument("--pack", default="community", help="the card game's pack")
    ap.add_argument("--ladder", help="strengths in order: each plays the next (e.g. mc:10,mc:100,ab:8)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args(argv)
    params = json.dumps({"pack": args.pack} if args.game == "tcg" else {})
    if args.ladder:
        steps = [str(parse_spec(s)) for s in args.ladder.split(",")]
        pairs = list(zip(steps[:-1], steps[1:]))
    else:
        player = str(parse_spec(args.player))
        pairs = [(player, str(s)) for s in expand_specs(args.opponents)]
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        for player, opponent in pairs:
            started = time.perf_counter()
            futures = [pool.submit(play_one, (args.game, params), args.seed + i, player, opponent, i % 2)
                       for i in range(args.games)]
            games = [f.result() for f in futures]
            errored = [g for g in games if g["status"] != "finished"]
            if errored:
                print(f"{len(errored)} games errored against {opponent}", file=sys.stderr)
            row = summarise(player, opponent, [g for g in games if g["status"] == "finished"])
            row["seconds"] = time.perf_counter() - started
            rows.append(row)
            print(f"{player} vs {opponent}: {row['wins']}/{row['games']} = {row['win_rate']:.1%} "
                  f"[{row['ci_low']:.1%}, {row['ci_high']:.1%}] in {row['seconds']:.0f} s", file=sys.stderr)
    print("| player | vs | games | wins | draws | losses | win rate | 95% exact CI | score "
          "| opponent work/decision | player work/decision |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['player']} | {r['opponent']} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
              f"{r['win_rate']:.1%} | {r['ci_low']:.1%} – {r['ci_high']:.1%} | {r['score']:.1%} | "
              f"{r['opponent_work_per_decision']:.0f} | {r['player_work_per_decision']:.0f} |")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
