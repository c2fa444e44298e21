"""What docs/llm.md, docs/duel.md and docs/eleusis.md say is refused, and what a check can see, held
to the code: each sentence is read from the document and every example it names is tried."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tcgtui.cli import main
from tcgtui.errors import OptionError, UserError

DOCS = Path(__file__).resolve().parent.parent / "docs"
SECRET = "sk-live-0123456789abcdef"


def sentence(doc: str, start: str) -> str:
    """The paragraph of ``doc`` that starts with ``start`` (one line in the file, or up to a blank line)."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    at = text.index(start)
    end = text.find("\n\n", at)
    return text[at:end if end >= 0 else len(text)].replace("\n", " ")


def examples(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_llm_md_every_key_it_says_is_refused_is_refused():
    from tcgtui.opponents.llm.model_registry import parse
    said = sentence("llm.md", "Refused, in the file and in `--extra-body` and `--base-url` alike")
    fields = [e for e in examples(said) if e in ("x-api-key", "openai_api_key", "headers.Authorization")]
    assert len(fields) == 3, said
    for field in fields:
        path = field.split(".")
        body = f'"{path[-1]}" = "{SECRET}"'
        for key in reversed(path[:-1]):
            body = f'{key} = {{ {body} }}'
        with pytest.raises(UserError) as refused:
            parse(f'[e]\nbase_url = "http://h/v1"\nmodel = "m"\nextra_body = {{ {body} }}\n', "m.toml")
        assert SECRET not in str(refused.value)
    for prefix in ("sk-", "hf_", "gsk_", "Bearer "):
        assert f"`{prefix}...`" in said
        with pytest.raises(UserError):
            parse(f'[e]\nbase_url = "http://h/v1"\nmodel = "m"\nextra_body = {{ note = "{prefix}abcdefgh1234" }}\n',
                  "m.toml")
    for query in ("?token=", "?api_key="):
        assert f"`{query}`" in said
        with pytest.raises(UserError):
            parse(f'[e]\nbase_url = "http://h/v1{query}{SECRET}"\nmodel = "m"\n', "m.toml")
    for variable in ("hf_", "gsk_"):
        with pytest.raises(UserError):
            parse(f'[e]\nbase_url = "http://h/v1"\nmodel = "m"\napi_key_env = "{variable}AbCdEf123456789012"\n', "m.toml")
    assert "A TOML date or time in `extra_body` is refused too" in said
    with pytest.raises(UserError):
        parse('[e]\nbase_url = "http://h/v1"\nmodel = "m"\nextra_body = { d = 1979-05-27 }\n', "m.toml")
    from tcgtui.llm_options import endpoint_options
    import argparse
    with pytest.raises(OptionError):
        endpoint_options(argparse.Namespace(extra_body=json.dumps({"headers": {"Authorization": SECRET}})))


def test_llm_md_a_token_budget_is_whole():
    from tcgtui.bench.budget import parse_budget
    said = sentence("llm.md", "`--budget 2M-tokens` (`500k-tokens`) stops a run")
    assert "`1.5k-tokens` is 1500, `1.5-tokens` is refused" in said
    assert parse_budget(["1.5k-tokens"]).tokens == 1500
    with pytest.raises(UserError):
        parse_budget(["1.5-tokens"])
    assert "never exceeded by more than the requests already in flight" in said   # tests/test_hostile_surfaces.py


def test_duel_md_every_name_it_says_duel_import_refuses_is_refused(tmp_path, capsys):
    from tests.test_hostile_surfaces import _duel_logs, _rename
    said = sentence("duel.md", "The released logs are outside text")
    names = [e for e in examples(said) if e in ("human:alice", "human", "random", "mc:1000", "llm:x@hash")]
    assert len(names) == 5, said
    for i, name in enumerate(names):
        folder = _duel_logs(tmp_path / f"n{i}", _rename(name))
        assert main(["duel", "import", str(folder), "--db", str(tmp_path / "t.db")]) == 2
        assert "not a tcgtui player or a person" in capsys.readouterr().err
    for i, count in enumerate((10 ** 30, -5, 2 ** 63)):
        folder = _duel_logs(tmp_path / f"c{i}", lambda row: row["inventer_usage"].update(input_tokens=count))
        assert main(["duel", "import", str(folder), "--db", str(tmp_path / "t.db")]) == 2
        assert "expected a whole number from 0 to 1,000,000,000" in capsys.readouterr().err


def test_duel_md_what_a_check_can_see_of_proc():
    from tcgtui.sandbox import Sandbox
    said = sentence("duel.md", "| **signal** or **see** another process")
    assert "so `stat('/proc/N')` finds no process but its own" in said
    code = ("import os\ndef mystery(x):\n    return [p for p in range(1, 3000) if os.path.exists('/proc/%d' % p)]"
            " in ([], [1])\n")
    assert Sandbox("local").check_sync(code, "0").result == "true"


def test_eleusis_md_a_guess_computes_only_its_own_answers():
    import asyncio

    from tcgtui.engine.eleusis.cards import parse_card
    from tcgtui.games.eleusis.seed_judge import WALK_LIMITS, judge_code
    from tcgtui.sandbox import Sandbox
    said = sentence("eleusis.md", "- A guess in the seed's Python computes only its own answers")
    assert "in a process no rule's code reaches" in said
    guess = ("g = Card.from_canonical_card_data.__func__.__globals__\ng['_differs'] = lambda **where: None\n"
             "g['_report'] = lambda **fields: None\nreturn card.color == 'black'")
    verdict = asyncio.run(judge_code(Sandbox("local", WALK_LIMITS), "return card.color == 'red'", guess,
                                     [parse_card("5H")], simulations=2, turns=3))
    assert not verdict.equivalent


def test_duel_md_an_answer_computes_only_its_own_value():
    from tcgtui.sandbox import Sandbox
    said = sentence("duel.md", "**An answer computes only its own value.**")
    assert "never as the puzzle's `true`" in said
    sandbox = Sandbox("local")
    puzzle = "SEVEN = 7\ndef mystery(x):\n    return x == 'never'\n"
    for value in ("__import__('os')._exit(0)", "(setattr(mystery, '__code__', (lambda x: True).__code__), 4)[1]"):
        assert sandbox.check_sync(puzzle, value).result in ("false", "error")
    for value in ("range(3)", "float('nan')"):
        assert f"`{value}`" in said and sandbox.check_sync(puzzle, value).result == "error"
    assert sandbox.check_sync("SEVEN = 7\ndef mystery(x):\n    return x == 7\n", "SEVEN").result == "true"
