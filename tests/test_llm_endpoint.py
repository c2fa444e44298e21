"""Endpoint settings and the shared CLI flags: where the URL and key come from, and validation."""

from __future__ import annotations

import argparse

import pytest

from tcgtui import locales
from tcgtui.llm_options import add_endpoint_arguments, endpoint_options
from tcgtui.opponents.llm.endpoint import (redact_url, resolve_api_key, resolve_base_url,
                                    settings_from_options)
from tcgtui.opponents.registry import make_agent
from tcgtui.errors import OptionError as UserError   # tcgtui.errors.UserError is one too

KEY = "sk-test-0123456789abcdef-SECRET"


@pytest.fixture
def clean_env(monkeypatch):
    for var in ("TCGTUI_BASE_URL", "OPENAI_BASE_URL", "TCGTUI_API_KEY", "OPENAI_API_KEY",
                "OPENROUTER_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser()
    add_endpoint_arguments(p, locales.load())
    return p


def test_base_url_order_flag_then_tcgtui_then_openai(clean_env):
    env = {"TCGTUI_BASE_URL": "http://a:1/v1", "OPENAI_BASE_URL": "http://b:2/v1"}
    assert resolve_base_url("http://flag:3/v1/", env) == "http://flag:3/v1"
    assert resolve_base_url(None, env) == "http://a:1/v1"
    assert resolve_base_url(None, {"OPENAI_BASE_URL": "http://b:2/v1"}) == "http://b:2/v1"


def test_no_base_url_is_one_clear_user_error(clean_env):
    with pytest.raises(UserError, match=r"^--base-url: no endpoint given.*TCGTUI_BASE_URL"):
        make_agent("llm:some-model")
    with pytest.raises(UserError, match="not an http"):
        resolve_base_url("localhost:8000", {})


def test_key_order(clean_env):
    assert resolve_api_key({"OPENROUTER_API_KEY": "c", "OPENAI_API_KEY": "b"}) == "b"
    assert resolve_api_key({"OPENROUTER_API_KEY": "c", "TCGTUI_API_KEY": "a", "OPENAI_API_KEY": "b"}) == "a"
    assert resolve_api_key({}) == ""


def test_the_key_is_in_no_repr_description_or_error(clean_env):
    clean_env.setenv("OPENROUTER_API_KEY", KEY)
    for url in (f"https://user:{KEY}@example.invalid/api/v1", f"https://example.invalid/api/v1?key={KEY}"):
        with pytest.raises(UserError) as refused:             # credentials in the URL: refused, never shown
            make_agent("llm:m", base_url=url)
        assert KEY not in str(refused.value)
    agent = make_agent("llm:m", base_url="https://example.invalid/api/v1?region=eu#top")
    assert agent.settings.api_key == KEY
    for text in (repr(agent.settings), repr(agent), str(agent.describe()), str(agent.settings.public())):
        assert KEY not in text
    assert agent.describe()["base_url"] == "https://example.invalid/api/v1"
    with pytest.raises(UserError) as err:
        resolve_base_url(f"ftp://u:{KEY}@host/", {})
    assert KEY not in str(err.value)


def test_redact_url_keeps_host_port_and_path():
    assert redact_url("http://u:p@127.0.0.1:8000/v1?x=1#f") == "http://127.0.0.1:8000/v1"


def test_cli_flags_become_make_agent_options(clean_env):
    args = parser().parse_args(["--base-url", "http://127.0.0.1:9/v1", "--temperature", "0.2",
                                "--max-tokens", "512", "--extra-body", '{"reasoning": {"effort": "low"}}',
                                "--timeout", "30", "--max-retries", "3", "--invalid-retries", "1",
                                "--fallback", "forfeit", "--parse", "soft", "--stream",
                                "--history-tokens", "4000"])
    opts = endpoint_options(args)
    assert opts == {"base_url": "http://127.0.0.1:9/v1", "temperature": 0.2, "max_tokens": 512,
                    "extra_body": {"reasoning": {"effort": "low"}}, "timeout": 30.0, "max_retries": 3,
                    "invalid_retries": 1, "fallback": "forfeit", "parse": "soft", "stream": True,
                    "history_tokens": 4000}
    s = settings_from_options("m", opts)
    assert (s.temperature, s.max_tokens, s.fallback, s.parse, s.stream, s.invalid_retries) == (
        0.2, 512, "forfeit", "soft", True, 1)
    body = make_agent("llm:m", **opts).client.body([{"role": "user", "content": "hi"}])
    assert body["reasoning"] == {"effort": "low"} and body["max_tokens"] == 512 and body["stream"]


def test_flags_left_out_leave_the_defaults(clean_env):
    assert endpoint_options(parser().parse_args([])) == {}
    s = settings_from_options("m", {"base_url": "http://h/v1"})
    assert (s.invalid_retries, s.fallback, s.parse, s.stream, s.temperature) == (2, "random", "strict",
                                                                                 False, None)
    body = make_agent("llm:m", base_url="http://h/v1").client.body([])
    assert set(body) == {"model", "messages"}
    assert endpoint_options(parser().parse_args(["--no-stream"])) == {"stream": False}


@pytest.mark.parametrize("argv, message", [
    (["--extra-body", "[1, 2]"], "--extra-body: '[1, 2]' is not a JSON object"),
    (["--extra-body", "{oops"], "--extra-body: '{oops' is not a JSON object"),
    (["--temperature", "-1"], "--temperature: -1 is too small"),
    (["--max-tokens", "0"], "--max-tokens: 0 is too small"),
    (["--timeout", "0"], "--timeout: 0 is too small"),
    (["--invalid-retries", "-2"], "--invalid-retries: -2 is too small"),
])
def test_bad_flags_are_user_errors(argv, message):
    with pytest.raises(UserError, match="^" + message.replace("[", r"\[").replace("]", r"\]")
                       .replace("{", r"\{")):
        endpoint_options(parser().parse_args(argv))


def test_programmatic_options_are_checked_too(clean_env):
    with pytest.raises(UserError, match="--fallback"):
        settings_from_options("m", {"base_url": "http://h/v1", "fallback": "pass"})
    with pytest.raises(UserError, match="--parse"):
        settings_from_options("m", {"base_url": "http://h/v1", "parse": "fuzzy"})
    with pytest.raises(UserError, match="--max-retries"):
        settings_from_options("m", {"base_url": "http://h/v1", "max_retries": -1})
