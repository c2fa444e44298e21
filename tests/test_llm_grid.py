"""The llm: agent plays grid games (rules count invalid moves) through a real local server."""

from __future__ import annotations

import json

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import INVALID, Match
from tcgtui.opponents.base import OptionError
from tcgtui.opponents.llm.prompts import IMAGE_TOKENS
from tcgtui.opponents.llm.testserver import ChatServer, Reply, game_policy, has_image, invalid_replies
from tcgtui.opponents.registry import make_agent
from tests.llm_support import play_match, llm_agent, run

INFO_KEYS = {"prompt_version", "model", "latency_s", "prompt_tokens", "completion_tokens",
             "reasoning_tokens", "tokens_estimated", "reasoning_estimated", "retries", "faults",
             "invalid", "fallback", "parse_path", "attempts", "history_turns", "overflow_retries"}
ATTEMPT_KEYS = {"reply", "reasoning", "move", "parse_path", "error", "latency_s", "finish_reason"}
GAMES = ("tictactoe", "connect4")
STYLES = registry.get("tictactoe").info.prompt_styles


class Live:
    """The occupied cells of the game being played, for the fake model of image prompts."""

    match = None

    def __call__(self):
        obs = self.match.state.observation(0)
        return {(r, c) for r, row in enumerate(obs.board) for c, v in enumerate(row) if v != "."}


def play(server, game_id, *, llm_seat=0, lang="en", style=None, seed=5, params=None, live=None, **options):
    game = registry.get(game_id).game(params or {})
    match = Match(game, seed)
    if live is not None:
        live.match = match

    async def go():
        llm = llm_agent(server, **options)
        other = make_agent("random")
        agents = (llm, other) if llm_seat == 0 else (other, llm)
        try:
            return await play_match(game, seed, agents, lang=lang, match=match,
                                    options={"prompt_style": style} if style else {})
        finally:
            await llm.aclose()
    return run(go())


def live_server(game_id, schedule=(), seed=7, **kw):
    live = Live()
    policy = game_policy(game_id, seed, board=live)
    if schedule:
        policy = invalid_replies(list(schedule), policy, game_id, board=live)
    return ChatServer(policy=policy, **kw), live


def play_live(game_id, schedule=(), **kw):
    """A game whose fake model can see the board even in a picture (it reads the match)."""
    server, live = live_server(game_id, schedule)
    with server:
        match, decisions = play(server, game_id, live=live, **kw)
    return server, match, decisions


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_against_random(game_id, lang, style):
    server, match, decisions = play_live(game_id, lang=lang, style=style, stream=lang == "ar")
    assert match.state.is_terminal() and match.state.outcome.reason in ("line", "full")
    mine = [d for seat, d in decisions if seat == 0]
    assert mine and all(d.invalid is None and not d.forfeit for d in mine)
    version = registry.get(game_id).prompter(match.game, locales.load(lang), 0, style).version
    for d in mine:
        assert set(d.info) == INFO_KEYS and d.info["prompt_version"] == version
        assert (d.info["invalid"], d.info["fallback"], d.info["parse_path"]) == (0, None, "json")
        (attempt,) = d.info["attempts"]
        assert set(attempt) == ATTEMPT_KEYS and attempt["move"] == d.move
    assert len(server.requests) == len(mine)
    for r in server.requests:                       # one fresh message per move, no history
        assert [m["role"] for m in r.json["messages"]] == ["user"]
        assert has_image(r.json) == (style == "image")
        if style == "image":
            parts = r.json["messages"][0]["content"]
            assert {p["type"] for p in parts} == {"text", "image_url"}
    json.dumps([d.info for _, d in decisions])


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_each_kind_of_invalid_reply_is_counted_and_the_same_player_goes_again(lang):
    # the model moves second, so a cell is taken when its first reply comes
    server, match, decisions = play_live("tictactoe", ["format", "out_of_bounds", "taken"], llm_seat=1,
                                         lang=lang, style="list")
    seats = [seat for seat, _ in decisions]
    assert seats[:5] == [0, 1, 1, 1, 1]            # asked again after each invalid reply
    tries = [d for seat, d in decisions if seat == 1][:4]
    assert [d.invalid for d in tries] == ["format", "out_of_bounds", "taken", None]
    assert all(d.move == "" and d.raw == d.info["attempts"][0]["reply"] for d in tries[:3])
    assert [d.info["attempts"][0]["error"] for d in tries] == ["format", "out_of_bounds", "taken", None]
    assert all(set(d.info) == INFO_KEYS and d.info["fallback"] is None for d in tries)
    assert [d.info["invalid"] for d in tries] == [1, 1, 1, 0]
    assert match.moves[1:4] == [INVALID + "format", INVALID + "out_of_bounds", INVALID + "taken"]
    record = match.record()
    assert record.invalid == [d.raw for d in tries[:3]]
    invalid_events = [e for e in match.events if e.kind == "invalid"]
    assert [(e.player, e.data["kind"], e.data["count"]) for e in invalid_events] == [
        (1, "format", 1), (1, "out_of_bounds", 2), (1, "taken", 3)]
    assert match.state.is_terminal() and match.state.outcome.reason != "disqualified"
    # each retry quotes the previous reply, the reason and what is left, in the game's language
    catalog = locales.load(lang)
    prompts = [r.json["messages"][0]["content"] for r in server.requests]
    assert catalog.t("grid.prompts.retry.previous", reply=tries[0].raw) not in prompts[0]
    for n, (before, prompt) in enumerate(zip(tries, prompts[1:4]), start=1):
        assert catalog.t("grid.prompts.retry.previous", reply=before.raw) in prompt
        reason = catalog.t(f"grid.prompts.reason.{before.invalid}")
        assert catalog.t("grid.prompts.retry.reason", reason=reason) in prompt
        assert catalog.t("grid.prompts.retry.left", left=3 - n) in prompt
    assert catalog.t("grid.prompts.retry.previous", reply="x").split("x")[0] not in prompts[4]


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("game_id", GAMES)
def test_past_the_invalid_limit_the_model_is_disqualified(game_id, lang):
    limit = registry.get(game_id).info.param("invalid_limit").default
    kinds = ["format", "out_of_bounds"] * limit
    server, match, decisions = play_live(game_id, kinds[:limit + 1], lang=lang, style="illustration")
    outcome = match.state.outcome
    assert (outcome.winner, outcome.reason) == (1, "disqualified")
    assert [d.invalid for _, d in decisions] == kinds[:limit + 1]
    assert len(server.requests) == limit + 1
    assert [e.data["count"] for e in match.events if e.kind == "invalid"] == list(range(1, limit + 2))


def test_a_full_column_is_a_taken_move_in_connect_four():
    full = "/".join(["X......", "O......"] * 3)
    server, match, decisions = play_live("connect4", ["taken", "out_of_bounds", "format"],
                                         params={"position": full}, style="list")
    assert [d.invalid for _, d in decisions[:4]] == ["taken", "out_of_bounds", "format", None]
    assert decisions[0][1].raw == '{"column": 1}'
    assert match.state.is_terminal()


def test_a_bad_prompt_style_is_refused():
    with ChatServer() as server:
        with pytest.raises(OptionError, match="prompt style"):
            play(server, "tictactoe", style="smoke-signals")


def test_image_tokens_are_estimated_without_usage():
    live = Live()
    policy = game_policy("tictactoe", 3, board=live)
    with ChatServer(policy=lambda request: Reply(policy(request).content, usage=None)) as server:
        _, decisions = play(server, "tictactoe", style="image", live=live)
    first = decisions[0][1].info
    assert first["tokens_estimated"] and first["prompt_tokens"] > IMAGE_TOKENS
    assert first["prompt_tokens"] < IMAGE_TOKENS + 2000      # the base64 text is not counted
