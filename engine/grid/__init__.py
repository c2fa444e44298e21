"""Tic-Tac-Toe, Connect Four and Gomoku: the grid games of the LLM grid benchmark.

Three ids share this package, its locale folder (``locales/<lang>/grid/``) and its
tests.  Moves are text: ``"r,c"`` (1-based from the top-left) or, in Connect Four,
a column ``"c"``.  Invalid replies are handled by the rules (``apply_invalid``).
"""

from __future__ import annotations

import importlib
from typing import Any

from tcgtui.engine.grid import seed_files
from tcgtui.engine.grid.analysis import analyze, blocks, immediate_wins, missed, sections
from tcgtui.engine.grid.analysis import tables as seed_tables
from tcgtui.engine.grid.config import VARIANTS
from tcgtui.engine.grid.game import GridGame
from tcgtui.engine.grid.narrator import GridNarrator, rules_text
from tcgtui.engine.grid.observation import GridObservation
from tcgtui.engine.grid.position import PositionError, format_position, parse_position
from tcgtui.engine.grid.state import GridState, result_code
from tcgtui.engine.protocols import PROTOCOL, SEED, UPSTREAM
from tcgtui.engine.registry import LIST, RULES, WDL, GameInfo, GameSpec, Param, Reference, register

__all__ = ["GridGame", "GridNarrator", "GridObservation", "GridState", "PositionError", "analyze", "blocks",
           "format_position", "immediate_wins", "missed", "parse_position", "result_code", "rules_text",
           "sections"]

STYLES = ("list", "illustration", "image")


def _prompter(game: Any, catalog: Any, seat: int, style: str = "list") -> Any:
    if game.protocol == SEED:
        from tcgtui.engine.grid.seed import REPOSITORY
        from tcgtui.engine.grid.seed_prompter import SeedGridPrompter
        if game.wording is None:
            raise ValueError(f"--protocol seed: a model reads the seed's own prompts, from your checkout of "
                             f"{REPOSITORY}; give it with --upstream DIR")
        return SeedGridPrompter(game, game.wording, seat, style or "list")
    from tcgtui.engine.grid.prompter import GridPrompter
    return GridPrompter(game, catalog, seat, style or "list")


def _perfect(game: Any, arg: int | None) -> Any:
    from tcgtui.engine.grid.players import perfect
    return perfect(game, arg)


def _alphabeta(game: Any, arg: int | None) -> Any:
    from tcgtui.engine.grid.players import alphabeta
    return alphabeta(game, arg)


def _threats(game: Any, arg: int | None) -> Any:
    from tcgtui.engine.grid.threats import threats
    return threats(game, arg)


def _position_parser(game_id: str):
    def parse(text: str, to_move: str = "") -> tuple[list[int], int]:
        return parse_position(text, GridGame(game_id).config, to_move)
    return parse


# Players ``tcgtui perf`` times on each game's opening position (the speed figures the arena promises).
PERF = {"tictactoe": ("mc:1000", "mcts:1000", "perfect"), "connect4": ("mc:1000", "mcts:1000", "ab:8"),
        "gomoku": ("mc:100", "mcts:1000", "threats")}


def _register(game_id: str, references: tuple[Reference, ...]) -> GameSpec:
    v = VARIANTS[game_id]
    info = GameInfo(
        game_id, seats=2, outcome=WDL, moves=LIST, invalid=RULES, family="grid", prompt_styles=STYLES,
        params=(Param("invalid_limit", int, v.invalid_limit, low=0, high=1_000),
                Param("move_cap", int, v.move_cap, low=1, high=10_000),
                Param("position", str, ""),
                Param("to_move", str, "", choices=("", "X", "O")), PROTOCOL, UPSTREAM))
    return register(GameSpec(
        info, make=lambda params, _id=game_id: GridGame.from_params(_id, params),
        prompter=_prompter,
        narrator=lambda game, catalog, viewer=-1: GridNarrator(game, catalog, viewer),
        analyses=sections, rules_text=rules_text, references=references, seed_tables=seed_tables,
        fast=lambda: importlib.import_module("tcgtui.engine.grid.fast"),
        extras={"analyze": analyze, "seed_files": seed_files, "result_code": result_code,
                "parse_position": _position_parser(game_id), "missed": missed, "perf": PERF[game_id],
                "reads_records": True}))        # its report sections replay each game's record


TICTACTOE = _register("tictactoe", (Reference("perfect", _perfect),))
CONNECT4 = _register("connect4", (Reference("ab", _alphabeta, takes_arg=True, default_arg=8, max_arg=14),))
GOMOKU = _register("gomoku", (Reference("threats", _threats),))
