"""Puzzle duels (The Token Games): two players take turns proposing Python puzzles
``mystery(x)`` with a secret sample solution and solving the other's.

Moves are text (canonical JSON: a proposal, an answer, a referee's verdict); the
engine never runs code.  After a proposal and after an answer the state has a
pending check, settled by the referee the game names in ``referee.service`` (the
sandbox, in ``tcgtui.sandbox``), whose verdict is applied and recorded as a move.
Unusable replies are handled by the rules (re-asked, then the round is scored).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tcgtui.engine.core import GameState
from tcgtui.engine.duel import fake_replies
from tcgtui.engine.duel.game import DuelGame
from tcgtui.engine.duel.moves import Answer, Proposal, Verdict
from tcgtui.engine.duel.narrator import DuelNarrator, rules_text
from tcgtui.engine.duel.state import OUTCOMES, REFEREE, Check, DuelObservation, DuelState, Round
from tcgtui.engine.protocols import PROTOCOL, SEED, TCGTUI, UPSTREAM
from tcgtui.engine.registry import (
    RULES,
    SCORE,
    TEXT,
    BenchHooks,
    FakeModel,
    GameInfo,
    GameSpec,
    Param,
    RefereeHooks,
    Reference,
    ReportHooks,
    Variant,
    register,
)


def sections(*args: Any, **kwargs: Any) -> Any:
    """The report's analyses (``analysis.sections``), imported when a report runs: the analysis
    brings numpy, 0.13 s that every screen's start paid before its first frame."""
    from tcgtui.engine.duel.analysis import sections as analyses

    return analyses(*args, **kwargs)


def seed_tables(*args: Any, **kwargs: Any) -> Any:
    """``analysis.tables``, imported when a report runs (see ``sections``)."""
    from tcgtui.engine.duel.analysis import tables

    return tables(*args, **kwargs)


if TYPE_CHECKING:
    from tcgtui.engine.duel.bank import BankGame


def bank_tables(*args: Any, **kwargs: Any) -> Any:
    """``analysis.bank_tables``, imported when a report runs (see ``sections``)."""
    from tcgtui.engine.duel.analysis import bank_tables as tables

    return tables(*args, **kwargs)


def rated(*args: Any, **kwargs: Any) -> Any:
    """``analysis.rated``, imported when a report runs (see ``sections``)."""
    from tcgtui.engine.duel.analysis import rated as rated_records

    return rated_records(*args, **kwargs)


__all__ = [
    "Answer",
    "Check",
    "DuelGame",
    "DuelNarrator",
    "DuelObservation",
    "DuelState",
    "OUTCOMES",
    "Proposal",
    "REFEREE",
    "Round",
    "Verdict",
    "rules_text",
]


# Where checks run: the local isolated interpreter inside the operating system's boundary, Docker
# where a user has it, or ``unsafe`` (no boundary, chosen by name; the record keeps the choice).
SANDBOX = Param(
    "sandbox",
    str,
    "local",
    choices=("local", "docker", "unsafe"),
    flag="--sandbox",
    metavar="SANDBOX",
    help_key="duel.games.sandbox_flag",
)


def _prompter(game: DuelGame | BankGame, catalog: Any, seat: int, style: str = "") -> Any:
    if getattr(game, "protocol", TCGTUI) == SEED:  # The Token Games' own prompts, from the user's checkout
        from tcgtui.engine.duel.seed_prompter import seed_prompter

        return seed_prompter(game, catalog, seat)
    from tcgtui.engine.duel.prompter import DuelPrompter

    return DuelPrompter(game, catalog, seat)


def _puzzler(game: DuelGame | BankGame, arg: int | None) -> Any:
    from tcgtui.engine.duel.players import puzzler

    return puzzler(game, arg)


def _make_bank(params: dict[str, Any]) -> Any:
    from tcgtui.engine.duel.bank import BankGame, puzzles_from_rows, rounds_from_rows, seed_solver_prompt
    from tcgtui.engine.duel.players import BUILTIN

    bank = params.get("bank") or {}
    puzzles = puzzles_from_rows(bank["rows"]) if bank else BUILTIN
    return BankGame(
        puzzles,
        bank.get("path", "") if bank else "",
        int(params.get("attempts", 3)),
        float(params.get("check_timeout", 5.0)),
        str(params.get("sandbox", "local")),
        str(params.get("protocol") or TCGTUI),
        *seed_solver_prompt(params),
        rounds=rounds_from_rows(bank["rows"]) if bank else (),
    )


def _random_move(state: GameState, rng: Any) -> str:
    """Any valid move for whoever moves now, the referee included: conformance tests play
    whole duels with it, without a sandbox."""
    from tcgtui.engine.duel.bank import BankState
    from tcgtui.engine.duel.players import BUILTIN, guess

    assert isinstance(state, (DuelState, BankState))  # registered for the duel and the bank
    check = state.pending()
    if check is not None:
        return Verdict(rng.choice(("true", "true", "false", "error", "timeout")), rng.random(), "").text()
    if getattr(state, "phase", "") == "propose":
        return rng.choice(BUILTIN).text()
    assert state.current is not None  # a round is running
    return Answer(guess(state.current.code, rng)).text()


# The sandbox settles each proposal's and answer's check (tcgtui/referee.py's python-check).
REFEREE_HOOKS = RefereeHooks(service="python-check", random_move=_random_move)

DUEL = register(
    GameSpec(
        GameInfo(
            "duel",
            seats=2,
            outcome=SCORE,
            moves=TEXT,
            invalid=RULES,
            params=(
                Param(
                    "rounds",
                    int,
                    10,
                    low=2,
                    high=100,
                    help_key="duel.games.rounds_help",
                    label_key="duel.games.rounds_label",
                ),
                Param("attempts", int, 3, low=1, high=10),
                Param("check_timeout", float, 5.0, low=0.5, high=60.0),
                SANDBOX,
                Param("solve_time", float, 0.0, low=0.0, high=3600.0),
                PROTOCOL,
                UPSTREAM,
            ),
        ),
        make=DuelGame.from_params,
        prompter=_prompter,
        narrator=DuelNarrator,
        rules_text=rules_text,
        references=(Reference("puzzler", _puzzler),),
        analyses=sections,
        seed_tables=seed_tables,
        referee=REFEREE_HOOKS,
        report=ReportHooks(
            layout=(
                "scores",
                "duel_roles",
                "duels",
                "proposer_ratings",
                "solver_ratings",
                "seed_solver_ratings",
                "decisions",
                "llm",
                "errors",
            ),
            notes={
                "duel_roles": "roles",
                "proposer_ratings": "role_ratings",
                "solver_ratings": "role_ratings",
                "seed_solver_ratings": "role_ratings",
            },
            rated=rated,
            reads_records=True,
        ),
        fake_model=FakeModel(fake_replies.player),
    )
)


def _bank_deal_seed(run_seed: int, index: int) -> int:
    from tcgtui.engine.duel.bank import deal_seed

    return deal_seed(run_seed, index)


# The puzzle bank: one seat solves puzzle i of a fixed bank in game i (see bank.py).  Users reach it as
# ``--game duel --bank FILE`` (a variant of the duel); ``duel-bank`` is the id its records keep.
BANK = register(
    GameSpec(
        GameInfo(
            "duel-bank",
            seats=1,
            outcome=SCORE,
            right_wrong=True,
            moves=TEXT,
            invalid=RULES,
            family="duel",
            variant_of=Variant("duel", "bank"),
            params=(
                Param(
                    "bank",
                    str,
                    "",
                    kind="jsonl",
                    digest="bank_digest",
                    flag="--bank",
                    metavar="BANK",
                    help_key="duel.games.bank_flag",
                ),
                Param("attempts", int, 3, low=1, high=10),
                Param("check_timeout", float, 5.0, low=0.5, high=60.0),
                SANDBOX,
                PROTOCOL,
                UPSTREAM,
            ),
        ),
        make=_make_bank,
        prompter=_prompter,
        narrator=DuelNarrator,
        references=(Reference("puzzler", _puzzler),),
        referee=REFEREE_HOOKS,
        seed_tables=bank_tables,
        report=ReportHooks(reads_records=True),
        bench=BenchHooks(deal_seed=_bank_deal_seed),
        fake_model=FakeModel(fake_replies.player),
    )
)
