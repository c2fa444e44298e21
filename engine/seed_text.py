"""A seed's prompt text read from its source by syntax tree, never run: an f-string as its pieces.

The seed protocols (each game's ``seed_prompter`` or ``seed/prompt`` module) need the
seed's exact wording, which stays in the user's checkout; they find its f-strings and keep them as
literal text and ``("expr", source)`` for each interpolation, then fill those in themselves.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

Parts = tuple[Any, ...]
SOURCE_LIMIT = 4 << 20  # bytes of one seed source file: the seeds' own are below 100 KiB


def parse_source(source: str, path: str, refuse: Callable[[str], Exception]) -> ast.Module:
    """``source`` as a syntax tree; ``refuse(why)`` for anything this cannot read: not Python, too
    large, nested deeper than the parser recurses, or more than its memory holds (never a traceback)."""
    if len(source) > SOURCE_LIMIT:
        raise refuse(f"{path} is not Python this protocol can read (over {SOURCE_LIMIT >> 20} MiB)")
    try:
        return ast.parse(source)
    except SyntaxError as exc:
        raise refuse(f"{path} is not Python this protocol can read ({exc.msg}, line {exc.lineno})") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        why = (
            "nested too deeply"
            if isinstance(exc, RecursionError)
            else "too large to parse"
            if isinstance(exc, MemoryError)
            else str(exc)
        )
        raise refuse(f"{path} is not Python this protocol can read ({why})") from None


def fstring_parts(node: ast.AST | None, shape: Callable[[str], Exception]) -> Parts:
    """``node`` (a string or an f-string) as its pieces.  Only plain interpolations are read: a
    format spec or a conversion (``!r``) would change the text, so ``shape(what)`` is raised instead."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if not isinstance(node, ast.JoinedStr):
        raise shape(f"f-string at line {getattr(node, 'lineno', '?')}")
    out: list[Any] = []
    for piece in node.values:
        if isinstance(piece, ast.Constant):
            out.append(piece.value)
        elif isinstance(piece, ast.FormattedValue) and piece.format_spec is None and piece.conversion == -1:
            out.append(("expr", ast.unparse(piece.value)))
        else:
            raise shape(f"plain interpolation at line {piece.lineno}")
    return tuple(out)
