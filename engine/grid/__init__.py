"""Tic-Tac-Toe, Connect Four and Gomoku: the grid games of the LLM grid benchmark.

Three ids share this package, its locale folder (``locales/<lang>/grid/``) and its
tests.  Moves are text: ``"r,c"`` (1-based from the top-left) or, in Connect Four,
a column ``"c"``.  Invalid replies are handled by the rules (``apply_invalid``).
"""

from __future__ import annotations

import importlib
from functools import partial
from typing import Any

from tcgtui.engine.core import Game, GameState
from tcgtui.engine.grid import fake_replies, seed_files
from tcgtui.engine.grid.analysis import analyze, blocks, immediate_wins, missed, sections
from tcgtui.engine.grid.analysis import tables as seed_tables
from tcgtui.engine.grid.config import BOARD_CAP, VARIANTS
from tcgtui.engine.grid.game import GridGame
from tcgtui.engine.grid.narrator import GridNarrator, rules_text
from tcgtui.engine.grid.observation import GridObservation
from tcgtui.engine.grid.position import PositionError, format_position, parse_position
from tcgtui.engine.grid.state import GridState, result_code
from tcgtui.engine.protocols import PROTOCOL, SEED, UPSTREAM
from tcgtui.engine.registry import (
    LIST,
    RULES,
    WDL,
    Choices,
    FakeModel,
    GameInfo,
    GameSpec,
    Param,
    Reference,
    ReportHooks,
    StoreHooks,
    ToolHooks,
    register,
)

__all__ = [
    "GridGame",
    "GridNarrator",
    "GridObservation",
    "GridState",
    "PositionError",
    "analyze",
    "blocks",
    "format_position",
    "immediate_wins",
    "missed",
    "parse_position",
    "result_code",
    "rules_text",
    "sections",
]

STYLES = ("list", "illustration", "image")


def _prompter(game: GridGame, catalog: Any, seat: int, style: str = "list") -> Any:
    if game.protocol == SEED:
        from tcgtui.engine.grid.seed import REPOSITORY
        from tcgtui.engine.grid.seed_prompter import SeedGridPrompter

        if game.wording is None:
            raise ValueError(
                f"--protocol seed: a model reads the seed's own prompts, from your checkout of "
                f"{REPOSITORY}; give it with --upstream DIR"
            )
        return SeedGridPrompter(game, game.wording, seat, style or "list")
    from tcgtui.engine.grid.prompter import GridPrompter

    return GridPrompter(game, catalog, seat, style or "list")


def _perfect(game: GridGame, arg: int | None) -> Any:
    from tcgtui.engine.grid.players import perfect

    return perfect(game, arg)


def _alphabeta(game: GridGame, arg: int | None) -> Any:
    from tcgtui.engine.grid.players import alphabeta

    return alphabeta(game, arg)


def _alphabeta_anytime(game: GridGame, arg: int | None) -> Any:
    from tcgtui.engine.grid.players import alphabeta_anytime

    return alphabeta_anytime(game, arg)


def _evaluator(game: Game, spec: str | None) -> Any:
    from tcgtui.engine.grid.evaluators import evaluator

    return evaluator(game, spec)


def _analyze(state: GameState) -> dict[str, list]:
    assert isinstance(state, GridState)  # registered for the grid games only
    return analyze(state)


def _threats(game: GridGame, arg: int | None) -> Any:
    from tcgtui.engine.grid.threats import threats

    return threats(game, arg)


# Players ``tcgtui perf`` times on each game's opening position (the speed figures the arena promises).
PERF = {
    "tictactoe": ("mc:1000", "mcts:1000", "perfect"),
    "connect4": ("mc:1000", "mcts:1000", "ab:8"),
    "gomoku": ("mc:100", "mcts:1000", "threats"),
}


REGIONS = ("corner", "edge", "inside")


def region(move: str, rows: int, cols: int) -> str | None:
    """A cell's region: a corner, an edge (the border but not a corner) or inside; None if not a cell."""
    r, sep, c = move.partition(",")
    if not sep or not r.strip().isdigit() or not c.strip().isdigit():
        return None
    on_border = (int(r) in (1, rows)) + (int(c) in (1, cols))
    return REGIONS[2 - on_border]


def _choices(game_id: str, params: dict[str, Any]) -> Choices:
    """Connect Four's choices by column; the games that place a stone anywhere by the chosen cell's region."""
    variant = VARIANTS[game_id]
    if variant.gravity:
        columns = tuple(str(c) for c in range(1, variant.cols + 1))
        return Choices("column", columns, lambda move, _kind: move if move in columns else None)
    size = params.get("size")
    shaped = variant.sized(size) if isinstance(size, int) and size in variant.sizes else variant
    return Choices("region", REGIONS, lambda move, _kind: region(move, shaped.rows, shaped.cols))


def _register(game_id: str, references: tuple[Reference, ...]) -> GameSpec:
    v = VARIANTS[game_id]
    size = (
        (Param("size", int, v.rows, choices=v.sizes, help_key="grid.ui.size_help", label_key="grid.ui.size_label"),)
        if v.sizes
        else ()
    )
    info = GameInfo(
        game_id,
        seats=2,
        outcome=WDL,
        moves=LIST,
        invalid=RULES,
        family="grid",
        prompt_styles=STYLES,
        public=True,
        params=(
            *size,
            Param("invalid_limit", int, v.invalid_limit, low=0, high=1_000),
            # "board": the seed's cap for its board, grown with the cells on a larger one (size)
            Param("move_cap", int, BOARD_CAP, low=1, high=10_000, words=(("board", BOARD_CAP),)),
            Param(
                "position",
                str,
                "",
                flag="--position",
                metavar="ROWS",
                help_key="arena.position",
                label_key="arena.position_label",
            ),
            Param(
                "to_move",
                str,
                "",
                choices=("", "X", "O"),
                flag="--to-move",
                metavar="X|O",
                help_key="arena.to_move",
                label_key="arena.to_move_label",
            ),
            PROTOCOL,
            UPSTREAM,
        ),
    )
    return register(
        GameSpec(
            info,
            make=partial(GridGame.from_params, game_id),
            prompter=_prompter,
            narrator=GridNarrator,
            analyses=sections,
            rules_text=rules_text,
            references=references,
            seed_tables=seed_tables,
            fast=lambda: importlib.import_module("tcgtui.engine.grid.fast"),
            interim=lambda: importlib.import_module("tcgtui.engine.grid.playouts"),
            store=StoreHooks(result_code=result_code),
            report=ReportHooks(
                seed_files=seed_files, reads_records=True
            ),  # its report sections replay each game's record
            tools=ToolHooks(
                analyze=_analyze, perf=PERF[game_id], evaluate=_evaluator, choices=partial(_choices, game_id)
            ),
            fake_model=FakeModel(fake_replies.player, fake_replies.invalid, fake_replies.INVALID_KINDS),
        )
    )


TICTACTOE = _register("tictactoe", (Reference("perfect", _perfect),))
CONNECT4 = _register(
    "connect4", (Reference("ab", _alphabeta, takes_arg=True, default_arg=8, max_arg=14, anytime=_alphabeta_anytime),)
)
GOMOKU = _register("gomoku", (Reference("threats", _threats),))
