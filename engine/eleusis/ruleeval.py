"""The rule language's evaluator: checked syntax trees become nested closures that this module runs.

Nothing is handed to Python's ``exec``: every node costs a step from a budget,
every number is bounded, every string, list or range a rule builds is charged
for its length, and every value's size counts its nested elements (a shared
one each time it appears), so no comparison or hash can take long.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

from tcgtui.engine.eleusis.cards import Card
from tcgtui.engine.eleusis.rulespec import (
    BINOPS,
    BUDGET,
    CALLS,
    CMPOPS,
    CONSTRUCTS,
    LENGTH,
    MAX_LENGTH,
    MAX_NUMBER,
    MAX_SIZE,
    MAX_STEPS,
    NOT_ALLOWED,
    NUMBER,
    RUNTIME,
    TYPE,
    UNARY,
    RuleError,
    construct,
)


class Budget:
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


class Return:
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


def _size(v: Any, budget: Budget) -> int:
    """1 for a number, string, card or None; 1 + the sizes of its elements for a container."""
    cls = v.__class__
    if cls in _CONTAINERS:
        got = budget.sizes.get(id(v))
        return got[1] if got is not None and got[0] is v else _measure(v, budget)
    if cls is range:
        return 1 + len(v)
    return 1


def _measure(v: Any, budget: Budget) -> int:
    total = 1
    for e in list(v.keys()) + list(v.values()) if isinstance(v, dict) else v:
        total += _size(e, budget)
        if total > MAX_SIZE:
            raise RuleError(LENGTH, str(MAX_SIZE))
    budget.sizes[id(v)] = (v, total)
    budget.spend(1 + total // 8)
    return total


def _sized(v: Any, budget: Budget) -> Any:
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


def _charge(values: Sequence[Any], budget: Budget) -> None:
    """Comparing, searching or reducing containers costs their size in steps."""
    for v in values:
        if v.__class__ in _CONTAINERS or v.__class__ is range:
            budget.spend(_size(v, budget))


def _numbers_only(vals: list[Any]) -> None:
    """``sum`` adds numbers only (``sum(lists, [])`` would build lists outside the step budget)."""
    items = list(vals[0]) if vals and isinstance(vals[0], (list, tuple, set, dict, range)) else []
    if not all(isinstance(x, (int, float)) for x in items + vals[1:]):
        raise RuleError(TYPE, "sum")


def _binop(op: type, a: Any, b: Any, budget: Budget) -> Any:
    if op is ast.Mod and isinstance(a, str):
        raise RuleError(TYPE, "%")  # no string formatting ('%999999999d' % 1)
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
        out = BINOPS[op](a, b)
    except (ArithmeticError, ValueError) as exc:
        raise RuleError(RUNTIME, type(exc).__name__) from None
    except TypeError:
        raise RuleError(TYPE, CONSTRUCTS.get(op, op.__name__)) from None
    return _sized(_number(out), budget)


def _wrap_errors(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except RuleError:
            raise
        except (TypeError, ValueError, KeyError, IndexError, ArithmeticError, AttributeError) as exc:
            raise RuleError(
                RUNTIME if not isinstance(exc, TypeError) else TYPE, f"{name}: {type(exc).__name__}"
            ) from None

    return call


class Compiler:
    """Turns checked nodes into closures ``f(env, budget)``."""

    def block(self, body: Sequence[ast.stmt]) -> Callable[[dict, Budget], Any]:
        parts = [self.stmt(s) for s in body]
        if len(parts) == 1:
            return parts[0]

        def run(env: dict, b: Budget) -> Any:
            for p in parts:
                r = p(env, b)
                if r is not None:
                    return r
            return None

        return run

    def stmt(self, s: ast.stmt) -> Callable[[dict, Budget], Any]:
        if isinstance(s, ast.If):
            test, body, orelse = self.expr(s.test), self.block(s.body), self.block(s.orelse)

            def run_if(env: dict, b: Budget) -> Any:
                b.left -= 1
                if b.left < 0:
                    b.spend(0)
                return body(env, b) if test(env, b) else orelse(env, b)

            return run_if
        if isinstance(s, ast.Return):
            value = self.expr(s.value) if s.value is not None else (lambda env, b: None)
            return lambda env, b: Return(value(env, b))
        if isinstance(s, ast.Assign):
            value = self.expr(s.value)
            stores = [self.store(t) for t in s.targets]

            def run_assign(env: dict, b: Budget) -> Any:
                v = value(env, b)
                for st in stores:
                    st(env, v, b)
                return None

            return run_assign
        if isinstance(s, ast.AugAssign):
            load, value, store, op = self.expr(s.target), self.expr(s.value), self.store(s.target), type(s.op)

            def run_aug(env: dict, b: Budget) -> Any:
                store(env, _binop(op, load(env, b), value(env, b), b), b)
                return None

            return run_aug
        if isinstance(s, ast.For):
            store, it, body = self.store(s.target), self.expr(s.iter), self.block(s.body)

            def run_for(env: dict, b: Budget) -> Any:
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

            def run_expr(env: dict, b: Budget) -> Any:
                value(env, b)
                return None

            return run_expr
        if isinstance(s, ast.Break):
            return lambda env, b: _BREAK
        if isinstance(s, ast.Continue):
            return lambda env, b: _CONTINUE
        return lambda env, b: None  # pass

    @staticmethod
    def iterate(value: Any, b: Budget):
        if not isinstance(value, (list, tuple, str, range, set, dict)):
            raise RuleError(TYPE, "for")
        for v in value:
            b.spend()
            yield v

    def store(self, t: ast.expr) -> Callable[[dict, Any, Budget], None]:
        if isinstance(t, ast.Name):
            name = t.id

            def put(env: dict, v: Any, b: Budget) -> None:
                env[name] = v

            return put
        parts = [self.store(e) for e in t.elts]  # type: ignore[attr-defined]

        def unpack(env: dict, v: Any, b: Budget) -> None:
            if not isinstance(v, (list, tuple)) or len(v) != len(parts):
                raise RuleError(TYPE, "unpack")
            for p, x in zip(parts, v):
                p(env, x, b)

        return unpack

    def expr(self, e: ast.expr) -> Callable[[dict, Budget], Any]:  # noqa: C901 - one case per node
        if isinstance(e, ast.Constant):
            literal = e.value
            return lambda env, b: literal
        if isinstance(e, ast.Name):
            name = e.id
            if name in ("True", "False", "None"):
                const = {"True": True, "False": False, "None": None}[name]
                return lambda env, b: const

            def load(env: dict, b: Budget) -> Any:
                try:
                    return env[name]
                except KeyError:
                    raise RuleError(RUNTIME, name) from None

            return load
        if isinstance(e, ast.Attribute):
            value, attr = self.expr(e.value), e.attr

            def get(env: dict, b: Budget) -> Any:
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

                def run_and(env: dict, b: Budget) -> Any:
                    b.spend()
                    v = True
                    for f in values:
                        v = f(env, b)
                        if not v:
                            return v
                    return v

                return run_and

            def run_or(env: dict, b: Budget) -> Any:
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

            def run_bin(env: dict, b: Budget) -> Any:
                b.spend()
                return _binop(op, left(env, b), right(env, b), b)

            return run_bin
        if isinstance(e, ast.UnaryOp):
            operand, fn = self.expr(e.operand), UNARY[type(e.op)]
            checked = _wrap_errors(fn, construct(e.op))

            def run_unary(env: dict, b: Budget) -> Any:
                b.spend()
                return checked(operand(env, b))

            return run_unary
        if isinstance(e, ast.Compare):
            left = self.expr(e.left)
            if len(e.ops) == 1 and isinstance(e.comparators[0], ast.Constant):
                cmp1, bound = CMPOPS[type(e.ops[0])], e.comparators[0].value
                what = construct(e.ops[0])

                def run_cmp_const(env: dict, b: Budget) -> Any:
                    b.left -= 1
                    if b.left < 0:
                        b.spend(0)
                    try:
                        a = left(env, b)
                        if a.__class__ in _CONTAINERS:
                            _charge((a,), b)
                        return cmp1(a, bound)
                    except TypeError:
                        raise RuleError(TYPE, what) from None

                return run_cmp_const
            pairs = [
                (_wrap_errors(CMPOPS[type(op)], construct(op)), self.expr(c)) for op, c in zip(e.ops, e.comparators)
            ]

            def run_cmp(env: dict, b: Budget) -> Any:
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

            def run_seq(env: dict, b: Budget) -> Any:
                return _sized(make(f(env, b) for f in elts), b)

            return run_seq
        if isinstance(e, ast.Dict):
            keys = [self.expr(k) for k in e.keys if k is not None]
            vals = [self.expr(v) for v in e.values]
            make_dict = _wrap_errors(dict, "dict")

            def run_dict(env: dict, b: Budget) -> Any:
                return _sized(make_dict((k(env, b), v(env, b)) for k, v in zip(keys, vals)), b)

            return run_dict
        if isinstance(e, ast.Subscript):
            value = self.expr(e.value)
            if isinstance(e.slice, ast.Slice):
                parts = [None if p is None else self.expr(p) for p in (e.slice.lower, e.slice.upper, e.slice.step)]
                cut = _wrap_errors(lambda v, s: v[s], "slice")

                def run_slice(env: dict, b: Budget) -> Any:
                    b.spend()
                    v = value(env, b)
                    if not isinstance(v, (list, tuple, str, range)):
                        raise RuleError(TYPE, "slice")
                    s = slice(*(None if p is None else p(env, b) for p in parts))
                    return _sized(cut(v, s), b)

                return run_slice
            index = self.expr(e.slice)
            at = _wrap_errors(lambda v, i: v[i], "index")

            def run_index(env: dict, b: Budget) -> Any:
                b.spend()
                v = value(env, b)
                if not isinstance(v, (list, tuple, str, range, dict)):
                    raise RuleError(TYPE, "index")
                return at(v, index(env, b))

            return run_index
        if isinstance(e, ast.Call):
            name = e.func.id  # type: ignore[attr-defined]
            fn = _wrap_errors(CALLS[name], name)
            args = [self.expr(a) for a in e.args]

            def run_call(env: dict, b: Budget) -> Any:
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
                elt = lambda env, b: (key(env, b), val(env, b))  # noqa: E731
            else:
                elt = self.expr(e.elt)
            kind = {ast.ListComp: list, ast.GeneratorExp: list, ast.SetComp: set, ast.DictComp: dict}[type(e)]
            make = _wrap_errors(kind, "comprehension")

            def produce(env: dict, b: Budget, level: int, out: list) -> None:
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

            def run_comp(env: dict, b: Budget) -> Any:
                inner = dict(env)  # comprehension variables stay inside
                out: list = []
                produce(inner, b, 0, out)
                return _sized(make(out), b)

            return run_comp
        raise RuleError(NOT_ALLOWED, construct(e), getattr(e, "lineno", 0))  # the checker let it through
