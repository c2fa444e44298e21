"""Build small stores by hand for the store and report tests."""

from __future__ import annotations

from typing import Any

from tcgtui.store import FINISHED, DecisionRow, GameRow, Store

# (card, card_type, seconds, tokens or None, extra info)
Move = tuple[str, str | None, float, int | None, dict[str, Any]]


def add_game(store: Store, run_id: int | None, agent: str, opponent: str, lang: str, index: int, *,
             result: str | None = None, turns: int = 10, moves: list[Move] = (), status: str = FINISHED,
             seat: int | None = None) -> GameRow:
    """A game whose measured player (in ``seat``, default index % 2) won, lost or drew."""
    seat = index % 2 if seat is None else seat
    winner = {"win": seat, "loss": 1 - seat, "draw": None, None: None}[result]
    row = GameRow(agent=agent, opponent=opponent, lang=lang, game_index=index, seed=1000 + index,
                  agent_seat=seat, game="tcg", pack_id="test", pack_hash="0" * 64, status=status,
                  record={"game": "tcg", "seed": 1000 + index, "moves": [m[0] for m in moves]},
                  started_at="2026-01-01T00:00:00+00:00", run_id=run_id,
                  winner=winner if status == FINISHED else None,
                  reason="lp" if status == FINISHED else None, turns=turns, moves=len(moves),
                  error="boom" if status != FINISHED else None)
    decisions = []
    for i, (card, ctype, seconds, tokens, extra) in enumerate(moves):
        info = dict(extra)
        if tokens is not None:
            info.update(prompt_tokens=tokens - tokens // 4, completion_tokens=tokens // 4)
        decisions.append(DecisionRow(2 * i, 2 * i + 1, seat, agent, card, ctype, seconds, info))
        # the opponent's reply, which the report must ignore
        decisions.append(DecisionRow(2 * i + 1, 2 * i + 2, 1 - seat, opponent, "x", "spell", 99.0,
                                     {"prompt_tokens": 9999, "parse_path": "none"}))
    store.save_game(row, decisions)
    return row
