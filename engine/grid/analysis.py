"""Immediate wins and blocks, missed opportunities in records, report sections.

A cell is an immediate win for a seat when a stone of that seat there makes a
line of at least ``connect`` through it, in any of the four directions: this
covers every window position, gaps (``X X . X X``) and Gomoku's overlines.
Connect Four counts only playable cells (each column's landing cell).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tcgtui.engine.core import CANCELLED, INVALID, GameRecord
from tcgtui.engine.grid.config import EMPTY, GridConfig
from tcgtui.engine.grid.lines import completes
from tcgtui.engine.grid.state import INVALID_KINDS, GridState, result_code


def _candidates(state: GridState) -> list[tuple[int, int]]:
    cfg = state.config
    if cfg.gravity:
        return [(r, c) for c in range(cfg.cols) for r in [state.landing_row(c)] if r >= 0]
    return [(i // cfg.cols, i % cfg.cols) for i, v in enumerate(state.board) if v == EMPTY]


def immediate_wins(
    state: GridState, seat: int, candidates: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """0-based cells where a stone of ``seat`` would complete a line now (row-major order);
    ``candidates`` are the state's playable cells when the caller has them already."""
    cfg = state.config
    if state.board.count(seat + 1) < cfg.connect - 1:  # too few stones for any line yet
        return []
    return sorted(
        (r, c)
        for r, c in (_candidates(state) if candidates is None else candidates)
        if completes(state.board, cfg.rows, cfg.cols, r, c, cfg.connect, seat + 1)
    )


def blocks(state: GridState, candidates: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """The opponent's immediate wins: the cells the side to move must take to stop them."""
    if state.is_terminal():
        return []
    return immediate_wins(state, 1 - state.to_move, candidates)


def _as_move(cfg: GridConfig, cell: tuple[int, int]) -> Any:
    return cell[1] + 1 if cfg.gravity else [cell[0] + 1, cell[1] + 1]


def analyze(state: GridState) -> dict[str, list]:
    """For the side to move, in the game's move form (``[row, column]`` 1-based; Connect Four the column)."""
    cfg = state.config
    if state.is_terminal():
        return {"legal": [], "wins": [], "blocks": []}
    return {
        "legal": [_as_move(cfg, x) for x in state.legal_cells()],
        "wins": [_as_move(cfg, x) for x in immediate_wins(state, state.to_move)],
        "blocks": [_as_move(cfg, x) for x in blocks(state)],
    }


def _game_for(record: dict[str, Any]):
    # only the seed's records are rebuilt into games
    from tcgtui.engine.grid.game import GridGame

    return GridGame.from_params(record["game"], record.get("setup", {}))


def _seat_tally() -> dict[str, Any]:
    return {
        "decisions": 0,
        "valid": 0,
        "win_chances": 0,
        "missed_wins": 0,
        "block_chances": 0,
        "missed_blocks": 0,
        "invalid": {k: 0 for k in INVALID_KINDS},
        "disqualified": False,
    }


def missed(record_json: dict[str, Any]) -> dict[str, Any]:
    """Per seat: valid decisions, chances to win and how many were missed, chances to block and how
    many were missed (only when the player had no win of its own), invalid attempts by kind and
    whether it was disqualified; plus the game's length (moves made) and result code."""
    record = GameRecord.from_json(record_json)
    game = _game_for(record_json)
    state = game.new_state(record.seed)
    seats = [_seat_tally(), _seat_tally()]
    for text in record.moves:
        if state.is_terminal():
            break
        seat = state.to_move
        tally = seats[seat]
        tally["decisions"] += 1
        if text.startswith(INVALID):
            kind = text[len(INVALID) :]
            tally["invalid"][kind] = tally["invalid"].get(kind, 0) + 1
            state.apply_invalid(kind, "")
            continue
        cell = state.target(game.move_from_text(text))
        playable = _candidates(state)  # one position, asked twice
        wins = immediate_wins(state, seat, playable)
        threats = [] if wins else blocks(state, playable)  # a block counts only when there is no win to take
        tally["valid"] += 1
        if wins:
            tally["win_chances"] += 1
            tally["missed_wins"] += cell not in wins
        elif threats:
            tally["block_chances"] += 1
            tally["missed_blocks"] += cell not in threats
        state.place(*cell)
    out = state.outcome
    if out is not None and out.reason == "disqualified":
        seats[1 - out.winner]["disqualified"] = True
    return {"seats": seats, "length": state.moves_made, "result": result_code(out) if out is not None else None}


def _rate(n: float, d: float) -> float | None:
    return None if not d else n / d


SECTIONS = ("missed", "invalid", "outcomes", "seat_rates")


def sections(games: Iterable[Any], catalog: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Report sections over played games (objects with ``record``, ``seat``, ``agent``, ``status``).

    Returns ``{section: [row, ...]}``; a row's keys are column keys whose headers are
    ``grid.report.col.<key>`` and a section's title is ``grid.report.section.<name>``.
    Every section has one row per game, agent and mover (``first``/``second``): the seed
    benchmark splits its counts by seat.
    """
    tallies: dict[tuple, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    for g in games:
        record = g.record if isinstance(g.record, dict) else g.record.to_json()
        if getattr(g, "status", "finished") != "finished" or not record.get("game"):
            continue
        try:
            m = missed(record)
        except (KeyError, ValueError):
            continue
        seat = int(g.seat)
        t = m["seats"][seat]
        a = tallies[(record["game"], g.agent, "first" if seat == 0 else "second")]
        a["games"] += 1
        for k in ("valid", "win_chances", "missed_wins", "block_chances", "missed_blocks", "decisions"):
            a[k] += t[k]
        for kind, n in t["invalid"].items():
            a[kind] += n
            a["invalid"] += n
        a["disqualified"] += t["disqualified"]
        a["length"] += m["length"]
        result = m["result"]
        if result == "cancelled":  # the move cap: apart from every rate of the seed's
            a["cancelled"] += 1
        else:
            a["rated"] += 1
            a["won"] += result in (("winner1st", "disqualified2nd") if seat == 0 else ("winner2nd", "disqualified1st"))
            a["drawn"] += result == "draw"
    out: dict[str, list[dict[str, Any]]] = {"missed": [], "invalid": [], "outcomes": [], "seat_rates": []}
    for (game, agent, mover), a in sorted(tallies.items()):
        who = {"game": game, "agent": agent, "mover": mover, "games": int(a["games"])}
        out["missed"].append(
            {
                **who,
                "valid": int(a["valid"]),
                "win_chances": int(a["win_chances"]),
                "missed_wins": int(a["missed_wins"]),
                "missed_win_rate": _rate(a["missed_wins"], a["win_chances"]),
                "block_chances": int(a["block_chances"]),
                "missed_blocks": int(a["missed_blocks"]),
                "missed_block_rate": _rate(a["missed_blocks"], a["block_chances"]),
                # the seed's two normalisations: missed chances per game, and per valid move
                "missed_per_game": _rate(a["missed_wins"] + a["missed_blocks"], a["games"]),
                "missed_valid_rate": _rate(a["missed_wins"] + a["missed_blocks"], a["valid"]),
            }
        )
        inv = {
            **who,
            "decisions": int(a["decisions"]),
            "invalid": int(a["invalid"]),
            "invalid_rate": _rate(a["invalid"], a["decisions"]),
        }
        for kind in INVALID_KINDS:
            inv[kind] = int(a[kind])
            inv[f"{kind}_rate"] = _rate(a[kind], a["decisions"])
        out["invalid"].append(inv)
        out["outcomes"].append(
            {
                **who,
                "disqualified": int(a["disqualified"]),
                "disqualified_rate": _rate(a["disqualified"], a["games"]),
                "mean_length": _rate(a["length"], a["games"]),
            }
        )
        out["seat_rates"].append(_seat_rates(who, a))
    return out


def _seat_rates(who: dict[str, Any], a: dict[str, float]) -> dict[str, Any]:
    """The seed's Figures 3-11 as a row: win, draw and disqualification rates of one player in one
    seat, over its games that ended (cancelled ones apart), the win rate with its exact interval."""
    # start-up time: the registry imports this module; the interval (scipy) only when a report asks
    from tcgtui.engine.stats import clopper_pearson

    n, won = int(a["rated"]), int(a["won"])
    low, high = clopper_pearson(won, n) or (None, None)
    return {
        **who,
        "games": n,
        "cancelled": int(a["cancelled"]),
        "wins": won,
        "win_rate": _rate(won, n),
        "win_rate_ci_low": low,
        "win_rate_ci_high": high,
        "draws": int(a["drawn"]),
        "draw_rate": _rate(a["drawn"], n),
        "disqualified": int(a["disqualified"]),
        "disqualified_rate": _rate(a["disqualified"], n),
    }


def leaderboard(games: Iterable[Any], context: Any) -> list[dict[str, Any]]:
    """The grid seed's results matrix: per player, opponent, game and prompt style, wins moving first
    (W1st) and second (W2nd), draws (Dr), disqualifications moving first (Dq1st) and second (Dq2nd);
    cancelled games (the move cap) apart.  Each game counts once for each of its two players."""
    cells: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for g in games:
        if getattr(g, "mirror", False) or g.status != "finished" or len(g.seats) != 2:
            continue
        style = str((g.params or {}).get("prompt_style") or "list")
        for seat in (0, 1):
            c = cells[(g.seats[seat], g.seats[1 - seat], g.game, style)]
            order = "1st" if seat == 0 else "2nd"
            c["games"] += 1
            if g.reason == CANCELLED:
                c["cancelled"] += 1
            elif g.winner is None:
                c["Dr"] += 1
            elif g.winner == seat:
                c[f"W{order}"] += 1
            elif g.reason == "disqualified":
                c[f"Dq{order}"] += 1
    return [
        {
            "agent": a,
            "opponent": b,
            "game": game,
            "style": style,
            "games": c["games"],
            **{k: c[k] for k in ("W1st", "W2nd", "Dr", "Dq1st", "Dq2nd", "cancelled")},
        }
        for (a, b, game, style), c in sorted(cells.items())
    ]


def tables() -> tuple:
    # the report's table types only when a report asks for them
    from tcgtui.engine.registry import SeedTable

    return (SeedTable("leaderboard", "Grid games: the leaderboard's results matrix", leaderboard),)
