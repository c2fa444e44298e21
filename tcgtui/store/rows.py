"""Turn a played match into store rows: the ONE builder bench, watch, play and baseline use.

``game_row`` builds a finished (or errored) game, ``pending_row`` one that is
saved move by move, and ``decision_rows`` its decisions.  What is game-specific
comes from the game's registry spec (``spec.store``): ``move_kind(game, move_text)``
names a move's kind (the card game: the card's type), ``result_code(outcome)``
a result code; score games (``info.outcome == "score"``) store the measured
player's score.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from tcgtui.engine import registry
from tcgtui.engine.core import INVALID, Game, Outcome
from tcgtui.match import DecisionRecord, MatchResult
from tcgtui.store.db import FINISHED, IN_PROGRESS, DecisionRow, GameRow, two_seats

InfoFilter = Callable[[dict[str, Any]], dict[str, Any]]

# What a decision keeps.  Replies are small and are what error analysis needs (why a move was
# invalid, what an empty or cut answer looked like), so every attempt's reply is always kept, and its
# reasoning too, clipped to REASONING_CHARS (head and tail, with ``reasoning_chars`` its full length)
# unless --log-prompts.  Prompts are large (the rules and every card, each decision) and rebuilt
# from the record and the prompt version, so the conversation is kept only with --log-prompts.
LOGGED_ONLY = ("messages",)                 # decision info kept only with --log-prompts
REASONING_CHARS = 8_000                     # of an attempt's reasoning kept without --log-prompts


def spec_of(game_id: str) -> registry.GameSpec | None:
    try:
        return registry.get(game_id)
    except registry.UnknownGame:
        return None


def seat_specs(game_id: str, agent: str, opponent: str, agent_seat: int) -> tuple[str, ...]:
    """Who sat in each seat: ``(agent,)`` in one-seat games, else agent and opponent by the agent's seat."""
    spec = spec_of(game_id)
    if spec is not None and spec.info.seats == 1:
        return (agent,)
    return two_seats(agent, opponent, agent_seat)


def pending_row(game: Game, *, seed: int, agent: str, opponent: str, lang: str, game_index: int, agent_seat: int,
                run_id: int | None, started_at: str) -> GameRow:
    """A game about to be played move by move (``in_progress``, no record yet)."""
    params = dict(game.deal_setup(seed))
    return GameRow(agent=agent, opponent=opponent, lang=lang, game_index=game_index, seed=seed,
                   agent_seat=agent_seat, game=game.name, status=IN_PROGRESS, record={}, started_at=started_at,
                   pack_id=_str(params.get("pack")), pack_hash=_str(params.get("pack_hash")), game_params=params,
                   run_id=run_id, seat_specs=seat_specs(game.name, agent, opponent, agent_seat))


def game_row(result: MatchResult, *, game: Game, agent: str, opponent: str, lang: str, game_index: int,
             agent_seat: int, run_id: int | None, started_at: str, finished_at: str | None,
             options: dict[str, Any] | None = None) -> GameRow:
    """A played game (finished or errored) as one games row, with its seats.

    ``options`` are the game-level settings the players were given (the prompt style); they
    are kept among the game's parameters with the prompt version the models were asked in,
    so an export can say how each game was put to the models."""
    row = pending_row(game, seed=result.record.seed, agent=agent, opponent=opponent, lang=lang,
                      game_index=game_index, agent_seat=agent_seat, run_id=run_id, started_at=started_at)
    row.game_params.update(options or {})
    version = next((d.info["prompt_version"] for d in result.decisions if "prompt_version" in d.info), None)
    if version is not None:
        row.game_params["prompt_version"] = version
    fields = outcome_fields(result, game.name, agent_seat)
    for key, value in fields.items():
        setattr(row, key, value)
    row.finished_at = finished_at
    return row


def move_kind(game: Game) -> Callable[[str], str | None]:
    spec = spec_of(game.name)
    kind = None if spec is None else spec.store.move_kind
    if kind is None:
        return lambda text: None
    return lambda text: None if not text or text.startswith(INVALID) else kind(game, text)


def decision_rows(decisions: Iterable[DecisionRecord], seat_specs: tuple[str, ...], game: Game,
                  info_filter: InfoFilter = lambda i: i) -> list[DecisionRow]:
    """Decision rows of a game; a forfeit (move ``""``) and an invalid attempt (``!kind``) have no kind."""
    kind = move_kind(game)
    return [DecisionRow(d.index, d.turn, d.seat, seat_specs[d.seat], d.move, kind(d.move), d.seconds,
                        info_filter(d.info)) for d in decisions]


def outcome_fields(result: MatchResult, game_id: str | None = None, agent_seat: int = 0) -> dict[str, Any]:
    """status, winner, score, result, reason, turns, moves, error, record and seat scores, as the store holds them."""
    outcome = result.outcome if result.status == FINISHED else None
    spec = spec_of(game_id or result.record.game)
    fields: dict[str, Any] = {
        "status": result.status, "winner": None if outcome is None else outcome.winner,
        "reason": None if outcome is None else outcome.reason, "turns": result.turns,
        "moves": len(result.record.moves), "error": result.error, "record": result.record.to_json(),
        "score": None, "result": None, "seat_scores": ()}
    if outcome is not None and spec is not None:
        fields["score"] = _score(outcome, spec, agent_seat)
        code = spec.store.result_code
        fields["result"] = None if code is None else code(outcome)
        fields["seat_scores"] = tuple(_score(outcome, spec, s) for s in range(spec.info.seats))
    return fields


def _score(outcome: Outcome, spec: registry.GameSpec, seat: int) -> float | None:
    return outcome.returns(seat) if spec.info.outcome == registry.SCORE else None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _clip_reasoning(attempt: dict[str, Any]) -> dict[str, Any]:
    text = attempt.get("reasoning")
    if not isinstance(text, str) or len(text) <= REASONING_CHARS:
        return attempt
    half = REASONING_CHARS // 2
    return {**attempt, "reasoning": text[:half] + "…" + text[-half:],
            "reasoning_chars": attempt.get("reasoning_chars", len(text))}


def scrub_info(info: Mapping[str, Any], log_prompts: bool) -> Mapping[str, Any]:
    """Drop the prompts from a decision's info, and clip long reasoning, unless the user asked to
    keep everything; replies always stay (see above)."""
    if log_prompts:
        return info
    out = {k: v for k, v in info.items() if k not in LOGGED_ONLY}
    if isinstance(out.get("attempts"), list):
        out["attempts"] = [_clip_reasoning(a) if isinstance(a, dict) else a for a in out["attempts"]]
    return out
