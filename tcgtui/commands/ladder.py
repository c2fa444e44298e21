"""``tcgtui ladder``: build or refresh a game's reference ladder and rate it on one scale.

The rungs play a round robin (every pair, seats alternating, as ``bench --round-robin`` plays
it, in one run of the store, so a second call resumes it and a rung added later plays only its
own pairs); the finished games are then rated once, Bradley–Terry on the Elo scale with the
``random`` rung at 0 (``tcgtui.report.scale``), and the scale is printed and, with ``--out``,
written as the file ``report --table scale`` places any player on.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shlex
from pathlib import Path

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.arena import add_game_arguments, flag_params, game_from_args
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.store import FINISHED, add_db_argument

RUNGS = "random,mc:1,2,5,10,100,1000,mcts:1000"
GAMES = 100


def rated(spec: registry.GameSpec) -> bool:
    """Whether a game's results rate on one scale: two seats, a win, draw or loss."""
    return spec.info.seats == 2 and spec.info.outcome == registry.WDL


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    games = [s for s in registry.games() if rated(s)]
    add_game_arguments(p, text, games)
    own = "; ".join(f"{s.id}: {','.join(s.bench.rungs)}" for s in games if s.bench.rungs)
    p.add_argument("--rungs", default=None, metavar="SPECS", help=text.t("cmd_ladder.rungs", default=RUNGS, own=own))
    p.add_argument("--games", type=int, default=GAMES, metavar="N", help=text.t("cmd_ladder.games", default=GAMES))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_ladder.seed"))
    p.add_argument("--run", default=None, metavar="NAME", help=text.t("cmd_ladder.run"))
    p.add_argument("--out", default=None, metavar="FILE", help=text.t("cmd_ladder.out"))
    add_db_argument(p, text)


def _bench(args: argparse.Namespace, rungs: list[str], name: str, text: locales.Catalog) -> int:
    """The round robin, played (or resumed) by ``tcgtui bench`` itself."""
    # start-up time: bench's module (the sweep runner) loads only when a ladder is played
    from tcgtui.commands import bench

    parser = argparse.ArgumentParser(prog="tcgtui ladder", add_help=False)
    bench.add_arguments(parser, text)
    argv = ["--round-robin", "--game", args.game, "--games", str(args.games), "--seed", str(args.seed), "--run", name]
    argv += ["--db", str(args.db)] if args.db else []
    argv += _game_flags(args)
    argv += ["--agent", ",".join(rungs)]  # bench expands mc:1,2,5 to mc:1, mc:2, mc:5
    return bench.run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    spec, _ = game_from_args(args)
    if not rated(spec):
        raise UserError(
            text.t("cmd_ladder.not_rated", game=spec.id, games=", ".join(s.id for s in registry.games() if rated(s)))
        )
    if args.rungs is None:  # the search players every game has, then the game's own (the scale it ships)
        args.rungs = ",".join((RUNGS, *spec.bench.rungs))
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    if "random" not in rungs:
        raise UserError(text.t("cmd_ladder.no_zero", rungs=clean(args.rungs)))
    name = args.run or f"ladder-{spec.id}-seed{args.seed}"
    try:
        status = _bench(args, rungs, name, text)
    except UserError as exc:  # bench names its own flag: the rungs are this command's
        said = str(exc)
        raise UserError("--rungs:" + said.removeprefix("--agent:") if said.startswith("--agent:") else said) from None
    if status != 0:
        return status
    # start-up time: the fit and its table only once the games are in
    from rich.console import Console
    from rich.table import Table

    from tcgtui.report import scale as sc
    from tcgtui.store import open_store

    with open_store(args.db, create=False) as store:
        run = store.run(name)
        rows = store.games("run_id = ? AND status = ?", (run.id, FINISHED)) if run is not None else []
    results, setups = [], set()
    for g in rows:
        if g.reason == "cancelled" or (g.game_params or {}).get("budget_cut"):
            continue
        a, b = g.seats
        score = 0.5 if g.winner is None else 1.0 if g.winner == 0 else 0.0
        results.append((a, b, score))
        setups.add(repr(sorted(sc.setup_of(g.game_params or {}).items())))
    if len(setups) != 1 or "random" not in {p for r in results for p in r[:2]}:
        raise UserError(text.t("cmd_ladder.no_games", run=name, rungs=", ".join(rungs)))
    command = "tcgtui ladder " + " ".join(shlex.quote(a) for a in _argv(args))
    made = dt.date.today().isoformat()
    scale = sc.build(results, spec.id, sc.setup_of(rows[0].game_params or {}), command=command, made=made)
    table = Table(title=clean(text.t("cmd_ladder.title", game=spec.id, games=len(results), zero=scale.zero)))
    for column in ("rung", "rating", "ci", "games"):
        table.add_column(text.t(f"cmd_ladder.col_{column}"), justify="left" if column == "rung" else "right")
    for rung in sorted(scale.ratings, key=lambda p: (-scale.ratings[p], p)):
        low, high = scale.ci[rung]
        table.add_row(clean(rung), f"{scale.ratings[rung]:.1f}", f"[{low:.1f}, {high:.1f}]", str(scale.games[rung]))
    Console().print(table)
    if args.out:
        # start-up time: only when a file is written
        from tcgtui.userfiles import write_atomic

        path = write_atomic("--out", Path(args.out), [scale.to_json()])
        print(clean(text.t("cmd_ladder.written", path=str(path))))
    return 0


def _game_flags(args: argparse.Namespace) -> list[str]:
    """The game's parameters as given (``--param`` and each parameter's own flag)."""
    out = [f for param in args.param for f in ("--param", param)]
    for param in flag_params([s for s in registry.games() if s.id == args.game]):
        value = getattr(args, param.name, None)
        if value is not None:
            out += [param.flag, str(value)]
    return out


def _argv(args: argparse.Namespace) -> list[str]:
    """The ladder's own settings, as the scale file records the command that made it."""
    return [
        "--game",
        args.game,
        "--rungs",
        args.rungs,
        "--games",
        str(args.games),
        "--seed",
        str(args.seed),
        *_game_flags(args),
    ]
