"""Stored grid games as the seed simulator's output files (``tcgtui report --format seed``).

For each game: a text log, a JSON file, a one-row CSV and a moves CSV, with the
seed's file names, keys and columns, and a PNG of the final board; for each pair
of players in each prompt type, the two submission files its leaderboard merges.
Move outcomes use the seed's names; a move's status and the final state are the
board as the seed's prompt shows it, so the wording comes from the user's
checkout (``SeedWording``).  The engine does no I/O: files come back as
``{name: text or bytes}`` for the caller to write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tcgtui.engine.core import INVALID, GameRecord
from tcgtui.engine.grid.config import VARIANTS
from tcgtui.engine.grid.seed import (
    GAME_TYPES,
    OUTCOMES,
    REPOSITORY,
    VALID,
    SeedWording,
    board_text,
    judge_reply,
    status_text,
)
from tcgtui.engine.grid.state import result_code

GAME_COLUMNS = (
    "UUID",
    "DateTime",
    "GameType",
    "PromptType",
    "PromptVersion",
    "GameNumber",
    "Player1",
    "Player2",
    "Result",
    "GameDuration",
    "TotalMoves",
    "Player1Moves",
    "Player2Moves",
    "Player1MovesPerWin",
    "Player2MovesPerWin",
    "Player1InvalidAlreadyTaken",
    "Player2InvalidAlreadyTaken",
    "Player1InvalidFormat",
    "Player2InvalidFormat",
    "Player1OutOfBounds",
    "Player2OutOfBounds",
)
MOVE_COLUMNS = ("MoveNumber", "MovePlayer", "MoveRow", "MoveCol", "MoveOutcome", "CurrentStatus", "Response")
COUNTED = (("InvalidAlreadyTaken", "taken"), ("InvalidFormat", "format"), ("OutOfBounds", "out_of_bounds"))


@dataclass
class SeedGame:
    """One stored game as the seed logs it."""

    game_type: str
    prompt_type: str
    prompt_version: str
    players: tuple[str, str]
    result: str
    moves: list[dict[str, Any]]
    log: str
    final_state: str
    final_rows: tuple[str, ...] = ()
    counts: list[int] = field(default_factory=lambda: [0, 0])  # moves (valid and invalid) per seat
    invalid: list[dict[str, int]] = field(default_factory=lambda: [{}, {}])
    moves_per_win: list[int] = field(default_factory=lambda: [0, 0])


__all__ = ["REPOSITORY", "game_files", "seed_game", "submission_files", "wording"]


def wording(game_id: str, upstream: Any) -> SeedWording:
    """The seed's wording of ``game_id``, read through the caller's ``upstream`` (the user's checkout)."""
    # the game only when the seed's files are written
    from tcgtui.engine.grid.game import seed_wording

    return seed_wording(game_id, upstream)


def _name(player: str) -> str:
    return player.replace("/", "_")


def _visual(rows: list[str], symbols: tuple[str, str]) -> str:
    """The seed's text-log board: cells joined by ``|``, a blank line after."""
    table = {".": "e", "X": symbols[0], "O": symbols[1]}
    return "".join("|".join(table[ch] for ch in row) + "\n" for row in rows) + "\n"


def _said(reply: str) -> str:
    """A logged response: quotes turned to single ones, as the seed writes them."""
    return reply.replace('"', "'")


def seed_game(
    record_json: dict[str, Any], players: list[str], style: str, version: str, wording: SeedWording
) -> SeedGame:
    """Replay a record into the seed's move log."""
    # the game only when the seed's files are written
    from tcgtui.engine.grid.game import GridGame

    record = GameRecord.from_json(record_json)
    game = GridGame.from_params(record.game, dict(record.setup))
    cfg, symbols = game.config, VARIANTS[record.game].symbols
    state = game.new_state(record.seed)
    raw_invalid = iter(record.invalid)
    out = SeedGame(GAME_TYPES[record.game], style, version, (_name(players[0]), _name(players[1])), "", [], "", "")
    for number, text in enumerate(record.moves, 1):
        if state.is_terminal():
            break
        seat = state.to_move
        rows = list(state.observation(seat).board)
        status = status_text(board_text(cfg, rows, symbols, style, wording), style, wording)
        out.counts[seat] += 1
        if text.startswith(INVALID):
            kind = text[len(INVALID) :]
            raw = next(raw_invalid, "")
            judged = judge_reply(cfg, rows, raw)
            row, col = _attempted(cfg, judged.response, kind)
            out.invalid[seat][kind] = out.invalid[seat].get(kind, 0) + 1
            state.apply_invalid(kind, raw)
            out.moves.append(
                _move(number, seat, row, col, OUTCOMES.get(kind, OUTCOMES["format"]), status, judged.response)
            )
            out.log += f"Invalid Move ({OUTCOMES.get(kind, OUTCOMES['format'])})\n\n"
            continue
        r, c = state.target(game.move_from_text(text))
        state.place(r, c)
        said = json.dumps({"column": c + 1} if cfg.gravity else {"row": r + 1, "column": c + 1}, separators=(",", ":"))
        out.moves.append(_move(number, seat, r + 1, c + 1, VALID, status, said))
        out.log += _visual(list(state.observation(seat).board), symbols)
        if (ended := state.outcome) is not None and ended.winner == seat and ended.reason == "line":
            out.moves_per_win[seat] = out.counts[seat]
    code = result_code(ended) if (ended := state.outcome) is not None else "in_progress"
    out.result = "Cancelled" if code == "cancelled" else code
    out.final_rows = tuple(state.observation(0).board)
    out.final_state = status_text(
        board_text(cfg, list(state.observation(0).board), symbols, style, wording), style, wording
    )
    return out


def _attempted(cfg: Any, response: str, kind: str) -> tuple[int, int]:
    """The row and column an invalid attempt named, as the seed logs them (-1 where it logs none)."""
    if kind == "format":
        return -1, -1
    try:
        data = json.loads(response)
    except ValueError:
        return -1, -1
    col = data.get("column", -1) if isinstance(data, dict) else -1
    row = -1 if cfg.gravity or not isinstance(data, dict) else data.get("row", -1)
    return row, col


def _move(number: int, seat: int, row: Any, col: Any, outcome: str, status: str, response: str) -> dict[str, Any]:
    return {
        "MoveNumber": number,
        "Player": seat + 1,
        "Row": row,
        "Column": col,
        "Outcome": outcome,
        "CurrentStatus": status,
        "Response": _said(response),
    }


def _js(x: float) -> str:
    """A number as JavaScript prints it (1, not 1.0)."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _csv(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def game_files(game: SeedGame, *, uuid: str, stamp: str, number: int, duration_s: int) -> dict[str, Any]:
    """The four files the seed writes for one game, and the final board as a PNG."""
    g = game
    base = "_".join((g.game_type, g.prompt_type, g.players[0], g.players[1], g.result.replace("/", "_"), stamp))
    summary: dict[str, Any] = {
        "UUID": uuid,
        "DateTime": stamp,
        "GameType": g.game_type,
        "PromptType": g.prompt_type,
        "PromptVersion": g.prompt_version,
        "GameNumber": number,
        "Player1": g.players[0],
        "Player2": g.players[1],
        "Result": g.result,
        "GameDuration": duration_s,
        "TotalMoves": len(g.moves),
        "Player1Moves": g.counts[0],
        "Player2Moves": g.counts[1],
        "Player1MovesPerWin": g.moves_per_win[0],
        "Player2MovesPerWin": g.moves_per_win[1],
    }
    for key, kind in COUNTED:
        summary[f"Player1{key}"] = g.invalid[0].get(kind, 0)
        summary[f"Player2{key}"] = g.invalid[1].get(kind, 0)
    text_lines = [
        f"UUID: {uuid}",
        f"Date and Time (yyMMdd-HHmmss): {stamp}",
        f"Game Type: {g.game_type}",
        f"Prompt Type: {g.prompt_type}",
        f"Prompt Version: {g.prompt_version}",
        f"Game #: {number}",
        f"Player 1: {g.players[0]}",
        f"Player 2: {g.players[1]}",
        f"Result: {g.result}",
        f"Game Duration (seconds): {duration_s}",
        f"Total Moves: {len(g.moves)}",
        f"Player 1 Moves: {g.counts[0]}",
        f"Player 2 Moves: {g.counts[1]}",
        f"Player 1 Moves per Win: {g.moves_per_win[0]}",
        f"Player 2 Moves per Win: {g.moves_per_win[1]}",
    ]
    for label, kind in (("Already Taken", "taken"), ("Invalid Format", "format"), ("Out of Bounds", "out_of_bounds")):
        text_lines += [
            f"Player 1 {label} Moves: {g.invalid[0].get(kind, 0)}",
            f"Player 2 {label} Moves: {g.invalid[1].get(kind, 0)}",
        ]
    files: dict[str, Any] = {
        base + ".txt": "\n".join(text_lines) + "\nMoves: \n" + g.log,
        base + ".json": json.dumps(
            {**summary, "Moves": g.moves, "FinalGameState": g.final_state}, indent="\t", ensure_ascii=False
        ),
        base + ".csv": ",".join(GAME_COLUMNS) + "\n" + ",".join(_csv(summary[k]) for k in GAME_COLUMNS),
    }
    rows = []
    for m in g.moves:
        cells = [
            m["MoveNumber"],
            m["Player"],
            m["Row"],
            m["Column"],
            m["Outcome"],
            m["CurrentStatus"].replace("\n", ""),
            m["Response"].replace("\\n", ""),
        ]
        rows.append(
            ",".join(_csv(summary[k]) for k in GAME_COLUMNS)
            + ","
            + ",".join(_csv(c) for c in cells)
            + ","
            + _csv(g.final_state)
        )
    files[base + "_moves.csv"] = ",".join(GAME_COLUMNS + MOVE_COLUMNS + ("FinalGameState",)) + "\n" + "\n".join(rows)
    files[base + ".png"] = final_png(g)
    return files


def final_png(g: SeedGame) -> bytes:
    """The final board as a picture (tcgtui's drawing; the seed's are screenshots of its web page)."""
    # start-up time: Pillow only for the final board's picture
    from tcgtui.engine.grid.render import board_png

    game_id = {v: k for k, v in GAME_TYPES.items()}[g.game_type]
    return board_png(game_id, tuple(g.final_rows), VARIANTS[game_id].symbols, "e")


def submission_files(games: list[SeedGame], *, uuid: str, stamp: str) -> dict[str, str]:
    """The leaderboard's submission files of one pair in one prompt type (first player, second player)."""
    g0 = games[0]
    n = len(games)
    wins = [sum(g.result == "winner1st" for g in games), sum(g.result == "winner2nd" for g in games)]
    dq = [sum(g.result == "disqualified1st" for g in games), sum(g.result == "disqualified2nd" for g in games)]
    moves = [sum(g.counts[s] for g in games) for s in (0, 1)]
    invalid = [sum(sum(g.invalid[s].values()) for g in games) for s in (0, 1)]
    ratio = [invalid[s] / moves[s] if moves[s] else 0 for s in (0, 1)]
    row = {
        "GameType": g0.game_type,
        "PromptType": g0.prompt_type,
        "PromptVersion": g0.prompt_version,
        "LLM1stPlayer": g0.players[0],
        "LLM2ndPlayer": g0.players[1],
        "WinRatio-1st": _js(wins[0] / n),
        "WinRatio-2nd": _js(wins[1] / n),
        "Wins-1st": str(wins[0]),
        "Wins-2nd": str(wins[1]),
        "Disqualifications-1st": str(dq[0]),
        "Disqualifications-2nd": str(dq[1]),
        "Draws": str(sum(g.result == "draw" for g in games)),
        "InvalidMovesRatio-1st": _js(ratio[0]),
        "InvalidMovesRatio-2nd": _js(ratio[1]),
        "TotalMoves-1st": str(moves[0]),
        "TotalMoves-2nd": str(moves[1]),
        "ProviderEmail": "",
        "DateTime": stamp,
        "UUID": uuid,
    }
    base = "_".join((g0.game_type, g0.prompt_type, g0.players[0], g0.players[1], stamp)) + "_submission"
    return {
        base + ".json": json.dumps([row], indent="\t", ensure_ascii=False),
        base + ".csv": ",".join(row) + "\n" + ",".join(row.values()),
    }
