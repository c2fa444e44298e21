"""models.toml: entries parsed and checked, every bad value one line naming file, entry and
setting; a key is never accepted in the file nor shown; llm:NAME resolves to the entry's
settings; a player's key says which entry and which settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tcgtui.errors import UserError
from tcgtui.opponents.llm.model_registry import load, parse
from tcgtui.errors import OptionError
from tcgtui.opponents.llm.agent import player_key, resolve
from tcgtui.opponents.llm.endpoint import EndpointSettings
from tcgtui.opponents.spec import parse_spec

FULL = """
[thinking]
base_url = "https://api.example.invalid/v1/"
model = "qwen3-8b"
api_key_env = "EXAMPLE_KEY"
temperature = 0.6
top_p = 0.95
max_tokens = 4096
stream = true
context_length = 32768
concurrency = 4
requests_per_minute = 120
extra_body = { chat_template_kwargs = { enable_thinking = true } }
prices = { input = 0.2, output = 0.8, reasoning = 0.8 }
facts = { family = "Qwen3", organisation = "Alibaba", parameters = 8.2, weights = "open" }

[local]
base_url = "http://127.0.0.1:8080/v1"
model = "smollm2"
"""


def test_a_full_entry_and_a_minimal_one_are_read() -> None:
    reg = parse(FULL, "m.toml")
    t = reg.get("thinking")
    assert t is not None and t.base_url == "https://api.example.invalid/v1" and t.model == "qwen3-8b"
    assert (t.temperature, t.top_p, t.max_tokens, t.stream, t.context_length) == (0.6, 0.95, 4096, True, 32768)
    assert (t.concurrency, t.requests_per_minute, t.api_key_env) == (4, 120.0, "EXAMPLE_KEY")
    assert t.extra_body == {"chat_template_kwargs": {"enable_thinking": True}}
    assert t.prices == {"input": 0.2, "output": 0.8, "reasoning": 0.8}
    assert t.facts == {"family": "Qwen3", "organisation": "Alibaba", "parameters_b": 8.2, "weights": "open"}
    assert parse('[g]\nbase_url = "http://h/v1"\nmodel = "g"\nfacts = { mode = "thinking" }\n', "m.toml").get(
        "g").facts["mode"] == "thinking"          # the card game's Figure 5 sets the two modes side by side
    local = reg.get("local")
    assert local is not None and local.api_key_env is None and local.prices == {} and not local.stream


@pytest.mark.parametrize("body, key, expected", [
    ('model = "m"', "base_url", "required"),
    ('base_url = "http://h/v1"', "model", "required"),
    ('base_url = "ftp://h/v1"\nmodel = "m"', "base_url", "http(s) URL"),
    ('base_url = "http://h/v1"\nmodel = ""', "model", "non-empty string"),
    ('base_url = "http://h/v1"\nmodel = "m"\ntemperature = 3', "temperature", "from 0.0 to 2.0"),
    ('base_url = "http://h/v1"\nmodel = "m"\ntemperature = "hot"', "temperature", "from 0.0 to 2.0"),
    ('base_url = "http://h/v1"\nmodel = "m"\ntop_p = 1.5', "top_p", "from 0.0 to 1.0"),
    ('base_url = "http://h/v1"\nmodel = "m"\nmax_tokens = 0', "max_tokens", "whole number"),
    ('base_url = "http://h/v1"\nmodel = "m"\nmax_tokens = 2.5', "max_tokens", "whole number"),
    ('base_url = "http://h/v1"\nmodel = "m"\ncontext_length = true', "context_length", "whole number"),
    ('base_url = "http://h/v1"\nmodel = "m"\nconcurrency = -1', "concurrency", "whole number"),
    ('base_url = "http://h/v1"\nmodel = "m"\nrequests_per_minute = 0', "requests_per_minute", "above 0"),
    ('base_url = "http://h/v1"\nmodel = "m"\nstream = "yes"', "stream", "true or false"),
    ('base_url = "http://h/v1"\nmodel = "m"\nextra_body = 3', "extra_body", "table"),
    ('base_url = "http://h/v1"\nmodel = "m"\nextra_body = { top_p = 7 }', "extra_body.top_p", "from 0.0 to 1.0"),
    ('base_url = "http://h/v1"\nmodel = "m"\nprices = { input = 1 }', "prices.output", "required"),
    ('base_url = "http://h/v1"\nmodel = "m"\nprices = { input = 1, output = -2 }', "prices.output", "at least 0"),
    ('base_url = "http://h/v1"\nmodel = "m"\nprices = { input = 1, output = 2, cached = 1 }', "prices.cached",
     "one of input, output, reasoning"),
    ('base_url = "http://h/v1"\nmodel = "m"\nfacts = { weights = "leaked" }', "facts.weights", "open or closed"),
    ('base_url = "http://h/v1"\nmodel = "m"\nfacts = { parameters = 0 }', "facts.parameters", "above 0"),
    ('base_url = "http://h/v1"\nmodel = "m"\nfacts = { mode = "deep" }', "facts.mode", "regular or thinking"),
    ('base_url = "http://h/v1"\nmodel = "m"\nfacts = { size = 7 }', "facts.size", "one of family"),
    ('base_url = "http://h/v1"\nmodel = "m"\ntemprature = 0.5', "temprature", "one of base_url"),
])
def test_every_bad_value_is_one_line_naming_file_entry_and_setting(body: str, key: str, expected: str) -> None:
    with pytest.raises(UserError) as err:
        parse(f"[e1]\n{body}\n", "conf/models.toml")
    line = str(err.value)
    assert "\n" not in line and line.startswith("conf/models.toml: entry e1, ")
    assert f", {key}: expected" in line and expected in line


def test_bad_names_and_shapes_and_not_toml() -> None:
    with pytest.raises(UserError, match=r"entry a:b, name: expected a name"):
        parse('["a:b"]\nbase_url = "http://h/v1"\nmodel = "m"\n', "m.toml")
    with pytest.raises(UserError, match=r"entry stray, stray: expected a table"):
        parse('stray = 3\n', "m.toml")
    with pytest.raises(UserError, match=r"^m.toml: not TOML \("):
        parse('[x\n', "m.toml")


SECRET = "sk-live-0123456789abcdef"


@pytest.mark.parametrize("body", [
    f'api_key = "{SECRET}"', f'token = "{SECRET}"', f'api_key_env = "{SECRET}"',
    f'extra_body = {{ api_key = "{SECRET}" }}',
])
def test_a_key_written_in_the_file_is_refused_and_never_shown(body: str) -> None:
    with pytest.raises(UserError) as err:
        parse(f'[e]\nbase_url = "http://h/v1"\nmodel = "m"\n{body}\n', "m.toml")
    assert SECRET not in str(err.value) and "\n" not in str(err.value)
    assert "environment variable" in str(err.value)


def test_credentials_in_the_url_are_refused_and_never_shown() -> None:
    for url in (f"https://user:{SECRET}@h.example/v1", f"https://h.example/v1?api_key={SECRET}"):
        with pytest.raises(UserError) as err:
            parse(f'[e]\nbase_url = "{url}"\nmodel = "m"\n', "m.toml")
        assert SECRET not in str(err.value) and "base_url" in str(err.value)


def test_the_file_is_found_by_flag_then_environment_then_config_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flag, env = tmp_path / "flag.toml", tmp_path / "env.toml"
    flag.write_text('[f]\nbase_url = "http://h/v1"\nmodel = "m"\n')
    env.write_text('[e]\nbase_url = "http://h/v1"\nmodel = "m"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("TCGTUI_MODELS", str(env))
    assert list(load(str(flag)).entries) == ["f"]
    assert list(load().entries) == ["e"]
    monkeypatch.delenv("TCGTUI_MODELS")
    assert load().entries == {}                       # no default file: an empty registry
    default = tmp_path / "xdg" / "tcgtui" / "models.toml"
    default.parent.mkdir(parents=True)
    default.write_text('[d]\nbase_url = "http://h/v1"\nmodel = "m"\n')
    assert list(load().entries) == ["d"]
    with pytest.raises(UserError, match=r"--models .*missing.toml"):
        load(str(tmp_path / "missing.toml"))


def test_llm_name_plays_the_entry_and_the_key_comes_only_from_its_variable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.toml"
    path.write_text(FULL)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-provider-key")
    monkeypatch.setenv("EXAMPLE_KEY", "sk-example")
    options = {"models": str(path), "base_url": "http://flag.invalid/v1", "temperature": 1.5, "max_retries": 0}
    settings, judge = resolve(parse_spec("llm:thinking"), options)
    assert judge is None and settings.entry == "thinking" and settings.model == "qwen3-8b"
    assert settings.base_url == "https://api.example.invalid/v1" and settings.temperature == 0.6   # the entry's
    assert settings.api_key == "sk-example" and settings.max_retries == 0      # harness flags still apply
    local, _ = resolve(parse_spec("llm:local"), options)
    assert local.api_key == "" and local.temperature is None        # no provider key sent to a local server
    plain, _ = resolve(parse_spec("llm:some-model"), options)        # not an entry: a model id with the flags
    assert plain.base_url == "http://flag.invalid/v1" and plain.api_key == "sk-provider-key"
    monkeypatch.delenv("EXAMPLE_KEY")
    with pytest.raises(OptionError, match=r"api_key_env names EXAMPLE_KEY, which is not set"):
        resolve(parse_spec("llm:thinking"), options)


def test_keys_split_settings_and_keep_the_plain_key_at_the_defaults(tmp_path: Path) -> None:
    base = EndpointSettings("m", "http://h/v1")
    assert player_key(base) == "llm:m"                                      # stores made before keep theirs
    assert player_key(EndpointSettings("m", "http://other/v1", timeout=5, max_retries=0, stream=True)) == "llm:m"
    warm = player_key(EndpointSettings("m", "http://h/v1", temperature=0.7))
    think = player_key(EndpointSettings("m", "http://h/v1", extra_body={"reasoning": {"effort": "high"}}))
    assert warm.startswith("llm:m@") and think.startswith("llm:m@") and warm != think
    named = player_key(EndpointSettings("m", "http://h/v1", entry="fast", concurrency=2, requests_per_minute=10))
    assert named == f"llm:fast@{base.settings_hash()}"     # limits and endpoint are not part of the hash
    path = tmp_path / "m.toml"
    path.write_text('[fast]\nbase_url = "http://h/v1"\nmodel = "m"\n')
    settings, _ = resolve(parse_spec(named), {"models": str(path)})    # a stored key builds its player again
    assert settings.entry == "fast"
    path.write_text('[fast]\nbase_url = "http://h/v1"\nmodel = "m"\ntemperature = 0.1\n')
    with pytest.raises(OptionError, match="settings of this player changed"):
        resolve(parse_spec(named), {"models": str(path)})


def test_a_judge_may_be_an_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tcgtui.opponents.llm.followup import judge_settings

    monkeypatch.setenv("JUDGE_KEY", "sk-judge")
    path = tmp_path / "m.toml"
    path.write_text('[j]\nbase_url = "https://judge.example.invalid/v1"\nmodel = "big"\napi_key_env = "JUDGE_KEY"\n'
                    'temperature = 0.9\n')
    judge = judge_settings({"judge": "llm:j", "models": str(path), "base_url": "http://h/v1"})
    assert judge is not None and judge.model == "big" and judge.api_key == "sk-judge"
    assert judge.base_url == "https://judge.example.invalid/v1" and judge.temperature == 0.0
    plain = judge_settings({"judge": "llm:m", "models": str(path), "base_url": "http://h/v1"})
    assert plain is not None and plain.base_url == "http://h/v1" and plain.model == "m"


@pytest.mark.parametrize("body", [
    f'extra_body = {{ x-api-key = "{SECRET}" }}', f'extra_body = {{ openai_api_key = "{SECRET}" }}',
    f'extra_body = {{ headers = {{ Authorization = "Bearer {SECRET}" }} }}',
    f'extra_body = {{ metadata = {{ note = "{SECRET}" }} }}',
    f'extra_body = {{ stop = ["a", "{SECRET}"] }}',
    'api_key_env = "hf_AbCdEfGhIjKlMnOpQrStUv12"', 'api_key_env = "gsk_abcdefgh12345678"',
    f'base_url = "https://h.example/v1?token={SECRET}"',
])
def test_a_key_at_any_depth_or_where_the_variable_goes_is_refused_and_never_shown(body: str) -> None:
    url = "" if body.startswith("base_url") else 'base_url = "http://h/v1"\n'
    with pytest.raises(UserError) as err:
        parse(f'[e]\n{url}model = "m"\n{body}\n', "m.toml")
    line = str(err.value)
    assert SECRET not in line and "AbCdEf" not in line and "abcdefgh" not in line and "\n" not in line


def test_request_fields_that_only_end_like_a_key_and_plain_variables_pass() -> None:
    entry = parse('[e]\nbase_url = "http://h/v1"\nmodel = "m"\napi_key_env = "OPENROUTER_API_KEY"\n'
                  'extra_body = { max_tokens = 5, prompt_cache_key = "run-1", top_k = 20, '
                  'chat_template_kwargs = { enable_thinking = false }, stop = ["</answer>"] }\n',
                  "m.toml").entries["e"]
    assert entry.api_key_env == "OPENROUTER_API_KEY" and entry.extra_body["prompt_cache_key"] == "run-1"


def test_a_toml_date_in_extra_body_is_one_line_naming_it() -> None:
    with pytest.raises(UserError, match=r"^m.toml: entry e, extra_body.when: expected JSON values only"):
        parse('[e]\nbase_url = "http://h/v1"\nmodel = "m"\nextra_body = { when = 1979-05-27T07:32:00Z }\n',
              "m.toml")


@pytest.mark.parametrize("extra", [
    {"x-api-key": SECRET}, {"openai_api_key": SECRET}, {"headers": {"Authorization": f"Bearer {SECRET}"}},
    {"a": [{"b": SECRET}]},
])
def test_the_extra_body_flag_refuses_a_key_at_any_depth_and_never_shows_it(extra: dict) -> None:
    import argparse
    import json

    from tcgtui.errors import OptionError
    from tcgtui.llm_options import endpoint_options
    with pytest.raises(OptionError) as err:
        endpoint_options(argparse.Namespace(extra_body=json.dumps(extra)))
    assert SECRET not in str(err.value) and str(err.value).startswith("--extra-body: extra_body")


def test_a_base_url_with_a_token_in_its_query_is_refused_and_never_shown() -> None:
    from tcgtui.errors import OptionError
    from tcgtui.opponents.llm.endpoint import resolve_base_url
    with pytest.raises(OptionError) as err:
        resolve_base_url(f"http://h/v1?token={SECRET}", {})
    assert SECRET not in str(err.value) and "--base-url" in str(err.value)
