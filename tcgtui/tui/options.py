"""Command-line options shared by ``play`` and ``watch``, and their checks.

Both commands build a ``Settings`` here, so a new option (a ``--db`` store,
say) is added in one place.  The endpoint flags of ``llm:`` players are the
LLM player's (``tcgtui.llm_options``), shared with ``bench``.
"""

from __future__ import annotations

import argparse
import secrets

from tcgtui import locales
from tcgtui.engine.tcg import Pack
from tcgtui.llm_options import endpoint_options
from tcgtui.opponents.registry import BUILDERS
from tcgtui.opponents.spec import SpecError, parse_spec
from tcgtui import rtl
from tcgtui.errors import UserError
from tcgtui.packs import DEFAULT_PACK, load_pack
from tcgtui.tui.app import HUMAN, Settings


def add_display_arguments(p: argparse.ArgumentParser, text: locales.Catalog, prefix: str) -> None:
    """--lang, --pack, --seed, --rtl, --pause; help texts under ``<prefix>.*``."""
    p.add_argument("--lang", default=locales.DEFAULT, metavar="LANG", help=text.t(f"{prefix}.lang"))
    p.add_argument("--pack", default=DEFAULT_PACK, metavar="DIR", help=text.t(f"{prefix}.pack"))
    p.add_argument("--seed", type=int, default=None, metavar="N", help=text.t(f"{prefix}.seed"))
    p.add_argument("--rtl", default=None, metavar="MODE", help=text.t(f"{prefix}.rtl"))
    p.add_argument("--pause", type=float, default=1.0, metavar="SECONDS", help=text.t(f"{prefix}.pause"))


def check_spec(flag: str, value: str) -> str:
    """A player spec that parses and whose kind this install can build."""
    try:
        spec = parse_spec(value)
    except SpecError as exc:
        raise UserError(f"{flag}: {exc}") from None
    if spec.kind == HUMAN or spec.kind not in BUILDERS:
        kinds = ", ".join(k for k in BUILDERS)
        raise UserError(f"{flag}: {value!r} is not a player this install can run; available kinds: {kinds}")
    return str(spec)


def settings_from(args: argparse.Namespace, seats: tuple[str, str], handle: str = "",
                  pack: Pack | None = None) -> Settings:
    """Settings from the flags; ``pack``, when the caller has loaded it already, instead of --pack."""
    if args.lang not in locales.available():
        raise UserError(f"--lang: {args.lang!r} is not a language; expected one of {', '.join(locales.available())}")
    if args.seed is not None and args.seed < 0:
        raise UserError(f"--seed: {args.seed} is negative; expected 0 or more")
    if not 0 <= args.pause <= 60:
        raise UserError(f"--pause: {args.pause:g} is out of range; expected seconds from 0 to 60")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    return Settings(pack=pack or load_pack(args.pack), seats=seats, lang=args.lang, rtl_mode=rtl.resolve_mode(args.rtl),
                    seed=seed, handle=handle, pause=args.pause, agent_options=endpoint_options(args))
