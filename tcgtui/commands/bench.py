"""``tcgtui bench``: play agent × opponent × language sweeps into the store, resumably."""

from __future__ import annotations

import argparse
import asyncio
from concurrent.futures import Executor
from typing import Any

from rich.console import Console

from tcgtui import locales
from tcgtui.engine.tcg import Pack, TcgGame
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.llm.cli_options import add_endpoint_arguments, endpoint_options
from tcgtui.opponents.registry import BUILDERS, make_agent
from tcgtui.opponents.spec import AgentSpec, SpecError, expand_specs
from tcgtui.bench.plan import Cell, build_config, default_run_name, identity, open_run
from tcgtui.bench.lock import RunLock
from tcgtui.bench.pool import process_pool
from tcgtui.bench.progress import ProgressView, summary_table
from tcgtui.bench.runner import Sweep, SweepResult, halt_after, run_sweep
from tcgtui.console_text import clean, safe_params
from tcgtui.errors import UserError
from tcgtui.limits import MAX_CONCURRENCY, MAX_GAMES, MAX_PLANNED, check_at_most, check_seed
from tcgtui.packs import DEFAULT_PACK, load_pack
from tcgtui.store import Store, add_db_argument, open_store

PAPER_LADDER = "mc:1,2,5,10,100,1000"
NOT_BENCHABLE = ("human",)        # a person plays through ``tcgtui play``, not a sweep


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--agent", action="append", required=True, metavar="SPEC", help=text.t("cmd_bench.agent"))
    p.add_argument("--vs", default=PAPER_LADDER, metavar="SPECS", help=text.t("cmd_bench.vs", default=PAPER_LADDER))
    p.add_argument("--lang", default="en", metavar="LANGS", help=text.t("cmd_bench.lang"))
    p.add_argument("--games", type=int, default=600, metavar="N", help=text.t("cmd_bench.games"))
    p.add_argument("--concurrency", type=int, default=16, metavar="N", help=text.t("cmd_bench.concurrency"))
    p.add_argument("--run", metavar="NAME", help=text.t("cmd_bench.run"))
    add_db_argument(p, text)
    p.add_argument("--pack", default=DEFAULT_PACK, metavar="DIR", help=text.t("cmd_bench.pack"))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_bench.seed"))
    p.add_argument("--log-prompts", action="store_true", help=text.t("cmd_bench.log_prompts"))
    p.add_argument("--retry-errored", action="store_true", help=text.t("cmd_bench.retry_errored"))
    p.add_argument("--timeout-per-game", type=float, default=None, metavar="S", help=text.t("cmd_bench.timeout"))
    add_endpoint_arguments(p, text)


def _specs(flag: str, values: list[str]) -> list[str]:
    text = locales.load()
    out: list[str] = []
    for value in values:
        try:
            specs: list[AgentSpec] = expand_specs(value)
        except SpecError as exc:
            raise UserError(f"{flag}: {exc}") from None
        for spec in specs:
            if spec.kind in NOT_BENCHABLE:
                raise UserError(text.t("cmd_bench.errors.human", flag=flag))
            if spec.kind not in BUILDERS:
                raise UserError(text.t("cmd_bench.errors.unavailable", flag=flag, spec=str(spec),
                                       kinds=", ".join(sorted(BUILDERS))))
            if str(spec) not in out:
                out.append(str(spec))
    return out


def _positive(flag: str, value: float | None, what: str) -> None:
    if value is not None and not value > 0:
        raise UserError(locales.load().t("cmd_bench.errors.positive", flag=flag, value=value, what=what))


def agent_options(args: argparse.Namespace, executor: Executor) -> dict[str, Any]:
    """What every agent is built with: the process pool, prompt logging and the endpoint flags."""
    return {**endpoint_options(args), "executor": executor, "log_prompts": args.log_prompts}


async def _describe(specs: list[str], langs: list[str], pack: Pack,
                    options: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """What each player says of itself per language (its prompt version differs by language)."""
    players: dict[str, dict[str, dict[str, Any]]] = {}
    for spec in specs:
        agent = make_agent(spec, **options)
        try:
            players[spec] = {}
            for lang in langs:
                agent.start(SeatContext(0, 0, pack, lang))
                players[spec][lang] = agent.describe()
        finally:
            await agent.aclose()
    return players


async def _sweep(args: argparse.Namespace, store: Store, game: TcgGame, cells: list[Cell],
                 specs: list[str]) -> SweepResult:
    executor = process_pool()
    try:
        options = agent_options(args, executor)
        langs = sorted({c.lang for c in cells})
        players = await _describe(specs, langs, game.pack, options)
        ident = identity(game, args.seed)
        settings = {"concurrency": args.concurrency, "timeout_per_game": args.timeout_per_game,
                    "log_prompts": args.log_prompts}
        config = build_config(ident, cells, players, args.games, settings)
        name = args.run or default_run_name(ident)
        with RunLock(store.path, name):
            return await _locked_sweep(args, store, game, cells, name, config, options)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


async def _locked_sweep(args: argparse.Namespace, store: Store, game: TcgGame, cells: list[Cell], name: str,
                        config: dict[str, Any], options: dict[str, Any]) -> SweepResult:
    """The sweep proper, while this process holds the run's lock."""
    text = locales.load()
    run = open_run(store, name, config)
    console = Console(stderr=True)
    console.print(text.t("cmd_bench.starting", **safe_params(run=name, db=str(store.path))), highlight=False)
    sweep = Sweep(run, game, cells, args.games, args.seed, args.concurrency, args.timeout_per_game,
                  args.retry_errored, args.log_prompts)
    view = ProgressView(console)
    try:
        result = await run_sweep(store, sweep, lambda spec: make_agent(spec, **options), view)
    finally:
        view.stop()
    return result


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    agents = _specs("--agent", args.agent)
    opponents = _specs("--vs", [args.vs])
    _positive("--games", args.games, text.t("cmd_bench.errors.what_games"))
    _positive("--concurrency", args.concurrency, text.t("cmd_bench.errors.what_concurrency"))
    _positive("--timeout-per-game", args.timeout_per_game, text.t("cmd_bench.errors.what_seconds"))
    check_at_most("--games", args.games, MAX_GAMES)
    check_at_most("--concurrency", args.concurrency, MAX_CONCURRENCY)
    check_seed("--seed", args.seed)
    pack = load_pack(args.pack)
    langs = [lang.strip() for lang in args.lang.split(",")]
    for lang in langs:
        if lang not in locales.available() or lang not in pack.languages:
            raise UserError(text.t("cmd_bench.errors.lang", lang=lang, pack=pack.id,
                                   langs=", ".join(sorted(set(locales.available()) & set(pack.languages)))))
    langs = list(dict.fromkeys(langs))
    cells = [Cell(a, o, lang) for a in agents for o in opponents for lang in langs]
    check_at_most("--games", args.games * len(cells), MAX_PLANNED)     # the whole sweep, every cell
    with open_store(args.db, create=True) as store:
        result = asyncio.run(_sweep(args, store, TcgGame(pack), cells, list(dict.fromkeys(agents + opponents))))
    console = Console()
    if not console.is_terminal:          # piped: keep rows whole instead of wrapping at 80 columns
        console = Console(width=160)
    console.print(summary_table(result, text))
    errored = sum(t.errored for t in result.tallies.values())
    if result.halted is not None:
        Console(stderr=True).print(text.t("cmd_bench.halted", count=halt_after(args.concurrency),
                                          error=clean(result.halted)), highlight=False, markup=False)
        return 1
    if errored:
        Console(stderr=True).print(text.t("cmd_bench.errored_hint", count=errored), highlight=False)
    return 0
