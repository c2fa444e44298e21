"""The Token Games' own prompts under ``--protocol seed``, their wording read at run time.

tcgtui carries none of the seed's prompt text: ``DuelWording.read`` takes it from the
user's checkout (``--upstream DIR``) by parsing the source and reading its string
constants and f-string pieces: from ``arena.py`` the proposer's instructions (the
module constant ``promptInventPuzzle`` returns), the template of one earlier puzzle
(the constant whose ``.format`` that function calls, and the words it puts in), the
line for an empty history, the history section (the f-string it appends), each
outcome's words (the tuples ``runGameTurn`` returns) and the solver's prompt
(``promptSolvePuzzle``).  The puzzle bank reads only the solver's prompt, from
``llm_utils.py``: the seed's ``mine_puzzles.py`` imports it from there.

A checkout whose source is not in this shape is one line naming the file and what
was expected (``WordingError``), never a guess.
"""

from __future__ import annotations

import ast
import hashlib
import json
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.seed_text import parse_source

REPOSITORY = "thetokengames/thetokengames"
ARENA, UTILS = "arena.py", "llm_utils.py"
PROPOSER_FN, SOLVER_FN, TURN_FN = "promptInventPuzzle", "promptSolvePuzzle", "runGameTurn"
PAST_FIELDS = {"proposer", "code", "expl", "outcome"}  # what the seed fills one earlier puzzle with
SEED_OUTCOMES = ("success", "failure", "puzzle-wrong")  # the results runGameTurn returns

Parts = tuple[Any, ...]  # literal strings, and ("expr", source) for each interpolation


class WordingError(ValueError):
    """The checkout's source is not in the shape this protocol reads (another version of the code)."""


@dataclass(frozen=True)
class DuelWording:
    """Everything The Token Games' arena prompts are made of."""

    proposer: str  # the rules and the proposer's instructions
    past: str  # one earlier puzzle, a str.format template (PAST_FIELDS)
    yours: str  # who proposed it, the reader...
    theirs: str  # ...or the opponent
    hidden: str  # in place of the opponent's explanation
    outcomes: dict[str, str]  # a round's result (SEED_OUTCOMES) as the history says it
    empty: str  # the history before the first round
    history: Parts  # the history section, interpolating ``past``
    solver: Parts  # the solver's prompt, interpolating ``puzzle``

    @classmethod
    def read(cls, text: Callable[[str], str]) -> DuelWording:
        """``text(path)``: a file of the checkout (the caller does the reading)."""
        tree = _tree(text, ARENA)
        propose = _function(tree, PROPOSER_FN, ARENA)
        returns = [n for n in ast.walk(propose) if isinstance(n, ast.Return) and n.value is not None]
        plain = next((v for r in returns if isinstance(v := r.value, ast.Name)), None)
        joined = next(
            (
                v.right
                for r in returns
                if isinstance(v := r.value, ast.BinOp)
                and isinstance(v.op, ast.Add)
                and isinstance(v.left, ast.Name)
                and isinstance(v.right, ast.JoinedStr)
            ),
            None,
        )
        if plain is None or joined is None:
            raise _shape(ARENA, f"{PROPOSER_FN} returning the proposer's prompt, alone and with an f-string added")
        call = next(
            (
                n
                for n in ast.walk(propose)
                if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "format"
                and isinstance(n.func.value, ast.Name)
            ),
            None,
        )
        template = call.func.value if call is not None and isinstance(call.func, ast.Attribute) else None
        if call is None or not isinstance(template, ast.Name):
            raise _shape(ARENA, f"a template's .format call in {PROPOSER_FN}")
        keywords = {k.arg: k.value for k in call.keywords}
        if set(keywords) != PAST_FIELDS:
            raise _shape(ARENA, f".format({', '.join(sorted(PAST_FIELDS))}) in {PROPOSER_FN}")
        past = _constant(tree, template.id, ARENA)
        fields = {name for _, name, _, _ in string.Formatter().parse(past) if name is not None}
        if not fields <= PAST_FIELDS:
            raise _shape(ARENA, f"{template.id} filled with only {', '.join(sorted(PAST_FIELDS))}")
        yours, theirs = _choice(keywords["proposer"], "proposer")
        _, hidden = _choice(keywords["expl"], "expl", body_literal=False)
        return cls(
            proposer=_constant(tree, plain.id, ARENA),
            past=past,
            yours=yours,
            theirs=theirs,
            hidden=hidden,
            outcomes=_outcomes(_function(tree, TURN_FN, ARENA)),
            empty=_empty(propose),
            history=_parts(joined, ARENA, {"past"}),
            solver=solver_parts(text, ARENA),
        )

    def digest(self) -> str:
        blob = json.dumps(
            [
                self.proposer,
                self.past,
                self.yours,
                self.theirs,
                self.hidden,
                self.outcomes,
                self.empty,
                self.history,
                self.solver,
            ],
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:10]


def solver_parts(text: Callable[[str], str], path: str) -> Parts:
    """The solver's prompt: the f-string ``promptSolvePuzzle(puzzle)`` returns in ``path``."""
    fn = _function(_tree(text, path), SOLVER_FN, path)
    found = next(
        (n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and isinstance(n.value, ast.JoinedStr)), None
    )
    if found is None:
        raise _shape(path, f"{SOLVER_FN} returning an f-string")
    return _parts(found, path, {"puzzle"})


def parts_digest(parts: Parts) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:10]


def render(parts: Parts, slots: dict[str, str]) -> str:
    """An f-string's pieces with its names filled in (``_parts`` allowed only names in ``slots``)."""
    return "".join(p if isinstance(p, str) else slots[p[1]] for p in parts)


# --- reading the source ---------------------------------------------------------------------------


def _shape(path: str, what: str) -> WordingError:
    return WordingError(f"--upstream: {path} has no {what}; expected the source of {REPOSITORY}")


def _tree(text: Callable[[str], str], path: str) -> ast.Module:
    return parse_source(text(path), path, lambda why: WordingError(f"--upstream: {why}"))


def _function(tree: ast.Module, name: str, path: str) -> ast.FunctionDef:
    found = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if found is None:
        raise _shape(path, f"function {name}")
    return found


def _constant(tree: ast.Module, name: str, path: str) -> str:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                return node.value.value
            break
    raise _shape(path, f"string constant {name}")


def _choice(node: ast.expr, keyword: str, body_literal: bool = True) -> tuple[str, str]:
    """``A if ... else B`` given to ``.format(keyword=...)``: its literal branches."""

    def literal(n: ast.expr) -> str | None:
        return n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) else None

    if (
        isinstance(node, ast.IfExp)
        and literal(node.orelse) is not None
        and (not body_literal or literal(node.body) is not None)
    ):
        return literal(node.body) or "", literal(node.orelse) or ""
    raise _shape(ARENA, f"'{keyword}=... if ... else \"...\"' in {PROPOSER_FN}")


def _empty(fn: ast.FunctionDef) -> str:
    """``if past == "": past = "..."``: the history before the first round."""
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and any(isinstance(c, ast.Constant) and c.value == "" for c in node.test.comparators)
            and node.body
            and isinstance(node.body[0], ast.Assign)
            and isinstance(node.body[0].value, ast.Constant)
            and isinstance(node.body[0].value.value, str)
        ):
            return node.body[0].value.value
    raise _shape(ARENA, f"the words for an empty history in {PROPOSER_FN}")


def _outcomes(fn: ast.FunctionDef) -> dict[str, str]:
    """``return "success", [(code, explanation, "Solved", player)], {...}``: each result's words."""
    out: dict[str, str] = {}
    for node in ast.walk(fn):
        value = node.value if isinstance(node, ast.Return) else None
        if not (
            isinstance(value, ast.Tuple)
            and len(value.elts) >= 2
            and isinstance(value.elts[0], ast.Constant)
            and isinstance(value.elts[1], ast.List)
            and len(value.elts[1].elts) == 1
            and isinstance(value.elts[1].elts[0], ast.Tuple)
            and len(value.elts[1].elts[0].elts) == 4
        ):
            continue
        words = value.elts[1].elts[0].elts[2]
        if isinstance(words, ast.Constant) and isinstance(words.value, str):
            out.setdefault(str(value.elts[0].value), words.value)
    if set(SEED_OUTCOMES) - set(out):
        raise _shape(ARENA, f"the words of each result ({', '.join(SEED_OUTCOMES)}) in {TURN_FN}'s returns")
    return {k: out[k] for k in SEED_OUTCOMES}


def _parts(node: ast.JoinedStr, path: str, names: set[str]) -> Parts:
    """An f-string as its pieces; each interpolation must be a plain one of ``names``."""
    out: list[Any] = []
    for piece in node.values:
        if isinstance(piece, ast.Constant):
            out.append(piece.value)
        elif (
            isinstance(piece, ast.FormattedValue)
            and piece.format_spec is None
            and piece.conversion == -1
            and isinstance(piece.value, ast.Name)
            and piece.value.id in names
        ):
            out.append(("expr", piece.value.id))
        else:
            raise _shape(path, f"f-string interpolating only {', '.join(sorted(names))} (line {piece.lineno})")
    return tuple(out)
