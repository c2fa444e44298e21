"""The rule language: the body of a function of ``card`` and ``mainline``, a small safe Python.

Rules and guesses arrive as text from people and models, so nothing here ever
hands them to Python's own ``exec``.  The text is parsed with ``ast``, checked
against a whitelist (exactly the constructs the issue lists), then turned into
nested closures that the evaluator runs itself: every node costs a step from a
budget, every number is bounded, every list, string or range a rule builds is
charged for its length.  An import, a dunder, ``open``, a loop without end or
``10**10**10`` is therefore refused before it runs, or stopped while it runs.

Errors are ``RuleError(kind, detail, line)``; the kinds are locale keys
(``eleusis.lang.<kind>``), so the words a person reads live in ``locales/``.
The whitelist is ``rulecheck.py``, the evaluator ``ruleeval.py``, the names,
operators and limits ``rulespec.py``; this module is the front door.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tcgtui.engine.eleusis.cards import Card
from tcgtui.engine.eleusis.rulecheck import Checker, assigned, unwrap
from tcgtui.engine.eleusis.ruleeval import Budget, Compiler, Return
from tcgtui.engine.eleusis.rulespec import (
    BUDGET,
    MAX_DEPTH,
    MAX_SOURCE,
    MAX_STEPS,
    SYNTAX,
    TOO_DEEP,
    TOO_LONG,
    RuleError,
)

__all__ = ["BUDGET", "MAX_STEPS", "Rule", "RuleError", "check", "compile_rule"]


@dataclass(frozen=True)
class Rule:
    """A checked rule: its source, whether it reads the mainline, and its complexity."""

    source: str
    uses_mainline: bool
    nodes: int
    cyclomatic: int
    _run: Callable[[dict, Budget], Any] = field(repr=False, compare=False)

    def __reduce__(self) -> tuple[Callable[[str], Rule], tuple[str]]:
        """Pickled as its source, compiled again when loaded (the compiled code does not pickle)."""
        return (compile_rule, (self.source,))

    @property
    def complexity(self) -> float:
        """The seed's difficulty proxy: ``cyclomatic + 0.2 x AST nodes``."""
        return self.cyclomatic + 0.2 * self.nodes

    def accepts(self, card: Card, mainline: Sequence[Card], steps: int = MAX_STEPS) -> bool:
        """Whether the rule accepts ``card`` after ``mainline``; RuleError if it errs or runs too long."""
        return self.counted(card, mainline, steps)[0]

    def counted(self, card: Card, mainline: Sequence[Card], steps: int = MAX_STEPS) -> tuple[bool, int]:
        """``accepts`` and the steps it took (the judge bounds a whole verdict's steps)."""
        env = {"card": card, "mainline": mainline if mainline.__class__ is list else list(mainline)}
        budget = Budget(steps)
        r = self._run(env, budget)
        return (bool(r.value) if isinstance(r, Return) else False), steps - budget.left


def compile_rule(text: str) -> Rule:
    """Check ``text`` against the whitelist and build the rule; RuleError names what was refused."""
    source = textwrap.dedent(str(text)).strip("\n")
    if len(source) > MAX_SOURCE:
        raise RuleError(TOO_LONG, str(MAX_SOURCE))
    if not source.strip():
        raise RuleError(SYNTAX, "")
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise RuleError(SYNTAX, str(exc.msg), exc.lineno or 0) from None
    except (ValueError, RecursionError, MemoryError):
        raise RuleError(TOO_DEEP, str(MAX_DEPTH)) from None
    body = unwrap(tree)
    checker = Checker(assigned(body))
    try:
        checker.stmts(body, 0)
    except RecursionError:
        raise RuleError(TOO_DEEP, str(MAX_DEPTH)) from None
    run = Compiler().block(body)
    return Rule(source, checker.uses_mainline, checker.nodes, 1 + checker.branches, run)


def check(text: str) -> RuleError | None:
    """The first reason ``text`` is not a rule, or None (the editor checks as one types)."""
    try:
        compile_rule(text)
    except RuleError as exc:
        return exc
    return None
