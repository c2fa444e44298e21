"""``puzzler``: a non-LLM reference player, so duels, benches and tests run without a model.

As proposer it draws a puzzle it has not used in this duel from a small built-in set
(each with a correct sample solution).  As solver it cannot run code (the engine is
pure), so it guesses: a constant the code compares ``x`` with, else another literal of
the code, else a small number.  It solves the easiest puzzles and fails the others;
a floor to measure models against, not a strong player.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.duel.moves import Answer, Proposal
from tcgtui.engine.duel.state import PROPOSE, SOLVE, DuelState

BUILTIN: tuple[Proposal, ...] = (
    Proposal("def mystery(x):\n    return x == 1234\n", "1234", "a plain equality"),
    Proposal(
        "def mystery(x):\n    return isinstance(x, str) and len(x) == 7 and x == x[::-1] and x[0] == 'r'\n",
        "'racecar'",
        "a palindrome of seven letters starting with r",
    ),
    Proposal("def mystery(x):\n    return isinstance(x, int) and x > 1000 and x % 97 == 13\n", "1080", "97 * 11 + 13"),
    Proposal(
        "def mystery(x):\n    return isinstance(x, str) and sorted(x) == list('aabbc') and x[0] == 'c'\n",
        "'cabab'",
        "a permutation of aabbc starting with c",
    ),
    Proposal(
        "import hashlib\n\ndef mystery(x):\n    digest = hashlib.sha256(str(x).encode()).hexdigest()\n"
        "    return isinstance(x, int) and digest.startswith('000')\n",
        "886",
        "the first integer whose SHA-256 starts with three zeros",
    ),
    Proposal(
        "def mystery(x):\n    return isinstance(x, str) and len(x) == 4 and x.isalpha() and sum(map(ord, x)) == 400\n",
        "'dddd'",
        "ord('d') is 100",
    ),
    Proposal(
        "def mystery(x):\n    return isinstance(x, int) and 100 < x < 200 and bin(x).count('1') == 5 and x % 7 == 0\n",
        "182",
        "the only one in range",
    ),
    Proposal(
        "def mystery(x):\n    return isinstance(x, str) and len(x) == 7 and x.count('ab') == 3 and x.endswith('z')\n",
        "'abababz'",
        "three ab and a z",
    ),
)


def _literals(code: str) -> tuple[list[Any], list[Any]]:
    """Constants compared with ``x`` (first list) and every other literal of the code."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return [], []
    compared, others = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            left, right = node.left, node.comparators[0]
            for a, b in ((left, right), (right, left)):
                if isinstance(a, ast.Name) and a.id == "x" and isinstance(b, ast.Constant):
                    compared.append(b.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool):
            others.append(node.value)
    return compared, others


def guess(code: str, rng: Any) -> str:
    compared, others = _literals(code)
    if compared:
        return repr(compared[0])
    if others:
        return repr(rng.choice(others))
    return str(rng.randrange(100))


def puzzler(game: Game, arg: int | None) -> Callable[[DuelState, Any], str]:
    def choose(state: DuelState, rng: Any) -> str:
        if state.phase == PROPOSE:
            used = {r.code for r in state.history}
            fresh = [p for p in BUILTIN if p.code not in used] or list(BUILTIN)
            return rng.choice(fresh).text()
        if state.phase == SOLVE and state.current is not None:
            return Answer(guess(state.current.code, rng)).text()
        raise ValueError(f"the puzzler has nothing to do in the {state.phase} phase")

    return choose
