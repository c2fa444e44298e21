"""The end of a bench says why games errored, grouped, and what to change when a rerun cannot help."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tcgtui import locales
from tcgtui.bench.errors import classify, error_report, group_errors, sanitize
from tcgtui.bench.plan import Cell, build_config, identity, open_run
from tcgtui.bench.runner import Sweep, run_sweep
from tcgtui.engine.tcg import TcgGame
from tcgtui.opponents.base import Agent, AgentError, Decision
from tcgtui.store import Store
from tests.llm_support import run

OVERFLOW = ("llm:tiny at http://127.0.0.1:1/v1: context overflow: the prompt (about 5000 estimated tokens) "
            "does not fit the server's context of 4096 tokens; try --history-tokens 2048 (now 12000) or give "
            "the server a bigger context")
DOWN = "EndpointDown: llm:tiny at http://127.0.0.1:1/v1: 7 failed requests (last: http_503); can be rerun"
AUTH = "EndpointDown: llm:x at https://api.example/v1: HTTP 401 (check the API key variable)"


def render(parts, lang="en") -> str:
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None)
    for part in parts:
        console.print(part, highlight=False)
    return out.getvalue()


def test_outside_text_is_sanitised():
    nasty = "HTTP 400: \x1b[31mred\x1b[0m [bold]loud[/bold]\r\nline\x07 two\u202eevil\x00"
    clean = sanitize(nasty)
    assert "\x1b" not in clean and "\x07" not in clean and "\u202e" not in clean and "\x00" not in clean
    assert "\n" not in clean and "\r" not in clean
    shown = render([clean])
    assert "[bold]loud[/bold]" in shown and "red" in shown and "line two" in shown
    assert len(sanitize("x" * 5000)) <= 600


def test_reasons_are_classified_by_what_fixes_them():
    assert classify(OVERFLOW) == "context"
    assert classify("HTTP 400: This model's maximum context length is 4096 tokens") == "context"
    assert classify(AUTH) == "auth"
    assert classify("EndpointDown: m at u: HTTP 404: model 'm' not found") == "not_found"
    assert classify("EndpointDown: m at u: HTTP 400: unknown field top_k") == "refused"
    assert classify(DOWN) == "rerun"
    assert classify("timeout: the game took over 60 s") == "rerun"
    assert classify(None) == "rerun"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_report_groups_reasons_and_suggests_a_rerun_only_when_it_helps(lang):
    text = locales.load(lang)
    shown = render(error_report([OVERFLOW] * 3 + [DOWN] * 2 + [AUTH], text))
    assert shown.count("context overflow") == 1 and shown.count("http_503") == 1   # grouped
    assert text.t("cmd_bench.errored.fix_context", count=3) in shown.replace("\n", "")
    assert text.t("cmd_bench.errored.fix_auth", count=1) in shown.replace("\n", "")
    assert text.t("cmd_bench.errored_hint", count=2) in shown.replace("\n", "")     # only the 503s
    assert [(g.count, g.kind) for g in group_errors([OVERFLOW] * 3 + [DOWN] * 2 + [AUTH])] == [
        (3, "context"), (2, "rerun"), (1, "auth")]
    similar = group_errors([OVERFLOW, OVERFLOW.replace("5000", "5012"), OVERFLOW.replace("4096", "8192")])
    assert [g.count for g in similar] == [3]                 # the same reason, whatever its numbers
    only_context = render(error_report([OVERFLOW], text))
    assert "--retry-errored" not in only_context.replace(text.t("cmd_bench.errored.fix_context", count=1), "")
    assert error_report([], text) == []


class Overflowing(Agent):
    spec = "overflowing"

    async def decide(self, obs, events) -> Decision:
        if obs.turn >= 3:
            raise AgentError(OVERFLOW + "\x1b[2J[red]")
        return Decision(obs.legal_moves[0])


def test_a_sweep_returns_the_stored_reasons_of_its_errored_games(tmp_path, community):
    from tcgtui.opponents.random_agent import RandomAgent
    game = TcgGame(community)
    cells = [Cell("overflowing", "random", "en")]
    with Store(tmp_path / "e.sqlite3") as store:
        config = build_config(identity(game, 0), cells, {}, 3, {})
        sweep = Sweep(open_run(store, "r", config), game, cells, 3, 0, concurrency=1)

        def factory(spec):
            agent = Overflowing() if spec == "overflowing" else RandomAgent()
            agent.spec = spec
            return agent
        result = run(run_sweep(store, sweep, factory))
        again = run(run_sweep(store, sweep, factory))         # resumed: the stored reasons still show
    assert result.errors and len(result.errors) == 3 and again.errors == result.errors
    shown = render(error_report(again.errors, locales.load("en")))
    assert "\x1b" not in shown and "[red]" in shown and "3" in shown


def test_bench_ends_with_the_reasons_and_no_rerun_advice_for_a_context_overflow(tmp_path, capsys):
    from tcgtui.cli import main
    from tcgtui.opponents.llm.testserver import ChatServer, Fault
    from tests.test_llm_server_replies import LLAMA_CPP_PYTHON
    with ChatServer(faults=lambda i, r: Fault("status", status=400, body=LLAMA_CPP_PYTHON)) as server:
        assert main(["bench", "--agent", "llm:fake", "--vs", "random", "--games", "3", "--db",
                     str(tmp_path / "b.sqlite3"), "--base-url", server.base_url, "--concurrency", "1"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    text = locales.load("en")
    assert "Why 3 games errored" in err and "context overflow" in err and "4096 tokens" in err
    assert " ".join(text.t("cmd_bench.errored.fix_context", count=3).split()) in err
    assert " ".join(text.t("cmd_bench.errored_hint", count=3).split()) not in err
