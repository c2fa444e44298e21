"""Command-line options shared by ``play`` and ``watch``, and their checks.

Both commands build their ``Settings`` (``tcgtui.play_config``) here, so a new option (a ``--db`` store,
say) is added in one place.  The endpoint flags of ``llm:`` players are the
LLM player's (``tcgtui.llm_options``), shared with ``bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets

from typing import Any

from tcgtui.flags import GAME, LANG, PARAM
from tcgtui import locales
from tcgtui.config import default_game, saved_language
from tcgtui.engine import registry
from tcgtui.engine.protocols import TCGTUI
from tcgtui.context_check import check_contexts
from tcgtui.arena import add_param_flags, game_spec, given_params, load_resources
from tcgtui.llm_options import endpoint_options, player_keys
from tcgtui.opponents.registry import runnable
from tcgtui.opponents.spec import SpecError
from tcgtui.play_config import Settings
from tcgtui import rtl
from tcgtui.errors import UserError
from tcgtui.limits import check_seed
from tcgtui.tui import games as game_screens


def add_display_arguments(p: argparse.ArgumentParser, text: locales.Catalog, prefix: str) -> None:
    """--game, --param, the games' parameter flags (arena.add_param_flags), --lang, --seed, --rtl, --pause;
    help texts under ``<prefix>.*`` (``cli.game``/``cli.param`` for the two every game shares)."""
    GAME.add(p, text.t("cli.game", games=", ".join(playable_games()), default=default_game()))
    PARAM.add(p, text.t("cli.param"))
    LANG.add(p, text.t(f"{prefix}.lang"), default=saved_language())      # the language the person chose last
    add_param_flags(p, text)
    p.add_argument("--seed", type=int, default=None, metavar="N", help=text.t(f"{prefix}.seed"))
    p.add_argument("--rtl", default=None, metavar="MODE", help=text.t(f"{prefix}.rtl"))
    p.add_argument("--pause", type=float, default=1.0, metavar="SECONDS", help=text.t(f"{prefix}.pause"))


def playable_games() -> list[str]:
    """The ids --game takes: every registered game but a variant (reached by its game's flag, as --bank)."""
    return [g.id for g in registry.games() if g.info.variant_of is None]


def own_players() -> str:
    """The players games bring of their own (their references), game by game, for the help:
    ``connect4: ab:N; deck: oracle:N``.  A seed protocol's own (rollout:K) are --protocol seed's."""
    own = {g.id: [f"{r.name}:N" if r.takes_arg else r.name for r in g.references if r.protocol in ("", TCGTUI)]
           for g in registry.games() if g.info.variant_of is None}
    return "; ".join(f"{game}: {', '.join(names)}" for game, names in own.items() if names)


def check_spec(flag: str, value: str, game_id: str) -> str:
    """A player spec that parses, can play this game and whose kind this install can build."""
    try:
        return runnable(value, game_spec(game_id))
    except SpecError as exc:
        raise UserError(f"{flag}: {exc}") from None


def check_game(args: argparse.Namespace) -> str:
    """--game: a registered game that has a screen."""
    spec = game_spec(args.game)            # an unknown id: "--game: 'x' is not a game; expected one of ..."
    if not game_screens.has_screen(spec.id):
        ids = [s.id for s in registry.games() if game_screens.has_screen(s.id)]
        raise UserError(locales.load().t("humans.no_screen", game=spec.id, games=", ".join(ids)))
    return str(args.game)


def settings_from(args: argparse.Namespace, seats: tuple[str, ...], handle: str = "",
                  loaded: dict[str, Any] | None = None) -> Settings:
    """Settings from the flags; ``loaded``: parameters the caller has loaded already (a resumed game's pack)."""
    if args.lang not in locales.available():
        raise UserError(f"--lang: {args.lang!r} is not a language; expected one of {', '.join(locales.available())}")
    check_seed("--seed", args.seed)
    if not 0 <= args.pause <= 60:
        raise UserError(f"--pause: {args.pause:g} is out of range; expected seconds from 0 to 60")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    spec = registry.get(check_game(args))
    given = given_params(args, spec)              # parsed once; kept as given for --resume to load again
    params = load_resources(spec, {**given, **(loaded or {})})       # loaded once
    try:
        game = spec.make(params)                  # built once; a deck that does not fit the pack: one line, now
    except ValueError as exc:
        raise UserError(f"--game {spec.id}: {exc}") from None
    options = endpoint_options(args)
    models = [s for s in seats if s.startswith("llm:")]
    if models:          # a model is seated, and its games stored, under its key (entry or model, and settings)
        keys = player_keys(models, options)
        seats = tuple(keys.get(s, s) for s in seats)
        # a model's context too small for the game: one line, before the screen opens
        asyncio.run(check_contexts(game, seats, options, [args.lang], seed=seed))
    return Settings(seats=seats, game_id=spec.id, params=params, lang=args.lang,
                    rtl_mode=rtl.resolve_mode(args.rtl), seed=seed, handle=handle, pause=args.pause,
                    agent_options=options, game=game, given=given)
