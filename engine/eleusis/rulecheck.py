"""The rule language's whitelist: a rule's syntax tree may hold only the constructs the language has.

Every refusal names the construct (``not allowed: import``, ``unknown name 'open'``,
``attribute '__class__'``) and its line; the walk also counts nodes and branches
for the complexity measure.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import NoReturn

from tcgtui.engine.eleusis.rulespec import (
    ARGS,
    ATTRIBUTE,
    ATTRIBUTES,
    BINOPS,
    CALL,
    CALLS,
    CMPOPS,
    MAX_DEPTH,
    MAX_NUMBER,
    NOT_ALLOWED,
    NUMBER,
    TOO_DEEP,
    UNARY,
    UNKNOWN_NAME,
    RuleError,
    construct,
)

_STATEMENTS = (ast.If, ast.Return, ast.Assign, ast.AugAssign, ast.For, ast.Expr, ast.Pass, ast.Break, ast.Continue)


def unwrap(tree: ast.Module) -> list[ast.stmt]:
    """The body to run: the module itself, or the body of a single ``def f(card, mainline):``."""
    body = tree.body
    if len(body) == 1 and isinstance(body[0], ast.FunctionDef):
        fn = body[0]
        a = fn.args
        names = [x.arg for x in a.args]
        if (
            names == list(ARGS)
            and not (a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs)
            and not fn.decorator_list
        ):
            return fn.body
    if len(body) == 1 and isinstance(body[0], ast.Expr):  # a bare expression is its own answer
        expr = body[0]
        return [ast.copy_location(ast.Return(expr.value), expr)]
    return body


class Checker:
    """Walks the tree once: every node must be one the language has."""

    def __init__(self, locals_: set[str]) -> None:
        self.locals = locals_
        self.uses_mainline = False
        self.nodes = 0
        self.branches = 0

    def fail(self, kind: str, detail: str, node: ast.AST) -> NoReturn:
        raise RuleError(kind, detail, getattr(node, "lineno", 0))

    def stmts(self, body: Sequence[ast.stmt], depth: int) -> None:
        for s in body:
            self.stmt(s, depth + 1)

    def stmt(self, s: ast.stmt, depth: int) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH:
            self.fail(TOO_DEEP, str(MAX_DEPTH), s)
        if not isinstance(s, _STATEMENTS):
            self.fail(NOT_ALLOWED, construct(s), s)
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
        self.fail(NOT_ALLOWED, construct(t), t)

    def op(self, op: ast.AST, node: ast.AST) -> None:
        if type(op) not in BINOPS:
            self.fail(NOT_ALLOWED, construct(op), node)

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
            if type(e.op) not in UNARY:
                self.fail(NOT_ALLOWED, construct(e.op), e)
            self.expr(e.operand, d)
        elif isinstance(e, ast.Compare):
            for op in e.ops:
                if type(op) not in CMPOPS:
                    self.fail(NOT_ALLOWED, construct(op), e)
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
                self.expr(e.func, d)  # names the attribute or name it calls through
                self.fail(CALL, construct(e.func), e)
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
            self.fail(NOT_ALLOWED, construct(e), e)


def assigned(body: Sequence[ast.stmt]) -> set[str]:
    """Every name the body binds (assignments, loop and comprehension variables)."""
    out: set[str] = set()
    for node in ast.walk(ast.Module(body=list(body), type_ignores=[])):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return out - set(ARGS)
