"""Synthetic stores of many card games, for timing ``tcgtui report`` (perf and scripts/make_big_store.py).

Every game is finished, with ``moves`` decisions alternating between the seats
and LLM-style details (tokens, parse path) on each; cells cycle through three
agents, four opponents and two languages, as a paper-sized sweep would.
"""

from __future__ import annotations

import random
from pathlib import Path

from tcgtui.store import FINISHED, DecisionRow, GameRow, Store

TYPES = ("champion", "spell", "trick")
AGENTS, OPPONENTS, LANGS = ("llm:a", "llm:b", "random"), ("mc:1", "mc:4", "mc:16", "mcts:100"), ("en", "ar")
BATCH = 5000


def build(path: Path, n: int, moves: int = 10, seed: int = 0) -> None:
    rng = random.Random(seed)
    with Store(path) as store:
        run = store.create_run("big", {}).id
        batch = []
        cells = [(a, o, lang) for a in AGENTS for o in OPPONENTS for lang in LANGS]
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
            decisions = [DecisionRow(j, j // 2 + 1, (seat + j) % 2, specs[(seat + j) % 2], f"c{rng.randint(1, 40)}",
                                     rng.choice(TYPES), rng.random() * 3,
                                     {"prompt_tokens": 500, "completion_tokens": 80, "parse_path": "tags"})
                         for j in range(moves)]
            batch.append((row, decisions))
            if len(batch) == BATCH:
                store.merge_games(batch)
                batch = []
        if batch:
            store.merge_games(batch)
