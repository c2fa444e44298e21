"""Record what the compiled kernel computes from fixed seeds, so a faster kernel can be held to it.

Writes tests/fixtures/kernel_streams.json (checked by tests/test_kernel_streams.py): mc:1000
win/draw/loss counts per move on mid-game positions of the community pack (re-dealt, as mc:K
and the mc:1000 evaluator run them), the same on one truly dealt state (mc:K:peek), random-game
tallies on the community pack, on two deck lists and on random packs that use every primitive,
whole mc:K games, and ISMCTS root visits.  Any change to the rules or to the order in which
random numbers are drawn changes these numbers; run this only on a kernel known to be right.

    .venv/bin/python scripts/record_kernel_fixture.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from opponents_support import random_pack  # noqa: E402
from tcgtui.engine.tcg.decks import from_ids  # noqa: E402
from tcgtui.engine.tcg.fast import kernel as R  # noqa: E402
from tcgtui.engine.tcg.fast import layout as L  # noqa: E402
from tcgtui.engine.tcg.fast import search  # noqa: E402
from tcgtui.games.tcg.packs import load_pack  # noqa: E402
from tcgtui.games.tcg.perf._positions import midgame_positions  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "kernel_streams.json"
POSITIONS, POSITIONS_SEED, K = 8, 7, 1000
RANDOM_GAMES = 2000
RANDOM_PACKS = range(6)


def digest(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.int64).tobytes()).hexdigest()[:16]


def decision_seed(i: int) -> int:
    return (0x5EED_0000 + 7919 * i) & (2**63 - 1)


def mc_counts(pack) -> list[dict]:
    program = L.compile_pack(pack)
    out = []
    for i, state in enumerate(midgame_positions(pack, POSITIONS, POSITIONS_SEED)):
        seat = state.current
        obs = state.observation(seat)
        moves = sorted(set(state.legal_moves()))
        encoded = search.encode(program, obs)
        index = search.move_index(program, obs, moves)
        counts = search.playouts(program, encoded, seat, index, 0, K, decision_seed(i))
        out.append({"position": i, "seed": decision_seed(i), "observation": digest(encoded), "moves": moves,
                    "counts": counts.tolist()})
    return out


def peek_counts(pack) -> dict:
    program = L.compile_pack(pack)
    state = midgame_positions(pack, 1, POSITIONS_SEED + 100)[0]
    base = search.encode_state(state, program)
    moves = sorted(set(state.legal_moves()))
    index = search.move_index(program, state.observation(state.current), moves)
    counts = search.playouts(program, base, state.current, index, 0, K, 99, redeal=False)
    return {"state": digest(base), "moves": moves, "counts": counts.tolist()}


def tally(program: L.Program, seed: int, games: int) -> dict:
    counts = np.zeros(4, dtype=np.int64)
    turns = R.random_games(program.code, seed, 0, games, np.zeros(L.work_size(program.n), dtype=np.int64), counts)
    return {"program": digest(program.code), "seed": seed, "games": games, "counts": counts.tolist(),
            "turns": int(turns)}


def tallies(community) -> dict:
    frontier = load_pack("frontier")
    ids = [c.id for c in frontier.cards]
    decks = (from_ids(frontier, ids[:10] * 2), from_ids(frontier, ids[22:32] * 2))
    deck_program = L.compile_pack(frontier, (decks[0].counts, decks[1].counts))
    out = {"community": tally(L.compile_pack(community), 3, RANDOM_GAMES),
           "frontier_decks": tally(deck_program, 4, RANDOM_GAMES)}
    for s in RANDOM_PACKS:
        out[f"random_pack_{s}"] = tally(L.compile_pack(random_pack(s)), s, RANDOM_GAMES)
    return out


def mc_games(pack) -> list[int]:
    program = L.compile_pack(pack)
    out = np.zeros(6, dtype=np.int64)
    R.mc_games(program.code, 5, 11, 0, len(out), out)
    return out.tolist()


def ismcts(pack) -> dict:
    program = L.compile_pack(pack)
    state = midgame_positions(pack, 1, POSITIONS_SEED + 200)[0]
    obs = state.observation(state.current)
    moves = sorted(set(state.legal_moves()))
    root = search.run_tree(search.TreeTask(program.code, search.encode(program, obs), state.current,
                                           search.move_index(program, obs, moves), 3000, 17, 0.7))
    return {"moves": moves, "root": root.tolist()}


def nmc_counts(pack) -> dict:
    """nmc's nested playouts (mc:5 inside) from one position: 12 per move, on the kernel's own streams."""
    program = L.compile_pack(pack)
    state = midgame_positions(pack, 1, POSITIONS_SEED + 300)[0]
    obs = state.observation(state.current)
    moves = sorted(set(state.legal_moves()))
    out = np.zeros((len(moves), 3), dtype=np.int64)
    R.nmc_playouts(program.code, search.encode(program, obs), state.current,
                   search.move_index(program, obs, moves), 0, 12, 23, 5, out)
    return {"moves": moves, "counts": out.tolist()}


def record() -> dict:
    pack = load_pack("community")
    return {"about": "made by scripts/record_kernel_fixture.py; checked by tests/test_kernel_streams.py",
            "positions": {"pack": "community", "count": POSITIONS, "seed": POSITIONS_SEED, "k": K},
            "mc": mc_counts(pack), "peek": peek_counts(pack), "random_games": tallies(pack),
            "mc_games": mc_games(pack), "ismcts": ismcts(pack), "nmc": nmc_counts(pack)}


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
