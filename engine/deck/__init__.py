"""Deck completion (ManaBench style): a deck with one card missing, six options, one move.

Questions come from a question set (JSON Lines, read by ``tcgtui/games/deck/questions.py``); the
ones made from our own cards (``tcgtui deck make``) carry their simulation, so the answer
is the option that wins most, and anyone can check it.  Outcome: a score of 1 (right) or
0 (wrong), so a report's mean score is the accuracy.
"""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.deck import fake_replies
from tcgtui.engine.deck.game import DeckGame
from tcgtui.engine.deck.questions import LETTERS, Option, Question, QuestionError, QuestionSet, parse_question
from tcgtui.engine.protocols import PROTOCOL, SEED, TCGTUI
from tcgtui.engine.registry import (
    LIST,
    RULES,
    SCORE,
    FakeModel,
    GameInfo,
    GameSpec,
    Param,
    Reference,
    ReportHooks,
    ToolHooks,
    register,
)

__all__ = ["DeckGame", "LETTERS", "Option", "Question", "QuestionError", "QuestionSet", "parse_question"]

DEFAULT_SET = "frontier-sample"
RULE_KEYS = ("question", "one_move", "right", "wrong", "unusable", "over")


def _make(params: dict[str, Any]) -> DeckGame:
    return DeckGame(params["questions"], int(params["index"]), params.get("protocol") or TCGTUI)


def _prompter(game: DeckGame, catalog: Any, seat: int, style: str | None = None) -> Any:
    if game.protocol == SEED:
        from tcgtui.engine.deck.seed_prompter import SeedDeckPrompter

        return SeedDeckPrompter(game, catalog, seat)
    from tcgtui.engine.deck.prompter import DeckPrompter

    return DeckPrompter(game, catalog, seat)


def rules_text(game: Game, catalog: Any) -> list[tuple[str, str]]:
    """The quiz's rules as (key, sentence) pairs, keys ``deck.rules.*``."""
    return [(f"deck.rules.{k}", catalog.t(f"deck.rules.{k}")) for k in RULE_KEYS]


def _oracle(game: DeckGame, arg: int | None) -> Any:
    from tcgtui.engine.deck.players import policy

    return policy(game, arg)


def _evaluator(game: Game, spec: str | None) -> Any:
    # start-up time: the simulations (numpy, the compiled playouts) load only when answers are judged
    from tcgtui.engine.deck.evaluators import evaluator

    return evaluator(game, spec)


def _analyses(games: list) -> dict:
    from tcgtui.engine.deck.analysis import sections

    return sections(games)


SPEC = register(
    GameSpec(
        GameInfo(
            "deck",
            seats=1,
            outcome=SCORE,
            right_wrong=True,
            moves=LIST,
            invalid=RULES,
            search=False,
            prompt_styles=("text",),
            params=(
                Param(
                    "questions",
                    str,
                    DEFAULT_SET,
                    kind="questions",
                    digest="set_hash",
                    help_key="deck.games.questions_help",
                    label_key="deck.games.questions_label",
                ),
                Param("index", int, -1, low=-1, high=1_000_000),
                PROTOCOL,
            ),
        ),
        make=_make,
        prompter=_prompter,
        rules_text=rules_text,
        analyses=_analyses,
        references=(Reference("oracle", _oracle, takes_arg=True, default_arg=100, max_arg=100_000),),
        report=ReportHooks(reads_records=True),
        tools=ToolHooks(evaluate=_evaluator),
        fake_model=FakeModel(fake_replies.player),
    )
)
