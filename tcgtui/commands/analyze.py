"""``tcgtui analyze``: a position's legal moves, winning moves and forced blocks, and what a player picks;
with ``--run``, the quality of every stored decision of a run.

For games that provide an analysis (the grid games): ``--position`` sets the
board, ``--agent SPEC`` asks any player for its move there, ``--json`` prints
the keys ``legal``, ``wins``, ``blocks`` and ``move``.  ``--run RUN`` instead
values every legal move of every decision of the run's finished games that has
no value yet from the evaluator (``--evaluator``, else the game's own) and
stores them (``tcgtui.quality``), for ``tcgtui report --table quality``.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from tcgtui import locales
from tcgtui.arena import add_game_arguments, game_from_args
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.limits import check_count, check_name, check_seed
from tcgtui.store import add_db_argument

MAX_WORKERS = 64


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    add_game_arguments(p, text, [s for s in registry.games() if s.tools.analyze])
    p.add_argument("--agent", default=None, metavar="SPEC", help=text.t("cmd_analyze.agent"))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_analyze.seed"))
    p.add_argument("--json", action="store_true", help=text.t("cmd_analyze.json"))
    p.add_argument("--run", default=None, metavar="RUN", help=text.t("cmd_analyze.run"))
    p.add_argument("--game-id", default=None, metavar="ID", help=text.t("cmd_analyze.game_id"))
    p.add_argument("--evaluator", default=None, metavar="SPEC", help=text.t("cmd_analyze.evaluator"))
    p.add_argument("--player", default=None, metavar="NAME", help=text.t("cmd_analyze.player"))
    p.add_argument("--workers", type=int, default=1, metavar="N", help=text.t("cmd_analyze.workers"))
    p.add_argument("--ray", default=None, metavar="ADDRESS", help=text.t("cmd_analyze.ray"))
    add_db_argument(p, text)


async def _pick(spec: str, game: object, state: object, seed: int) -> str:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.opponents.base import SeatContext
    from tcgtui.opponents.registry import make_agent
    agent = make_agent(spec)
    try:
        seat = state.current_player  # type: ignore[attr-defined]
        agent.start(SeatContext(seat, seed, "en", game.public()))
        obs = state.observation(seat)  # type: ignore[attr-defined]
        agent.begin_turn(obs.turn)
        decision = await agent.decide(obs, [])
        return decision.move
    finally:
        await agent.aclose()


def _judge_run(args: argparse.Namespace, text: locales.Catalog) -> int:
    """``--run``: value what is missing, with a progress bar on a terminal and a line when done."""
    check_count("--workers", args.workers, 1, MAX_WORKERS)
    check_name("--run", args.run)
    check_name("--player", args.player)
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from tcgtui.bench.cluster import RayExecutor
    from tcgtui.console_text import clean
    from tcgtui.quality.compute import compute, plan
    from tcgtui.store import open_store
    with open_store(args.db, create=False) as store:
        todo = plan(store, args.run, args.game_id, args.evaluator, args.player)
        bar = Progress(TextColumn(clean(text.t("cmd_analyze.progress"))), BarColumn(), MofNCompleteColumn(),
                       TimeRemainingColumn(), console=Console(stderr=True),
                       disable=not Console(stderr=True).is_terminal)
        with bar:
            task = bar.add_task("", total=len(todo.jobs))
            added = compute(store, todo.jobs, args.workers, lambda done: bar.update(task, completed=done),
                            cluster=(lambda: RayExecutor(args.ray)) if args.ray else None)
    keys = ", ".join(sorted(todo.keys))
    print(clean(text.t("cmd_analyze.done", run=args.run, games=todo.games, added=added, before=todo.judged,
                       evaluators=keys)))
    if todo.unjudged:
        print(clean(text.t("cmd_analyze.unjudged", count=todo.unjudged)))
    return 0


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    if args.run is not None:
        return _judge_run(args, text)
    if args.game_id is not None:
        raise UserError(text.t("cmd_analyze.needs_run"))
    check_seed("--seed", args.seed)
    spec, game = game_from_args(args)
    analyze = spec.tools.analyze
    if analyze is None:
        with_one = ", ".join(s.id for s in registry.games() if s.tools.analyze) or "-"
        raise UserError(text.t("cmd_analyze.unsupported", game=spec.id, games=with_one))
    state = game.new_state(args.seed)
    result = dict(analyze(state))
    if args.agent:
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.commands.bench import check_players
        check_players("--agent", [args.agent], spec, bench=False)
        if state.is_terminal():
            raise UserError(text.t("cmd_analyze.over"))
        result["move"] = asyncio.run(_pick(args.agent, game, state, args.seed))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    for key in ("legal", "wins", "blocks", "move"):
        if key in result:
            value = result[key]
            shown = json.dumps(value, ensure_ascii=False) if isinstance(value, list) else str(value)
            print(f"{text.t(f'cmd_analyze.{key}')}: {shown}")
    return 0
