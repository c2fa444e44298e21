"""Shared fixtures: the shipped packs, the locales, and helpers to play games."""

from __future__ import annotations

import random

import pytest

from tcgtui import locales
from tcgtui.engine.tcg import Pack, TcgGame, TcgState
from tcgtui.games.tcg.packs import load_pack


@pytest.fixture(autouse=True)
def private_user_files(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the user's own store or settings file."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("TCGTUI_DB", str(home / "tcgtui.sqlite3"))
    monkeypatch.setenv("TCGTUI_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))       # a terminal participant's study tokens
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))     # crash files


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (Textual's loop); trio, installed with selenium, is never tried."""
    return "asyncio"


@pytest.fixture(scope="session")
def community() -> Pack:
    return load_pack("community")


@pytest.fixture(scope="session")
def starter() -> Pack:
    return load_pack("starter")


@pytest.fixture(scope="session")
def en() -> locales.Catalog:
    return locales.load("en")


@pytest.fixture(scope="session")
def ar() -> locales.Catalog:
    return locales.load("ar")


def random_game(pack: Pack, seed: int) -> TcgState:
    """Play a game with uniformly random moves from a seed; return the final state."""
    state = TcgGame(pack).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


@pytest.fixture(autouse=True)
def fresh_endpoint_contexts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test meets its servers afresh: a test server may get the port an earlier one had, and
    what the process learned of that endpoint's context (per base URL and model) is not its own."""
    from tcgtui.opponents.llm import context
    monkeypatch.setattr(context, "_ENDPOINTS", {})
