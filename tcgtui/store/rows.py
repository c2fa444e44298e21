"""Turn a played match into store rows: shared by bench, watch and play."""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.engine.tcg import Pack
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.store.db import FINISHED, DecisionRow

InfoFilter = Callable[[dict[str, Any]], dict[str, Any]]

LOGGED_ONLY = ("messages",)                 # decision info kept only with --log-prompts
ATTEMPT_LOGGED_ONLY = ("reply", "reasoning")


def decision_row(d: DecisionRecord, specs: tuple[str, str], pack: Pack,
                 info: InfoFilter = lambda i: i) -> DecisionRow:
    return DecisionRow(d.index, d.turn, d.seat, specs[d.seat], d.move,
                       pack.card(d.move).type if d.move else None, d.seconds, info(d.info))


def outcome_fields(result: MatchResult) -> dict[str, Any]:
    """status, winner, reason, turns, moves, error and record, as the games table holds them."""
    outcome = result.outcome if result.status == FINISHED else None
    return {"status": result.status, "winner": None if outcome is None else outcome.winner,
            "reason": None if outcome is None else outcome.reason, "turns": result.turns,
            "moves": len(result.record.moves), "error": result.error, "record": result.record.to_json()}


def scrub_info(info: dict[str, Any], log_prompts: bool) -> dict[str, Any]:
    """Drop prompts and replies from a decision's info unless the user asked to keep them."""
    if log_prompts:
        return info
    out = {k: v for k, v in info.items() if k not in LOGGED_ONLY}
    if isinstance(out.get("attempts"), list):
        out["attempts"] = [{k: v for k, v in a.items() if k not in ATTEMPT_LOGGED_ONLY} if isinstance(a, dict)
                           else a for a in out["attempts"]]
    return out
