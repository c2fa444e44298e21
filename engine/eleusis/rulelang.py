"""The rule language: the body of a function of ``card`` and ``mainline``, a small safe Python.

Rules and guesses arrive as text from people and models, so nothing here ever
hands them to Python's own ``exec``.  The text is parsed with ``ast``, checked
against a whitelist (exactly the constructs the issue lists), then turned into
nested closures that this module runs itself: every node costs a step from a
budget, every number is bounded, every list, string or range a rule builds is
charged for its length.  An import, a dunder, ``open``, a loop without end or
``10**10**10`` is therefore refused before it runs, or stopped while it runs.

Errors are ``RuleError(kind, detail, line)``; the kinds are locale keys
(``eleusis.lang.<kind>``), so the words a person reads live in ``locales/``.
"""

from __future__ import annotations

import ast
import operator
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from tcgtui.engine.eleusis.cards import Card

MAX_SOURCE = 4_000          # characters of rule text
MAX_STEPS = 20_000          # evaluation steps per call (a rule of the library needs under 100)
MAX_NUMBER = 10 ** 15       # any number a rule computes stays within +-MAX_NUMBER
MAX_LENGTH = 2_000          # any string, list, tuple, set, dict or range a rule builds
MAX_SIZE = 10_000           # the elements of any value, nested ones counted (a shared one each time it appears)
MAX_DEPTH = 40              # nesting of the syntax tree
ARGS = ("card", "mainline")
ATTRIBUTES = frozenset({"rank", "suit", "color", "is_face"})
CALLS = {"len": len, "abs": abs, "min": min, "max": max, "sum": sum, "all": all, "any": any, "range": range}

# Syntax error kinds (each one a key under eleusis.lang)
SYNTAX, NOT_ALLOWED, UNKNOWN_NAME, ATTRIBUTE, CALL, TOO_LONG, TOO_DEEP = (
    "syntax", "not_allowed", "unknown_name", "attribute", "call", "too_long", "too_deep")
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

    def text(self, catalog: Any) -> str:
        """The error as one sentence in the catalog's language."""
        words = catalog.t(f"eleusis.lang.{self.kind}", what=self.detail)
        return catalog.t("eleusis.lang.at_line", error=words, line=self.line) if self.line else words


class _Budget:
    """Steps left, and the size of every container the rule met (kept alive, so ids stay unique).

    Sizes count nested elements, a shared one each time it appears, so a value built by
    doubling (``t = (t, t)``) is stopped long before comparing or hashing it could take long."""

    __slots__ = ("left", "sizes")

    def __init__(self, steps: int) -> None:
        self.left = steps
        self.sizes: dict[int, tuple[Any, int]] = {}

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise RuleError(BUDGET, str(MAX_STEPS))


# --- the whitelist ---------------------------------------------------------------------------------

_STATEMENTS = (ast.If, ast.Return, ast.Assign, ast.AugAssign, ast.For, ast.Expr, ast.Pass, ast.Break,
               ast.Continue)
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_, ast.IsNot: operator.is_not}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos}
_NAMES = {
    ast.Import: "import", ast.ImportFrom: "import", ast.While: "while", ast.FunctionDef: "def",
    ast.AsyncFunctionDef: "def", ast.ClassDef: "class", ast.Lambda: "lambda", ast.With: "with",
    ast.Try: "try", ast.Raise: "raise", ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Delete: "del",
    ast.Assert: "assert", ast.NamedExpr: ":=", ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
    ast.JoinedStr: "f-string", ast.Starred: "*", ast.AnnAssign: "annotation", ast.Match: "match",
    ast.AsyncFor: "async", ast.AsyncWith: "async", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>", ast.Invert: "~", ast.MatMult: "@"}


def _construct(node: ast.AST) -> str:
    return _NAMES.get(type(node), type(node).__name__.lower())


def _unwrap(tree: ast.Module) -> list[ast.stmt]:
    """The body to run: the module itself, or the body of a single ``def f(card, mainline):``."""
    body = tree.body
    if len(body) == 1 and isinstance(body[0], ast.FunctionDef):
        fn = body[0]
        a = fn.args
        names = [x.arg for x in a.args]
        if (names == list(ARGS) and not (a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs)
                and not fn.decorator_list):
            return fn.body
    if len(body) == 1 and isinstance(body[0], ast.Expr):      # a bare expression is its own answer
        expr = body[0]
        return [ast.copy_location(ast.Return(expr.value), expr)]
    return body


class _Checker:
    """Walks the tree once: every node must be one the language has."""

    def __init__(self, locals_: set[str]) -> None:
        self.locals = locals_
        self.uses_mainline = False
        self.nodes = 0
        self.branches = 0

    def fail(self, kind: str, detail: str, node: ast.AST) -> None:
        raise RuleError(kind, detail, getattr(node, "lineno", 0))

    def stmts(self, body: Sequence[ast.stmt], depth: int) -> None:
        for s in body:
            self.stmt(s, depth + 1)

    def stmt(self, s: ast.stmt, depth: int) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH:
            self.fail(TOO_DEEP, str(MAX_DEPTH), s)
        if not isinstance(s, _STATEMENTS):
            self.fail(NOT_ALLOWED, _construct(s), s)
        if isinstance(s, ast.If):
            self.branches += 1
            self.expr(s.test, depth)
            self.stmts(s.body, depth)
            self.stmts(s.orelse, depth)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.expr(s.value, depth)
        elif isinstance(s, ast.Assign):
            for t in s.targets:
                self.target(t, depth)
            self.expr(s.value, depth)
        elif isinstance(s, ast.AugAssign):
            self.target(s.target, depth)
            self.op(s.op, s)
            self.expr(s.value, depth)
        elif isinstance(s, ast.For):
            if s.orelse:
                self.fail(NOT_ALLOWED, "for-else", s)
            self.branches += 1
            self.target(s.target, depth)
            self.expr(s.iter, depth)
            self.stmts(s.body, depth)
        elif isinstance(s, ast.Expr):
            self.expr(s.value, depth)

    def target(self, t: ast.expr, depth: int) -> None:
        self.nodes += 1
        if isinstance(t, ast.Name):
            if t.id in CALLS or t.id in ("True", "False", "None"):
                self.fail(NOT_ALLOWED, t.id, t)
            return
        if isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                self.target(e, depth + 1)
            return
        self.fail(NOT_ALLOWED, _construct(t), t)

    def op(self, op: ast.AST, node: ast.AST) -> None:
        if type(op) not in _BINOPS:
            self.fail(NOT_ALLOWED, _construct(op), node)

    def expr(self, e: ast.expr, depth: int) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH:
            self.fail(TOO_DEEP, str(MAX_DEPTH), e)
        d = depth + 1
        if isinstance(e, ast.Constant):
            if not (e.value is None or isinstance(e.value, (bool, int, float, str))):
                self.fail(NOT_ALLOWED, type(e.value).__name__, e)
            if isinstance(e.value, (int, float)) and not isinstance(e.value, bool) and abs(e.value) > MAX_NUMBER:
                self.fail(NUMBER, str(MAX_NUMBER), e)
        elif isinstance(e, ast.Name):
            if e.id == "mainline":
                self.uses_mainline = True
            if e.id in CALLS:
                self.fail(CALL, e.id, e)
            if e.id not in ARGS and e.id not in self.locals and e.id not in ("True", "False", "None"):
                self.fail(UNKNOWN_NAME, e.id, e)
        elif isinstance(e, ast.Attribute):
            self.expr(e.value, d)
            if e.attr not in ATTRIBUTES:
                self.fail(ATTRIBUTE, e.attr, e)
        elif isinstance(e, ast.BoolOp):
            self.branches += len(e.values) - 1
            for v in e.values:
                self.expr(v, d)
        elif isinstance(e, ast.BinOp):
            self.op(e.op, e)
            self.expr(e.left, d)
            self.expr(e.right, d)
        elif isinstance(e, ast.UnaryOp):
            if type(e.op) not in _UNARY:
                self.fail(NOT_ALLOWED, _construct(e.op), e)
            self.expr(e.operand, d)
        elif isinstance(e, ast.Compare):
            for op in e.ops:
                if type(op) not in _CMPOPS:
                    self.fail(NOT_ALLOWED, _construct(op), e)
            self.expr(e.left, d)
            for c in e.comparators:
                self.expr(c, d)
        elif isinstance(e, ast.IfExp):
            self.branches += 1
            self.expr(e.test, d)
            self.expr(e.body, d)
            self.expr(e.orelse, d)
        elif isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            for x in e.elts:
                self.expr(x, d)
        elif isinstance(e, ast.Dict):
            for k in e.keys:
                if k is None:
                    self.fail(NOT_ALLOWED, "**", e)
                self.expr(k, d)
            for v in e.values:
                self.expr(v, d)
        elif isinstance(e, ast.Subscript):
            self.expr(e.value, d)
            if isinstance(e.slice, ast.Slice):
                for part in (e.slice.lower, e.slice.upper, e.slice.step):
                    if part is not None:
                        self.expr(part, d)
            else:
                self.expr(e.slice, d)
        elif isinstance(e, ast.Call):
            if not isinstance(e.func, ast.Name):
                self.expr(e.func, d)                # names the attribute or name it calls through
                self.fail(CALL, _construct(e.func), e)
            if e.func.id not in CALLS:
                self.fail(CALL if e.func.id in self.locals or e.func.id in ARGS else UNKNOWN_NAME, e.func.id, e)
            if e.keywords:
                self.fail(NOT_ALLOWED, "keyword", e)
            for a in e.args:
                self.expr(a, d)
        elif isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for gen in e.generators:
                if gen.is_async:
                    self.fail(NOT_ALLOWED, "async", e)
                self.branches += 1 + len(gen.ifs)
                self.target(gen.target, d)
                self.expr(gen.iter, d)
                for cond in gen.ifs:
                    self.expr(cond, d)
            if isinstance(e, ast.DictComp):
                self.expr(e.key, d)
                self.expr(e.value, d)
            else:
                self.expr(e.elt, d)
        else:
            self.fail(NOT_ALLOWED, _construct(e), e)


def _assigned(body: Sequence[ast.stmt]) -> set[str]:
    """Every name the body binds (assignments, loop and comprehension variables)."""
    out: set[str] = set()
    for node in ast.walk(ast.Module(body=list(body), type_ignores=[])):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out - set(ARGS)


# --- running -----------------------------------------------------------------------------------------

class _Return:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


_BREAK, _CONTINUE = object(), object()


def _number(v: Any) -> Any:
    if isinstance(v, complex):
        raise RuleError(TYPE, "complex")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and not (-MAX_NUMBER <= v <= MAX_NUMBER):
        raise RuleError(NUMBER, str(MAX_NUMBER))
    return v


_CONTAINERS = (list, tuple, set, dict)


def _size(v: Any, budget: _Budget) -> int:
    """1 for a number, string, card or None; 1 + the sizes of its elements for a container."""
    cls = v.__class__
    if cls in _CONTAINERS:
        got = budget.sizes.get(id(v))
        return got[1] if got is not None and got[0] is v else _measure(v, budget)
    if cls is range:
        return 1 + len(v)
    return 1


def _measure(v: Any, budget: _Budget) -> int:
    total = 1
    for e in (list(v.keys()) + list(v.values()) if isinstance(v, dict) else v):
        total += _size(e, budget)
        if total > MAX_SIZE:
            raise RuleError(LENGTH, str(MAX_SIZE))
    budget.sizes[id(v)] = (v, total)
    budget.spend(1 + total // 8)
    return total


def _sized(v: Any, budget: _Budget) -> Any:
    """``v``, a value the rule just built, checked against the length and size bounds and charged for."""
    if isinstance(v, (str, list, tuple, set, dict, range)):
        n = len(v)
        if n > MAX_LENGTH:
            raise RuleError(LENGTH, str(MAX_LENGTH))
        if v.__class__ in _CONTAINERS:
            _measure(v, budget)
        else:
            budget.spend(1 + n // 8)
    return v


def _charge(values: Sequence[Any], budget: _Budget) -> None:
    """Comparing, searching or reducing containers costs their size in steps."""
    for v in values:
        if v.__class__ in _CONTAINERS or v.__class__ is range:
            budget.spend(_size(v, budget))


def _numbers_only(vals: list[Any]) -> None:
    """``sum`` adds numbers only (``sum(lists, [])`` would build lists outside the step budget)."""
    items = list(vals[0]) if vals and isinstance(vals[0], (list, tuple, set, dict, range)) else []
    if not all(isinstance(x, (int, float)) for x in items + vals[1:]):
        raise RuleError(TYPE, "sum")


def _binop(op: type, a: Any, b: Any, budget: _Budget) -> Any:
    if op is ast.Mod and isinstance(a, str):
        raise RuleError(TYPE, "%")                     # no string formatting ('%999999999d' % 1)
    if op is ast.Pow:
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
            raise RuleError(TYPE, "**")
        if isinstance(b, (int, float)) and b > 64 and abs(a) > 1:
            raise RuleError(NUMBER, str(MAX_NUMBER))
    if op is ast.Mult:
        seq, n = (a, b) if isinstance(a, (str, list, tuple)) else (b, a)
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
            if len(seq) * max(n, 0) > MAX_LENGTH:
                raise RuleError(LENGTH, str(MAX_LENGTH))
            if not isinstance(seq, str) and (_size(seq, budget) - 1) * max(n, 0) > MAX_SIZE:
                raise RuleError(LENGTH, str(MAX_SIZE))
    if op is ast.Add and isinstance(a, (str, list, tuple)) and isinstance(b, (str, list, tuple)):
        if len(a) + len(b) > MAX_LENGTH:
            raise RuleError(LENGTH, str(MAX_LENGTH))
    try:
        out = _BINOPS[op](a, b)
    except (ArithmeticError, ValueError) as exc:
        raise RuleError(RUNTIME, type(exc).__name__) from None
    except TypeError:
        raise RuleError(TYPE, _NAMES.get(op, op.__name__)) from None
    return _sized(_number(out), budget)


def _wrap_errors(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, ArithmeticError, AttributeError) as exc:
            raise RuleError(RUNTIME if not isinstance(exc, TypeError) else TYPE,
                            f"{name}: {type(exc).__name__}") from None
    return call


class _Compiler:
    """Turns checked nodes into closures ``f(env, budget)``."""

    def block(self, body: Sequence[ast.stmt]) -> Callable[[dict, _Budget], Any]:
        parts = [self.stmt(s) for s in body]
        if len(parts) == 1:
            return parts[0]

        def run(env: dict, b: _Budget) -> Any:
            for p in parts:
                r = p(env, b)
                if r is not None:
                    return r
            return None
        return run

    def stmt(self, s: ast.stmt) -> Callable[[dict, _Budget], Any]:
        if isinstance(s, ast.If):
            test, body, orelse = self.expr(s.test), self.block(s.body), self.block(s.orelse)

            def run_if(env: dict, b: _Budget) -> Any:
                b.left -= 1
                if b.left < 0:
                    b.spend(0)
                return body(env, b) if test(env, b) else orelse(env, b)
            return run_if
        if isinstance(s, ast.Return):
            value = self.expr(s.value) if s.value is not None else (lambda env, b: None)
            return lambda env, b: _Return(value(env, b))
        if isinstance(s, ast.Assign):
            value = self.expr(s.value)
            stores = [self.store(t) for t in s.targets]

            def run_assign(env: dict, b: _Budget) -> Any:
                v = value(env, b)
                for st in stores:
                    st(env, v, b)
                return None
            return run_assign
        if isinstance(s, ast.AugAssign):
            load, value, store, op = self.expr(s.target), self.expr(s.value), self.store(s.target), type(s.op)

            def run_aug(env: dict, b: _Budget) -> Any:
                store(env, _binop(op, load(env, b), value(env, b), b), b)
                return None
            return run_aug
        if isinstance(s, ast.For):
            store, it, body = self.store(s.target), self.expr(s.iter), self.block(s.body)

            def run_for(env: dict, b: _Budget) -> Any:
                for v in self.iterate(it(env, b), b):
                    store(env, v, b)
                    r = body(env, b)
                    if r is _BREAK:
                        break
                    if r is not None and r is not _CONTINUE:
                        return r
                return None
            return run_for
        if isinstance(s, ast.Expr):
            value = self.expr(s.value)

            def run_expr(env: dict, b: _Budget) -> Any:
                value(env, b)
                return None
            return run_expr
        if isinstance(s, ast.Break):
            return lambda env, b: _BREAK
        if isinstance(s, ast.Continue):
            return lambda env, b: _CONTINUE
        return lambda env, b: None          # pass

    @staticmethod
    def iterate(value: Any, b: _Budget):
        if not isinstance(value, (list, tuple, str, range, set, dict)):
            raise RuleError(TYPE, "for")
        for v in value:
            b.spend()
            yield v

    def store(self, t: ast.expr) -> Callable[[dict, Any, _Budget], None]:
        if isinstance(t, ast.Name):
            name = t.id

            def put(env: dict, v: Any, b: _Budget) -> None:
                env[name] = v
            return put
        parts = [self.store(e) for e in t.elts]          # type: ignore[attr-defined]

        def unpack(env: dict, v: Any, b: _Budget) -> None:
            if not isinstance(v, (list, tuple)) or len(v) != len(parts):
                raise RuleError(TYPE, "unpack")
            for p, x in zip(parts, v):
                p(env, x, b)
        return unpack

    def expr(self, e: ast.expr) -> Callable[[dict, _Budget], Any]:     # noqa: C901 - one case per node
        if isinstance(e, ast.Constant):
            value = e.value
            return lambda env, b: value
        if isinstance(e, ast.Name):
            name = e.id
            if name in ("True", "False", "None"):
                const = {"True": True, "False": False, "None": None}[name]
                return lambda env, b: const

            def load(env: dict, b: _Budget) -> Any:
                try:
                    return env[name]
                except KeyError:
                    raise RuleError(RUNTIME, name) from None
            return load
        if isinstance(e, ast.Attribute):
            value, attr = self.expr(e.value), e.attr

            def get(env: dict, b: _Budget) -> Any:
                b.left -= 1
                if b.left < 0:
                    b.spend(0)
                obj = value(env, b)
                if obj.__class__ is not Card:
                    raise RuleError(TYPE, attr)
                return getattr(obj, attr)
            return get
        if isinstance(e, ast.BoolOp):
            values = [self.expr(v) for v in e.values]
            if isinstance(e.op, ast.And):
                def run_and(env: dict, b: _Budget) -> Any:
                    b.spend()
                    v = True
                    for f in values:
                        v = f(env, b)
                        if not v:
                            return v
                    return v
                return run_and

            def run_or(env: dict, b: _Budget) -> Any:
                b.spend()
                v = False
                for f in values:
                    v = f(env, b)
                    if v:
                        return v
                return v
            return run_or
        if isinstance(e, ast.BinOp):
            left, right, op = self.expr(e.left), self.expr(e.right), type(e.op)

            def run_bin(env: dict, b: _Budget) -> Any:
                b.spend()
                return _binop(op, left(env, b), right(env, b), b)
            return run_bin
        if isinstance(e, ast.UnaryOp):
            operand, fn = self.expr(e.operand), _UNARY[type(e.op)]
            checked = _wrap_errors(fn, _construct(e.op))

            def run_unary(env: dict, b: _Budget) -> Any:
                b.spend()
                return checked(operand(env, b))
            return run_unary
        if isinstance(e, ast.Compare):
            left = self.expr(e.left)
            if len(e.ops) == 1 and isinstance(e.comparators[0], ast.Constant):
                cmp1, const = _CMPOPS[type(e.ops[0])], e.comparators[0].value
                what = _construct(e.ops[0])

                def run_cmp_const(env: dict, b: _Budget) -> Any:
                    b.left -= 1
                    if b.left < 0:
                        b.spend(0)
                    try:
                        a = left(env, b)
                        if a.__class__ in _CONTAINERS:
                            _charge((a,), b)
                        return cmp1(a, const)
                    except TypeError:
                        raise RuleError(TYPE, what) from None
                return run_cmp_const
            pairs = [(_wrap_errors(_CMPOPS[type(op)], _construct(op)), self.expr(c))
                     for op, c in zip(e.ops, e.comparators)]

            def run_cmp(env: dict, b: _Budget) -> Any:
                b.spend()
                a = left(env, b)
                for fn, right in pairs:
                    c = right(env, b)
                    if isinstance(c, (str, list, tuple, set, dict, range)) or a.__class__ in _CONTAINERS:
                        _charge((a, c), b)
                        if isinstance(c, str):
                            b.spend(1 + len(c) // 8)
                    if not fn(a, c):
                        return False
                    a = c
                return True
            return run_cmp
        if isinstance(e, ast.IfExp):
            test, body, orelse = self.expr(e.test), self.expr(e.body), self.expr(e.orelse)
            return lambda env, b: body(env, b) if test(env, b) else orelse(env, b)
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            elts = [self.expr(x) for x in e.elts]
            kind = {ast.Tuple: tuple, ast.List: list, ast.Set: set}[type(e)]
            make = _wrap_errors(kind, "set")

            def run_seq(env: dict, b: _Budget) -> Any:
                return _sized(make(f(env, b) for f in elts), b)
            return run_seq
        if isinstance(e, ast.Dict):
            keys = [self.expr(k) for k in e.keys if k is not None]
            vals = [self.expr(v) for v in e.values]
            make_dict = _wrap_errors(dict, "dict")

            def run_dict(env: dict, b: _Budget) -> Any:
                return _sized(make_dict((k(env, b), v(env, b)) for k, v in zip(keys, vals)), b)
            return run_dict
        if isinstance(e, ast.Subscript):
            value = self.expr(e.value)
            if isinstance(e.slice, ast.Slice):
                parts = [None if p is None else self.expr(p) for p in (e.slice.lower, e.slice.upper, e.slice.step)]
                cut = _wrap_errors(lambda v, s: v[s], "slice")

                def run_slice(env: dict, b: _Budget) -> Any:
                    b.spend()
                    v = value(env, b)
                    if not isinstance(v, (list, tuple, str, range)):
                        raise RuleError(TYPE, "slice")
                    s = slice(*(None if p is None else p(env, b) for p in parts))
                    return _sized(cut(v, s), b)
                return run_slice
            index = self.expr(e.slice)
            at = _wrap_errors(lambda v, i: v[i], "index")

            def run_index(env: dict, b: _Budget) -> Any:
                b.spend()
                v = value(env, b)
                if not isinstance(v, (list, tuple, str, range, dict)):
                    raise RuleError(TYPE, "index")
                return at(v, index(env, b))
            return run_index
        if isinstance(e, ast.Call):
            name = e.func.id                                  # type: ignore[attr-defined]
            fn = _wrap_errors(CALLS[name], name)
            args = [self.expr(a) for a in e.args]

            def run_call(env: dict, b: _Budget) -> Any:
                b.spend()
                vals = [a(env, b) for a in args]
                _charge(vals, b)
                if name == "sum":
                    _numbers_only(vals)
                if name == "range":
                    if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
                        raise RuleError(TYPE, "range")
                    return _sized(fn(*vals), b)
                return _number(fn(*vals))
            return run_call
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            gens = [(self.store(g.target), self.expr(g.iter), [self.expr(c) for c in g.ifs]) for g in e.generators]
            if isinstance(e, ast.DictComp):
                key, val = self.expr(e.key), self.expr(e.value)
                elt = lambda env, b: (key(env, b), val(env, b))       # noqa: E731
            else:
                elt = self.expr(e.elt)
            kind = {ast.ListComp: list, ast.GeneratorExp: list, ast.SetComp: set, ast.DictComp: dict}[type(e)]
            make = _wrap_errors(kind, "comprehension")

            def produce(env: dict, b: _Budget, level: int, out: list) -> None:
                store, it, conds = gens[level]
                for v in self.iterate(it(env, b), b):
                    store(env, v, b)
                    if all(c(env, b) for c in conds):
                        if level + 1 < len(gens):
                            produce(env, b, level + 1, out)
                        else:
                            out.append(elt(env, b))
                            if len(out) > MAX_LENGTH:
                                raise RuleError(LENGTH, str(MAX_LENGTH))

            def run_comp(env: dict, b: _Budget) -> Any:
                inner = dict(env)                   # comprehension variables stay inside
                out: list = []
                produce(inner, b, 0, out)
                return _sized(make(out), b)
            return run_comp
        raise RuleError(NOT_ALLOWED, _construct(e), getattr(e, "lineno", 0))   # the checker let it through


@dataclass(frozen=True)
class Rule:
    """A checked rule: its source, whether it reads the mainline, and its complexity."""

    source: str
    uses_mainline: bool
    nodes: int
    cyclomatic: int
    _run: Callable[[dict, _Budget], Any] = field(repr=False, compare=False)

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
        budget = _Budget(steps)
        r = self._run(env, budget)
        return (bool(r.value) if isinstance(r, _Return) else False), steps - budget.left


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
    body = _unwrap(tree)
    checker = _Checker(_assigned(body))
    try:
        checker.stmts(body, 0)
    except RecursionError:
        raise RuleError(TOO_DEEP, str(MAX_DEPTH)) from None
    run = _Compiler().block(body)
    return Rule(source, checker.uses_mainline, checker.nodes, 1 + checker.branches, run)


def check(text: str) -> RuleError | None:
    """The first reason ``text`` is not a rule, or None (the editor checks as one types)."""
    try:
        compile_rule(text)
    except RuleError as exc:
        return exc
    return None
