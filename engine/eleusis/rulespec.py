"""What the rule language is made of: the names a rule may use, its operators, its limits and its errors.

Shared by the checker (``rulecheck.py``), the evaluator (``ruleeval.py``) and
the front door (``rulelang.py``).  Error kinds are locale keys
(``eleusis.lang.<kind>``), so the words a person reads live in ``locales/``.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

MAX_SOURCE = 4_000  # characters of rule text
MAX_STEPS = 20_000  # evaluation steps per call (a rule of the library needs under 100)
MAX_NUMBER = 10**15  # any number a rule computes stays within +-MAX_NUMBER
MAX_LENGTH = 2_000  # any string, list, tuple, set, dict or range a rule builds
MAX_SIZE = 10_000  # the elements of any value, nested ones counted (a shared one each time it appears)
MAX_DEPTH = 40  # nesting of the syntax tree
ARGS = ("card", "mainline")
ATTRIBUTES = frozenset({"rank", "suit", "color", "is_face"})
CALLS: dict[str, Callable[..., Any]] = {
    "len": len,
    "abs": abs,
    "min": min,
    "max": max,
    "sum": sum,
    "all": all,
    "any": any,
    "range": range,
}

# Syntax error kinds (each one a key under eleusis.lang)
SYNTAX, NOT_ALLOWED, UNKNOWN_NAME, ATTRIBUTE, CALL, TOO_LONG, TOO_DEEP = (
    "syntax",
    "not_allowed",
    "unknown_name",
    "attribute",
    "call",
    "too_long",
    "too_deep",
)
# Run-time error kinds
BUDGET, NUMBER, LENGTH, TYPE, RUNTIME = "budget", "number", "length", "type", "runtime"


class RuleError(Exception):
    """A rule refused by the checker or stopped while running.

    ``kind`` is a key under ``eleusis.lang`` (the sentence a person reads),
    ``detail`` the construct or value it names, ``line`` where (0 if unknown).
    """

    def __init__(self, kind: str, detail: str = "", line: int = 0) -> None:
        super().__init__(f"{kind}: {detail}" + (f" (line {line})" if line else ""))
        self.kind = kind
        self.detail = detail
        self.line = line

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str, int]]:
        """Pickled whole (a verdict comes back from the app's judging process with its error)."""
        return (RuleError, (self.kind, self.detail, self.line))

    def text(self, catalog: Any) -> str:
        """The error as one sentence in the catalog's language."""
        if self.kind == SYNTAX:  # Python's own message is English: the reader gets the line instead
            return catalog.t("eleusis.lang.syntax", line=self.line) if self.line else catalog.t("eleusis.lang.empty")
        words = catalog.t(f"eleusis.lang.{self.kind}", what=self.detail)
        return catalog.t("eleusis.lang.at_line", error=words, line=self.line) if self.line else words


BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
UNARY: dict[type, Callable[[Any], Any]] = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}
CONSTRUCTS = {
    ast.Import: "import",
    ast.ImportFrom: "import",
    ast.While: "while",
    ast.FunctionDef: "def",
    ast.AsyncFunctionDef: "def",
    ast.ClassDef: "class",
    ast.Lambda: "lambda",
    ast.With: "with",
    ast.Try: "try",
    ast.Raise: "raise",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.Delete: "del",
    ast.Assert: "assert",
    ast.NamedExpr: ":=",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.JoinedStr: "f-string",
    ast.Starred: "*",
    ast.AnnAssign: "annotation",
    ast.Match: "match",
    ast.AsyncFor: "async",
    ast.AsyncWith: "async",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Invert: "~",
    ast.MatMult: "@",
}


def construct(node: ast.AST) -> str:
    return CONSTRUCTS.get(type(node), type(node).__name__.lower())
