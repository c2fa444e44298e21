"""``tcgtui perf --upstream DIR``: the public engine's own playouts timed from the user's checkout in a
subprocess, beside the fast path; a folder that is not such a checkout is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcgtui.cli import main

SEED_CHECKOUT = Path(__file__).resolve().parent / "fixtures" / "seed_checkout"

# A stand-in engine written for this test, in the shape the driver calls (not the public code).
GAME = '''
import random
import community_engine

def get_card_pool(language="en"):
    return community_engine.POOL

class Card:
    def __init__(self, d):
        self.name = d["name"]
    def clone(self):
        return Card({"name": self.name})

class Player:
    def __init__(self, name):
        self.name, self.deck, self.hand, self.lp = name, [], [], 10
    def draw(self):
        if self.deck:
            self.hand.append(self.deck.pop())

class GameState:
    def __init__(self, p1, p2):
        self.players = [p1, p2]

def simulate_random_game(state):
    turns = 0
    while turns < 50 and all(p.lp > 0 for p in state.players):
        state.players[turns % 2].lp -= random.choice([0, 1])
        turns += 1
    return 0, turns
'''


def fake_checkout(tmp_path: Path) -> Path:
    src = tmp_path / "tcg-bench" / "src"
    src.mkdir(parents=True)
    (src / "game.py").write_text(GAME)
    (src / "community_engine.py").write_text("POOL = [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}]\n")
    return src.parent


def test_the_public_engine_is_timed_beside_the_fast_path(tmp_path, capsys):
    checkout = fake_checkout(tmp_path)
    assert main(["perf", "--quick", "--only", "playouts", "--upstream", str(checkout), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = {m["name"]: m for metrics in out["results"].values() for m in metrics}
    up, fast = names["upstream_playouts_per_second"], names["fast_playouts_per_second"]
    assert up["value"] > 0 and "300 games" in up["note"] and str(checkout) in up["note"]
    assert names["fast_speedup_upstream"]["value"] == pytest.approx(fast["value"] / up["value"])
    assert out["machine"]["upstream"]["path"] == str(checkout)


@pytest.mark.parametrize("folder, says", [
    ("missing", "is not a folder"),
    ("empty", "has no src/game.py; expected a checkout of AdaMLLab/tcg-bench"),
    ("other", "the public engine's playouts failed"),
])
def test_a_folder_that_is_not_the_public_engine_is_one_line(tmp_path, capsys, folder, says):
    path = {"missing": tmp_path / "nowhere", "empty": tmp_path, "other": SEED_CHECKOUT}[folder]
    assert main(["perf", "--quick", "--only", "playouts", "--upstream", str(path)]) != 0
    lines = [line for line in capsys.readouterr().err.splitlines() if not line.startswith("running ")]
    assert len(lines) == 1 and says in lines[0]
