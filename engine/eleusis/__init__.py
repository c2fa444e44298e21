"""Eleusis: find a hidden card rule by experiment, and know when you know enough to guess.

One seat (the scientist), a score outcome.  A move is a card of the hand, with
the turn's tentative rule, confidence and guess when the player gives them
(``moves.py``).  Rules and guesses are written in a small safe subset of Python
(``rulelang.py``) and judged by simulation (``judge.py``); the 26 rules of the
benchmark ship in ``rules.toml``.  Its text lives in ``locales/<lang>/eleusis/``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.eleusis import bench, fake_replies
from tcgtui.engine.eleusis.game import DRAWN, FORMATS, EleusisGame, rule_source
from tcgtui.engine.eleusis.library import COUNT
from tcgtui.engine.eleusis.narrator import EleusisNarrator, rules_text
from tcgtui.engine.eleusis.seed_deals import BASE
from tcgtui.engine.eleusis.state import MAX_TURNS, TURNS_HIGH
from tcgtui.engine.protocols import PROTOCOL, SEED, UPSTREAM
from tcgtui.engine.registry import (
    AGENT,
    LIST,
    SCORE,
    BenchHooks,
    FakeModel,
    GameInfo,
    GameSpec,
    Param,
    RefereeHooks,
    Reference,
    ReportHooks,
    ToolHooks,
    register,
)

__all__ = ["EleusisGame", "EleusisNarrator", "rules_text"]


def _prompter(game: EleusisGame, catalog: Any, seat: int = 0, style: str | None = None) -> Any:
    from tcgtui.engine.eleusis.prompter import EleusisPrompter

    if getattr(game, "protocol", None) == SEED:  # the seed's own prompt, from the user's checkout
        from tcgtui.engine.eleusis.seed_compile import compiler_for
        from tcgtui.engine.eleusis.seed_prompter import REPOSITORY, SeedPrompter, WordingError

        wording = getattr(game, "seed_wording", None)
        if wording is None:
            raise WordingError(catalog.t("eleusis.games.seed_upstream_needed", repository=REPOSITORY))
        return SeedPrompter(game, catalog, wording, partial(compiler_for, getattr(game, "compile_source", None)))
    return EleusisPrompter(game, catalog, seat, style)


def _sections(games: Any, catalog: Any = None) -> Any:
    from tcgtui.engine.eleusis.analysis import sections

    return sections(games)


def _seed_tables() -> tuple:
    from tcgtui.engine.eleusis.seed_tables import tables

    return tables()


def _unrecorded(params: dict[str, Any], identity: dict[str, Any]) -> dict[str, Any]:
    """A bench game stored before ``rule_from`` was recorded: where its rule came from, as its run was
    given it (``--rules``, else the run's ``rule``, drawn or a number); unknown stays unrecorded."""
    if params.get("rule_from"):
        return params
    rounds, given = identity.get("rounds"), (identity.get("params") or {}).get("rule")
    if isinstance(rounds, dict) and isinstance(rounds.get("rules"), list):
        found = bench.rule_set_text(rounds["rules"])
    elif params.get("rule_code") or isinstance(given, int):
        found = rule_source(given if isinstance(given, int) else DRAWN, str(params.get("rule_code") or ""))
    else:
        return params
    return {**params, "rule_from": found}


def _scientist(game: Game, arg: int | None) -> Any:
    from tcgtui.engine.eleusis.players import policy

    return policy(game, arg)


SPEC = register(
    GameSpec(
        GameInfo(
            "eleusis",
            seats=1,
            outcome=SCORE,
            moves=LIST,
            invalid=AGENT,
            search=False,
            # the rule and a seed round's deal change game by game within a run: no report key; where the rule
            # came from (drawn, or the rules the run was given) is one, recorded with each deal by the game.
            # A game stored before it was recorded has it read from its bench run (ReportHooks.unrecorded), else "-"
            params=(
                Param(
                    "rule",
                    int,
                    DRAWN,
                    low=0,
                    high=COUNT - 1,
                    words=(("drawn", DRAWN),),
                    keyed=False,
                    help_key="eleusis.games.rule_help",
                    label_key="eleusis.games.rule_label",
                ),
                Param(
                    "guess_format",
                    str,
                    "text",
                    choices=FORMATS,
                    flag="--guess-format",
                    metavar="GUESS_FORMAT",
                    help_key="eleusis.games.guess_format_flag",
                ),
                # a round's length: the seed's 30; fewer make a short round (a test, a demo)
                Param(
                    "max_turns",
                    int,
                    MAX_TURNS,
                    low=1,
                    high=TURNS_HIGH,
                    help_key="eleusis.games.max_turns_help",
                    label_key="eleusis.games.max_turns_label",
                ),
                Param("rule_code", str, "", keyed=False),
                Param("rule_from", str, ""),
                PROTOCOL,
                UPSTREAM,
                # --protocol seed: the seed's round index and base seed of the deal, or its deck seed itself
                Param("seed_round", int, 0, low=0, high=10_000, keyed=False),
                Param("seed_base", int, BASE, low=0, high=2**32 - 1),
                Param("seed_deal", int, -1, low=-1, high=2**32 - 1, keyed=False),
                # --protocol seed: the seed's translating models (the first primary, the rest its fallbacks);
                # keyed, since the model that turns a guess into code changes its verdict
                Param(
                    "translator",
                    str,
                    "",
                    flag="--translator",
                    metavar="llm:A,llm:B",
                    help_key="eleusis.games.translator_flag",
                ),
            ),
        ),
        make=EleusisGame.from_params,
        prompter=_prompter,
        narrator=EleusisNarrator,
        rules_text=rules_text,
        analyses=_sections,
        seed_tables=_seed_tables,
        references=(Reference("scientist", _scientist),),
        bench=BenchHooks(rounds=bench),  # --rules/--seeds: the seed's 26 x 3 rounds in one sweep
        # its report sections replay each round's record; a bench game stored before rule_from has it read from its run
        report=ReportHooks(reads_records=True, unrecorded=_unrecorded),
        tools=ToolHooks(perf=("scientist",)),
        # --translator: a guess waits on the seed's walk in the sandbox (tcgtui/games/eleusis/referee.py)
        referee=RefereeHooks(service="seed-walk"),  # tcgtui perf times the reference scientist's opening decision
        fake_model=FakeModel(fake_replies.player),
    )
)
