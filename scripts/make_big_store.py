"""Build a synthetic store of N card games (default 50,000) for timing ``tcgtui report``.

    python scripts/make_big_store.py /tmp/big.sqlite3 50000
    time tcgtui report --db /tmp/big.sqlite3 --format json > /dev/null
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.store import FINISHED, DecisionRow, GameRow, Store  # noqa: E402

TYPES = ("champion", "spell", "trick")


def build(path: Path, n: int, moves: int = 10, seed: int = 0) -> None:
    rng = random.Random(seed)
    agents, opponents, langs = ["llm:a", "llm:b", "random"], ["mc:1", "mc:4", "mc:16", "mcts:100"], ["en", "ar"]
    with Store(path) as store:
        run = store.create_run("big", {}).id
        batch = []
        cells = [(a, o, lang) for a in agents for o in opponents for lang in langs]
        for i in range(n):
            agent, opponent, lang = cells[i % len(cells)]
            index = i // len(cells)
            seat = index % 2
            specs = (agent, opponent) if seat == 0 else (opponent, agent)
            row = GameRow(agent=agent, opponent=opponent, lang=lang, game_index=index, seed=index, agent_seat=seat,
                          game="tcg", status=FINISHED, record={"game": "tcg", "seed": index, "moves": []},
                          started_at="2026-01-01T00:00:00+00:00", pack_id="community", pack_hash="f" * 64,
                          run_id=run, winner=rng.choice((0, 1, None)), reason="lp", turns=rng.randint(4, 30),
                          moves=moves)
            decisions = [DecisionRow(j, j // 2 + 1, j % 2 ^ seat ^ seat if False else (seat + j) % 2,
                                     specs[(seat + j) % 2], f"c{rng.randint(1, 40)}", rng.choice(TYPES),
                                     rng.random() * 3, {"prompt_tokens": 500, "completion_tokens": 80,
                                                        "parse_path": "tags"}) for j in range(moves)]
            batch.append((row, decisions))
            if len(batch) == 5000:
                store.merge_games(batch)
                batch = []
        if batch:
            store.merge_games(batch)


if __name__ == "__main__":
    build(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 50_000)
