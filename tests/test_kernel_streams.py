"""The compiled kernel computes exactly what it computed when tests/fixtures/kernel_streams.json was
recorded (scripts/record_kernel_fixture.py): the same mc:1000 counts per move from fixed seeds and
positions, the same random-game tallies, mc:K games and ISMCTS visits.  Making the kernel faster must
not change one random draw, so no stored bench result or judged decision changes with it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "record_kernel_fixture.py"


@pytest.fixture(scope="module")
def recorder():
    spec = importlib.util.spec_from_file_location("record_kernel_fixture", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recorded():
    return json.loads((ROOT / "tests" / "fixtures" / "kernel_streams.json").read_text())


def test_mc1000_counts_per_position_are_unchanged(recorder, recorded, community):
    assert recorder.mc_counts(community) == recorded["mc"]


def test_peek_playouts_from_a_true_state_are_unchanged(recorder, recorded, community):
    assert recorder.peek_counts(community) == recorded["peek"]


def test_random_game_tallies_are_unchanged(recorder, recorded, community):
    assert recorder.tallies(community) == recorded["random_games"]


def test_mc_games_and_ismcts_are_unchanged(recorder, recorded, community):
    assert recorder.mc_games(community) == recorded["mc_games"]
    assert recorder.ismcts(community) == recorded["ismcts"]


def test_nmc_nested_playouts_are_unchanged(recorder, recorded, community):
    assert recorder.nmc_counts(community) == recorded["nmc"]
