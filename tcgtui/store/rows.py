"""Turn a played match into store rows: shared by bench, watch and play."""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.engine.tcg import Pack
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.store.db import FINISHED, DecisionRow

InfoFilter = Callable[[dict[str, Any]], dict[str, Any]]

# What a decision keeps.  Replies are small and are what error analysis needs (why a move was
# invalid, what an empty or cut answer looked like), so every attempt's reply is always kept, and its
# reasoning too, clipped to REASONING_CHARS (head and tail, with ``reasoning_chars`` its full length)
# unless --log-prompts.  Prompts are large (the rules and every card, each decision) and rebuilt
# from the record and the prompt version, so the conversation is kept only with --log-prompts.
LOGGED_ONLY = ("messages",)                 # decision info kept only with --log-prompts
REASONING_CHARS = 8_000                     # of an attempt's reasoning kept without --log-prompts


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


def _clip_reasoning(attempt: dict[str, Any]) -> dict[str, Any]:
    text = attempt.get("reasoning")
    if not isinstance(text, str) or len(text) <= REASONING_CHARS:
        return attempt
    half = REASONING_CHARS // 2
    return {**attempt, "reasoning": text[:half] + "…" + text[-half:],
            "reasoning_chars": attempt.get("reasoning_chars", len(text))}


def scrub_info(info: dict[str, Any], log_prompts: bool) -> dict[str, Any]:
    """Drop the prompts from a decision's info, and clip long reasoning, unless the user asked to
    keep everything; replies always stay (see above)."""
    if log_prompts:
        return info
    out = {k: v for k, v in info.items() if k not in LOGGED_ONLY}
    if isinstance(out.get("attempts"), list):
        out["attempts"] = [_clip_reasoning(a) if isinstance(a, dict) else a for a in out["attempts"]]
    return out
