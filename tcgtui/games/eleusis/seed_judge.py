"""The seed's verdict on a guess whose code is Python over the seed's card API, run in tcgtui's sandbox.

The seed's translator writes a function body over its card API (``card.rank``,
``card.color``, ``card.suit.suit_name`` ...), and its judge runs that body against
the secret rule's body (its ``rules.json``) along its walk.  tcgtui never runs such
code in its own process: the whole walk (both rules, 100 walks of 40 steps, 52
cards a step) goes into one check of ``tcgtui.sandbox`` (``sandbox_walk.py`` is the
check's code, the request its argument), under the sandbox's time and memory
limits.  A guess the seed would count wrong is wrong here: no code, code that is
not a function body, a difference, an exception in either rule.  A check that
crashes, runs out of memory or time is wrong too (the seed has no limit: a guess
that never ends would hang it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from tcgtui.engine.eleusis.cards import Card
from tcgtui.engine.eleusis.judge import CONTINUATIONS, SEED_SIMULATION, STEPS
from tcgtui.sandbox import ERROR, TRUE, Limits, Sandbox

PROGRAM = Path(__file__).with_name("sandbox_walk.py").read_text(encoding="utf-8")
WALK_LIMITS = Limits(timeout=60.0)     # a whole verdict: ~416,000 rule calls at most, start-up included
DIFFERS = "Differs: "                  # the program's message for a difference (sandbox_walk.Differs)
NO_CODE, SAME, DIFFERENT, FAILED = "no_code", "same", "differs", "failed"


@dataclass(frozen=True)
class CodeVerdict:
    """``outcome``: ``same``, ``differs`` (``where`` says where), ``no_code`` (nothing to run, as the seed's
    translator gave up) or ``failed`` (the check crashed or ran out of time or memory: ``detail``)."""

    outcome: str
    seconds: float = 0.0
    where: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    sandbox_result: str = ""

    @property
    def equivalent(self) -> bool:
        return self.outcome == SAME

    def to_json(self) -> dict[str, Any]:
        return {"equivalent": self.equivalent, "outcome": self.outcome, "where": self.where,
                "detail": self.detail, "sandbox": self.sandbox_result, "seconds": round(self.seconds, 3)}


def request(truth_code: str, guess_code: str, mainline: Sequence[Card], simulations: int = CONTINUATIONS,
            turns: int = STEPS, seed: int = SEED_SIMULATION) -> str:
    """The check's argument: a Python string literal holding the walk's JSON request (data only)."""
    return repr(json.dumps({"truth": truth_code, "guess": guess_code, "mainline": [[c.rank, c.suit] for c in mainline],
                            "simulations": simulations, "turns": turns, "seed": seed}, ensure_ascii=True))


def _where(detail: str) -> dict[str, Any] | None:
    """The program's JSON location from a ``Differs`` detail, or None if the detail is anything else."""
    if not detail.startswith(DIFFERS):
        return None
    try:
        found = json.loads(detail[len(DIFFERS):])
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


async def judge_code(sandbox: Sandbox, truth_code: str, guess_code: str | None, mainline: Sequence[Card],
                     simulations: int = CONTINUATIONS, turns: int = STEPS, seed: int = SEED_SIMULATION) -> CodeVerdict:
    """The seed's verdict on ``guess_code`` against ``truth_code`` from ``mainline``, in one sandbox check."""
    if not guess_code or not guess_code.strip():
        return CodeVerdict(NO_CODE)
    verdict = await sandbox.check(PROGRAM, request(truth_code, guess_code, mainline, simulations, turns, seed))
    if verdict.result == TRUE:
        return CodeVerdict(SAME, verdict.seconds, sandbox_result=verdict.result)
    where = _where(verdict.detail) if verdict.result == ERROR else None
    if where is not None:
        return CodeVerdict(DIFFERENT, verdict.seconds, where, sandbox_result=verdict.result)
    return CodeVerdict(FAILED, verdict.seconds, detail=verdict.detail[:500], sandbox_result=verdict.result)
