"""``tcgtui analyze``: a position's legal moves, winning moves and forced blocks, and what a player picks.

For games that provide an analysis (the grid games): ``--position`` sets the
board, ``--agent SPEC`` asks any player for its move there, ``--json`` prints
the keys ``legal``, ``wins``, ``blocks`` and ``move``.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from tcgtui import locales
from tcgtui.arena import add_game_arguments, game_from_args
from tcgtui.engine import registry
from tcgtui.errors import UserError
from tcgtui.limits import check_seed


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    add_game_arguments(p, text, [s for s in registry.games() if s.tools.analyze])
    p.add_argument("--agent", default=None, metavar="SPEC", help=text.t("cmd_analyze.agent"))
    p.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_analyze.seed"))
    p.add_argument("--json", action="store_true", help=text.t("cmd_analyze.json"))


async def _pick(spec: str, game: object, state: object, seed: int) -> str:
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


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    check_seed("--seed", args.seed)
    spec, game = game_from_args(args)
    analyze = spec.tools.analyze
    if analyze is None:
        with_one = ", ".join(s.id for s in registry.games() if s.tools.analyze) or "-"
        raise UserError(text.t("cmd_analyze.unsupported", game=spec.id, games=with_one))
    state = game.new_state(args.seed)
    result = dict(analyze(state))
    if args.agent:
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
