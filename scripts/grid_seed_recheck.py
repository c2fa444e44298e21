"""Replay the grid seed's recorded games through tcgtui's seed protocol and count disagreements.

The seed's repository (github.com/research-outcome/LLM-Game-Benchmark) keeps, under
``outputs/``, every move of its published bulk runs: the player, the logged reply and
the outcome its simulator gave (Valid, Invalid Format, Already Taken, Out of Bounds), and
each game's result in its name.  This script reads them from your checkout and plays each
game again through ``tcgtui.engine.grid.seed.judge_reply`` and tcgtui's grid rules: every
outcome and every result should agree.

    python scripts/grid_seed_recheck.py --upstream ~/src/LLM-Game-Benchmark
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.engine.grid.game import GridGame  # noqa: E402
from tcgtui.engine.grid.seed import GAME_TYPES, KINDS, VALID, judge_reply  # noqa: E402
from tcgtui.engine.grid.state import result_code  # noqa: E402

GAME_IDS = {v: k for k, v in GAME_TYPES.items()}


def replay(game_id: str, moves: list[dict], tally: Counter, show: int) -> tuple[str | None, bool]:
    """(tcgtui's result code, every move's outcome agreed)."""
    game = GridGame(game_id)
    state = game.new_state(0)
    agreed = True
    for move in moves:
        if state.is_terminal():
            tally["moves after the end"] += 1
            return result_code(state.outcome), False
        response = str(move["Response"])
        obs = state.observation(state.to_move)
        judged = judge_reply(game.config, list(obs.board), response)
        ours = VALID if judged.kind is None else {v: k for k, v in KINDS.items()}[judged.kind]
        tally["moves"] += 1
        if ours != move["Outcome"] or int(move["Player"]) != state.to_move + 1:
            agreed = False
            tally["outcomes differ"] += 1
            if tally["outcomes differ"] <= show:
                print(f"  differs: {game_id} move {move['MoveNumber']}: reply {response!r}: seed "
                      f"{move['Outcome']!r}, tcgtui {ours!r}", file=sys.stderr)
            break
        if judged.move is None:
            state.apply_invalid(judged.kind, response)
        else:
            state.apply(judged.move)
    return (result_code(state.outcome) if state.is_terminal() else None), agreed


def recorded_games(path: Path) -> list[tuple[str, list[dict]]]:
    """(name, moves) of every game in one of the seed's moves files (JSON, or its CSV twin)."""
    if path.suffix == ".json":
        return list(json.loads(path.read_text(encoding="utf-8")).items())
    games: dict[str, list[dict]] = {}
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            name = "_".join(["Moves", row["GameType"], row["PromptType"], row["Player1"], row["Player2"],
                             row["Result"], row["UUID"] + row["GameNumber"]])
            games.setdefault(name, []).append({"MoveNumber": row["MoveNumber"], "Player": row["MovePlayer"],
                                               "Outcome": row["MoveOutcome"], "Response": row["Response"]})
    return list(games.items())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", required=True, metavar="DIR", help="your checkout of LLM-Game-Benchmark")
    ap.add_argument("--show", type=int, default=5, help="disagreements to print")
    args = ap.parse_args()
    files = sorted(Path(args.upstream, "outputs").glob("*_all_moves.json"))
    # runs published without a moves JSON have the same moves as CSV
    files += [p for p in sorted(Path(args.upstream, "outputs").glob("*_all_moves.csv"))
              if not p.with_suffix(".json").exists()]
    if not files:
        print(f"--upstream: {args.upstream} has no outputs/*_all_moves.json; expected a checkout of "
              "github.com/research-outcome/LLM-Game-Benchmark", file=sys.stderr)
        return 2
    tally: Counter = Counter()
    for path in files:
        for name, moves in recorded_games(path):
            parts = name.split("_")
            game_id, result = GAME_IDS[parts[1]], parts[-2]
            ours, agreed = replay(game_id, moves, tally, args.show)
            tally["games"] += 1
            # the seed abandons a game on a network error: unfinished for tcgtui too
            expected = {"Cancelled": "cancelled", "networkerror": None}.get(result, result)
            if ours is None and expected == "cancelled":
                ours = "cancelled"           # the seed stops at its cap; tcgtui's state says so itself
            if agreed and ours == expected:
                tally["games agree"] += 1
            else:
                tally["results differ"] += 1 if agreed else 0
                if agreed and tally["results differ"] <= args.show:
                    print(f"  result differs: {name}: seed {result}, tcgtui {ours}", file=sys.stderr)
    print(f"{tally['games']} recorded games, {tally['moves']} moves: {tally['games agree']} games agree; "
          f"{tally['outcomes differ']} move outcomes differ, {tally['results differ']} results differ")
    return 0 if tally["games"] == tally["games agree"] else 1


if __name__ == "__main__":
    sys.exit(main())
