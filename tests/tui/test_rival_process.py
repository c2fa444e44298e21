"""A race's rival plays in a child interpreter, so its thinking never holds the screen (issue 26 item 5)."""

from __future__ import annotations

import time

from tcgtui.tui.rival import Round, play_round


def test_the_rival_plays_its_round_in_a_child_and_reports_each_turn_then_the_result() -> None:
    messages: list[tuple] = []
    play_round(Round("eleusis", {"rule": 0}, 3, "scientist", {}, "en"), messages.append, lambda: False)
    kinds = [m[0] for m in messages]
    assert kinds[-1] == "done" and set(kinds[:-1]) == {"turn"}, kinds
    _, result, board = messages[-1]
    assert result.outcome.reason == "solved" and len(kinds) - 1 == len(result.decisions)
    assert board, "the rival's mainline comes back for the side-by-side view"


def test_a_rival_that_cannot_play_says_why_in_one_message() -> None:
    messages: list[tuple] = []
    play_round(Round("eleusis", {"rule": 0}, 3, "llm:fake", {"base_url": "http://127.0.0.1:9"}, "en"),
               messages.append, lambda: False)
    assert len(messages) == 1 and messages[0][0] == "error" and messages[0][1], messages


def test_leaving_stops_the_rival_at_once() -> None:
    messages: list[tuple] = []
    started = time.monotonic()
    play_round(Round("eleusis", {"rule": 20}, 3, "scientist", {}, "en"), messages.append,
               lambda: time.monotonic() - started > 0.5)
    assert not any(m[0] == "done" for m in messages)
