"""``tcgtui bench``: play agent × opponent × language sweeps into the store, resumably."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from concurrent.futures import Executor
from typing import Any, Callable

from rich.console import Console

from tcgtui.flags import LANGS
from tcgtui import locales
from tcgtui.arena import add_game_arguments, build_game, game_from_args, given_params
from tcgtui.engine import registry
from tcgtui.engine.core import Game
from tcgtui.engine.registry import SCORE, WDL, GameSpec
from tcgtui.opponents.base import SeatContext
from tcgtui.context_check import check_contexts
from tcgtui.llm_options import add_endpoint_arguments, endpoint_options, player_keys
from tcgtui.opponents.registry import builder, make_agent
from tcgtui.opponents.spec import AgentSpec, SpecError, check_supported, expand_specs, grammars
from tcgtui.bench.plan import Cell, build_config, default_run_name, identity, open_run
from tcgtui.bench.lock import RunLock
from tcgtui.bench import cluster
from tcgtui.bench.pool import process_pool
from tcgtui.bench.progress import ProgressView, summary_table
from tcgtui.bench.one_game import BUDGET_ERROR
from tcgtui.bench.runner import Sweep, SweepResult, halt_after, run_sweep
from tcgtui.bench.stop import Stop
from tcgtui.bench.budget import check_prices, parse_budget
from tcgtui.console_text import clean, safe_params
from tcgtui.errors import UserError
from tcgtui.limits import MAX_CONCURRENCY, MAX_GAMES, MAX_PLANNED, check_at_most, check_name, check_seed
from tcgtui.store import Store, add_db_argument, open_store

PAPER_LADDER = "mc:1,2,5,10,100,1000"
NOT_BENCHABLE = ("human",)        # a person plays through ``tcgtui play``, not a sweep


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--agent", action="append", required=True, metavar="SPEC", help=text.t("cmd_bench.agent"))
    p.add_argument("--vs", default=None, metavar="SPECS", help=text.t("cmd_bench.vs", default=PAPER_LADDER))
    p.add_argument("--round-robin", action="store_true", help=text.t("cmd_bench.round_robin"))
    p.add_argument("--prompt-style", default=None, metavar="STYLE", help=text.t("cmd_bench.prompt_style"))
    LANGS.add(p, text.t("cmd_bench.lang"))
    p.add_argument("--games", type=int, default=600, metavar="N", help=text.t("cmd_bench.games"))
    p.add_argument("--concurrency", type=int, default=16, metavar="N", help=text.t("cmd_bench.concurrency"))
    p.add_argument("--run", metavar="NAME", help=text.t("cmd_bench.run"))
    add_db_argument(p, text)
    add_game_arguments(p, text)
    p.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_bench.seed"))
    p.add_argument("--log-prompts", action="store_true", help=text.t("cmd_bench.log_prompts"))
    p.add_argument("--retry-errored", action="store_true", help=text.t("cmd_bench.retry_errored"))
    p.add_argument("--timeout-per-game", type=float, default=None, metavar="S", help=text.t("cmd_bench.timeout"))
    p.add_argument("--ray", default=None, metavar="ADDRESS", help=text.t("cmd_bench.ray"))
    p.add_argument("--budget", action="append", metavar="LIMIT", help=text.t("cmd_bench.budget"))
    p.add_argument("--until", type=str, default=None, metavar="WIDTH", help=text.t("cmd_bench.until"))
    add_endpoint_arguments(p, text)
    add_round_arguments(p, text)


def add_round_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    """The flags games add through ``bench.rounds.FLAGS`` (Eleusis: ``--rules``, ``--seeds``)."""
    for spec in registry.games():
        for f in spec.bench.rounds.FLAGS if spec.bench.rounds else ():
            p.add_argument(f.flag, dest=f.dest, type=f.type, default=None, metavar=f.metavar, help=text.t(f.help_key))


def game_rounds(args: argparse.Namespace, spec: GameSpec, game: Game
                ) -> tuple[int, Callable[[int], tuple[Any, int]], dict[str, Any]] | None:
    """(games, index -> (game, deal index), what the run records) when the game's own bench flags ask for
    a protocol of several setups (``bench.rounds.plan``); None otherwise.  A flag of another game is refused."""
    hook = spec.bench.rounds
    mine = {f.dest for f in hook.FLAGS} if hook else set()
    for other in registry.games():
        for f in other.bench.rounds.FLAGS if other.bench.rounds else ():
            if f.dest not in mine and getattr(args, f.dest, None) is not None:
                raise UserError(locales.load().t("cmd_bench.errors.round_flag", flag=f.flag, game=spec.id))
    if hook is None:
        return None
    params = {**spec.info.resolve(given_params(args, spec))}
    try:
        found = hook.plan({d: getattr(args, d, None) for d in mine}, params)
    except ValueError as exc:          # a game's error names a locale sentence (key, params) when it can
        key = getattr(exc, "key", None)
        raise UserError(locales.load().t(key, **exc.params) if key else str(exc)) from None
    if found is None:
        return None
    count, round_of, described = found
    games: dict[str, Any] = {}

    def round_game(index: int) -> tuple[Any, int]:
        setup, deal = round_of(index)
        key = json.dumps(setup, sort_keys=True, default=str)
        if key not in games:
            games[key] = build_game(spec, setup)
        return games[key], deal
    return count, round_game, described


def solved_reason(spec: GameSpec) -> str:
    """The outcome reason of a solved game, where the game's bench hook names one (Eleusis); else ""."""
    return spec.bench.rounds.SOLVED if spec.bench.rounds else ""


def check_players(flag: str, values: list[str], game: GameSpec, bench: bool = True) -> list[str]:
    """The specs of ``values`` (``mc:1,2,5`` expands), each one a player this game can take."""
    text = locales.load()
    out: list[str] = []
    for value in values:
        try:
            specs: list[AgentSpec] = expand_specs(value)
            for spec in specs:
                check_supported(spec, game)
        except SpecError as exc:
            raise UserError(f"{flag}: {exc}") from None
        for spec in specs:
            if spec.kind in NOT_BENCHABLE and bench:
                raise UserError(text.t("cmd_bench.errors.human", flag=flag,
                                       expected=", ".join(g for g in grammars(game) if g != "human")))
            if builder(spec.kind) is None and spec.kind not in NOT_BENCHABLE:
                raise UserError(text.t("cmd_bench.errors.unavailable", flag=flag, spec=str(spec),
                                       kinds=", ".join(grammars(game))))
            if str(spec) not in out:
                out.append(str(spec))
    return out


def _positive(flag: str, value: float | None, what: str) -> None:
    if value is not None and not value > 0:
        raise UserError(locales.load().t("cmd_bench.errors.positive", flag=flag, value=value, what=what))


def agent_options(args: argparse.Namespace, executor: Executor) -> dict[str, Any]:
    """What every agent is built with: the process pool, prompt logging and the endpoint flags."""
    return {**endpoint_options(args), "executor": executor, "log_prompts": args.log_prompts}


async def _describe(specs: list[str], langs: list[str], game: Game, options: dict[str, Any],
                    game_options: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """What each player says of itself per language (its prompt version differs by language)."""
    players: dict[str, dict[str, dict[str, Any]]] = {}
    for spec in specs:
        agent = make_agent(spec, **options)
        try:
            players[spec] = {}
            for lang in langs:
                agent.start(SeatContext(0, 0, lang, game.public(), game_options))
                players[spec][lang] = agent.describe()
        finally:
            await agent.aclose()
    return players


async def _sweep(args: argparse.Namespace, store: Store, spec: GameSpec, game: Game, cells: list[Cell],
                 specs: list[str], ident: dict[str, Any], name: str, rounds: Any = None) -> SweepResult:
    # Two pools, each starting its workers only when first used: searches' batches, and cheap games
    # played whole, so a cheap game never waits in line behind a dear search's batches.  On a Ray
    # cluster (--ray) both go to the cluster.
    executor = cluster.executor(args.ray)
    game_pool = executor if args.ray else process_pool()
    try:
        options = agent_options(args, executor)
        langs = sorted({c.lang for c in cells})
        game_options = {"prompt_style": args.prompt_style} if args.prompt_style else {}
        players = await _describe(specs, langs, game, options, game_options)
        await check_contexts(game, specs, options, langs, game_options, args.seed or 0)
        settings = {"concurrency": args.concurrency, "timeout_per_game": args.timeout_per_game,
                    "log_prompts": args.log_prompts, "round_robin": args.round_robin, **game_options}
        config = build_config(ident, cells, players, args.games, settings)
        if args.budget_limit is not None:
            check_prices(args.budget_limit, players)
        with RunLock(store.path, name):
            return await _locked_sweep(args, store, spec, game, cells, name, config, options, game_options,
                                       game_pool, rounds[1] if rounds is not None else None)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        if game_pool is not executor:
            game_pool.shutdown(wait=True, cancel_futures=True)


def _until(given: str | None, spec: GameSpec) -> float | None:
    """``--until WIDTH``: a share strictly between 0 and 1 (0.1, or 10%), for a game whose result is a
    win or a right answer (the interval is of a share); one line otherwise."""
    if given is None:
        return None
    text = locales.load()
    try:
        width = float(given[:-1]) / 100 if given.endswith("%") else float(given)
    except ValueError:
        width = float("nan")
    if not 0 < width < 1:
        raise UserError(text.t("cmd_bench.errors.until", value=given))
    if spec.info.outcome != WDL and not spec.info.right_wrong:
        raise UserError(text.t("cmd_bench.errors.until_game", game=spec.id))
    return width


def kept_games(store: Store, name: str) -> int:
    """The run's games kept for good: every stored one but those a budget stopped (played again on a rerun)."""
    run = store.run(name)
    return store.conn.execute("SELECT count(*) FROM games WHERE run_id = ? AND error IS NOT ?",
                              (run.id, BUDGET_ERROR)).fetchone()[0] if run is not None else 0


def plan_cells(agents: list[str], opponents: list[str], langs: list[str], seats: int,
               round_robin: bool) -> list[Cell]:
    """Every agent against every opponent; a round-robin pairs every two agents once (seats
    alternate game by game, so each pair plays both orders); one-seat games have no opponent."""
    if seats == 1:
        return [Cell(a, "", lang) for a in agents for lang in langs]
    if round_robin:
        return [Cell(a, b, lang) for i, a in enumerate(agents) for b in agents[i + 1:] for lang in langs]
    return [Cell(a, o, lang) for a in agents for o in opponents for lang in langs]


def _languages(args: argparse.Namespace, game: Game) -> list[str]:
    text = locales.load()
    have = set(locales.available())
    for _, file in game.spec.files(game):          # a file's text (a pack's) bounds them too
        have &= set(file.languages)
    langs = [lang.strip() for lang in args.lang.split(",")]
    for lang in langs:
        if lang not in have:
            raise UserError(text.t("cmd_bench.errors.lang", lang=lang, game=game.name,
                                   langs=", ".join(sorted(have))))
    return list(dict.fromkeys(langs))


async def _locked_sweep(args: argparse.Namespace, store: Store, spec: GameSpec, game: Game, cells: list[Cell],
                        name: str, config: dict[str, Any], options: dict[str, Any],
                        game_options: dict[str, Any], game_pool: Executor, rounds: Any = None) -> SweepResult:
    """The sweep proper, while this process holds the run's lock."""
    text = locales.load()
    run = open_run(store, name, config)
    console = Console(stderr=True)
    console.print(text.t("cmd_bench.starting", **safe_params(run=name, db=str(store.path))), highlight=False)
    sweep = Sweep(run, game, cells, args.games, args.seed, args.concurrency, args.timeout_per_game,
                  args.retry_errored, args.log_prompts, game_options, spec.info.seats, rounds, game_pool,
                  solved_reason(spec), args.budget_limit, args.until, spec.info.right_wrong)
    view = ProgressView(console)
    try:
        result = await run_sweep(store, sweep, lambda spec: make_agent(spec, **options), view)
    finally:
        view.stop()
    return result


def run(args: argparse.Namespace) -> int:
    from tcgtui.bench.errors import error_report, sanitize     # the HTTP client: not for every command's start

    text = locales.load()
    spec, game = game_from_args(args)
    agents = check_players("--agent", args.agent, spec)
    if args.round_robin and args.vs is not None:
        raise UserError(text.t("cmd_bench.errors.round_robin_vs"))
    if args.round_robin and len(agents) < 2:
        raise UserError(text.t("cmd_bench.errors.round_robin_few"))
    ladder = PAPER_LADDER if args.vs is None else args.vs      # --vs '' names nobody: refused, not the ladder
    opponents = [] if args.round_robin or spec.info.seats == 1 else check_players("--vs", [ladder], spec)
    if args.prompt_style is not None and args.prompt_style not in spec.info.prompt_styles:
        raise UserError(text.t("cmd_bench.errors.prompt_style", style=args.prompt_style, game=spec.id,
                               styles=", ".join(spec.info.prompt_styles) or "-"))
    _positive("--games", args.games, text.t("cmd_bench.errors.what_games"))
    _positive("--concurrency", args.concurrency, text.t("cmd_bench.errors.what_concurrency"))
    _positive("--timeout-per-game", args.timeout_per_game, text.t("cmd_bench.errors.what_seconds"))
    check_at_most("--games", args.games, MAX_GAMES)
    check_at_most("--concurrency", args.concurrency, MAX_CONCURRENCY)
    check_seed("--seed", args.seed)
    check_name("--run", args.run)
    args.budget_limit = parse_budget(args.budget)
    args.until = _until(args.until, spec)
    langs = _languages(args, game)
    rounds = game_rounds(args, spec, game)
    if rounds is not None:
        args.games = rounds[0]
    keys = player_keys(list(dict.fromkeys(agents + opponents)), endpoint_options(args))
    agents = list(dict.fromkeys(keys[a] for a in agents))       # games are stored under the keys
    opponents = list(dict.fromkeys(keys[o] for o in opponents))
    cells = plan_cells(agents, opponents, langs, spec.info.seats, args.round_robin)
    check_at_most("--games", args.games * len(cells), MAX_PLANNED)     # the whole sweep, every cell
    ident = identity(game, args.seed)
    if rounds is not None:
        ident["rounds"] = rounds[2]
    if args.until is not None:           # a sequential run is another run: its stopping rule is part of it
        ident["until"] = args.until
    name = args.run or default_run_name(ident)
    with open_store(args.db, create=True) as store, Stop() as stop:
        try:
            result = asyncio.run(_sweep(args, store, spec, game, cells, list(dict.fromkeys(agents + opponents)),
                                        ident, name, rounds))
        except KeyboardInterrupt:
            run = store.run(name)
            kept = len(store.cell_games(run.id)) if run is not None else 0
            line = text.t("cmd_bench.stopped", signal=stop.name, count=kept, run=name, db=store.path)
            print(f"tcgtui bench: {line}", file=sys.stderr)
            return stop.status
        kept = kept_games(store, name) if result.over_budget else 0
    console = Console()
    if not console.is_terminal:          # piped: keep rows whole instead of wrapping at 80 columns
        console = Console(width=160)
    console.print(summary_table(result, text, score=spec.info.outcome == SCORE,
                                right_wrong=spec.info.right_wrong, solved=bool(solved_reason(spec)),
                                anytime=args.until is not None))
    err = Console(stderr=True)
    if not err.is_terminal:
        err = Console(stderr=True, width=160)
    if result.over_budget and kept < args.games * len(cells):      # a budget spent on the last game stops nothing
        budget = args.budget_limit
        key = "cmd_bench.over_budget" if budget.usd is not None or budget.priced else "cmd_bench.over_budget_tokens"
        line = text.t(key, usd=f"{budget.spent_usd:.4f}", tokens=budget.spent_tokens,
                      budget=budget.describe(), count=kept, run=name)
        print(clean(f"tcgtui bench: {line}"), file=sys.stderr)
    if result.halted is not None:
        err.print(text.t("cmd_bench.halted", count=halt_after(args.concurrency), error=sanitize(result.halted)),
                  highlight=False)
    for part in error_report(result.errors, text):      # reasons grouped, and what to do about each kind
        err.print(part, highlight=False)
    return 1 if result.halted is not None else 0
