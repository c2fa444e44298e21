"""The seed's verdict on a guess whose code is Python over the seed's card API, run in tcgtui's sandbox.

The seed's translator writes a function body over its card API (``card.rank``,
``card.color``, ``card.suit.suit_name`` ...), and its judge runs that body against
the secret rule's body (its ``rules.json``) along its walk.  tcgtui never runs such
code in its own process, and never runs the guess beside the secret rule: each rule
walks in a sandbox check of its own (``sandbox_walk.py``, 100 walks of 40 steps, 52
cards a step) and reports only its own answers, as digests; the comparison and the
verdict are computed here, where no rule's code reaches.  While the rules agree their
walks are one walk, so a guess can match the secret rule's report only by answering
as the secret rule does.  Where they differ is found by asking both again, walk by
walk then step by step, so the verdict says where, as the seed's does.

A guess the seed would count wrong is wrong here: no code, code that is not a function
body, a difference, an exception in either rule.  A check that crashes, runs out of
memory or time is wrong too (the seed has no limit: a guess that never ends would hang
it), as is a report that is not one.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from tcgtui.engine.eleusis.cards import Card
from tcgtui.engine.eleusis.judge import CONTINUATIONS, SEED_SIMULATION, STEPS
from tcgtui.sandbox import ERROR, TRUE, Limits, Sandbox, Verdict

PROGRAM = Path(__file__).with_name("sandbox_walk.py").read_text(encoding="utf-8")
WALK_LIMITS = Limits(timeout=60.0)     # one rule's whole walk: ~208,000 calls at most, start-up included
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


REPORT = "Report: "                     # the program's message: its answers (sandbox_walk.Report)
REPORT_CHARS = 300                      # of a report's digests (a check's detail is at most 500 characters)
CARDS = [(rank, suit) for rank in range(1, 14) for suit in ("hearts", "diamonds", "clubs", "spades")]


def request(rule_code: str, mainline: Sequence[Card], simulations: int, turns: int, seed: int, phase: str,
            digest_chars: int, **where: Any) -> str:
    """One check's argument: a Python string literal holding the walk's JSON request (data only)."""
    return repr(json.dumps({"rule": rule_code, "mainline": [[c.rank, c.suit] for c in mainline],
                            "simulations": simulations, "turns": turns, "seed": seed, "phase": phase,
                            "digest_chars": digest_chars, **where}, ensure_ascii=True))


def _report(detail: str) -> dict[str, Any] | None:
    """The program's JSON report from a check's error detail, or None if the detail is anything else."""
    if not detail.startswith(REPORT):
        return None
    try:
        found = json.loads(detail[len(REPORT):])
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _chunks(text: Any, size: int) -> list[str] | None:
    if not isinstance(text, str) or len(text) % size:
        return None
    return [text[i:i + size] for i in range(0, len(text), size)]


def _first_difference(a: list[str], b: list[str]) -> int:
    """The first index where the two lists differ, or where one ends; the last shared one if none."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else max(len(a) - 1, 0)


class _Unusable(Exception):
    """A check gave no report (crash, time, memory) or a report that is not one: the guess is wrong."""

    def __init__(self, verdict: Verdict | None, detail: str = "") -> None:
        super().__init__(detail)
        self.verdict, self.detail = verdict, detail or (verdict.detail if verdict is not None else "")


class _Walks:
    """Both rules' checks for one verdict: each asked in its own check, only for its own answers."""

    def __init__(self, sandbox: Sandbox, truth: str, guess: str, mainline: Sequence[Card], simulations: int,
                 turns: int, seed: int) -> None:
        self.sandbox, self.rules = sandbox, {"secret": truth, "guess": guess}
        self.walk = (mainline, simulations, turns, seed)
        self.walk_chars = max(1, min(8, REPORT_CHARS // max(1, simulations)))
        self.step_chars = max(1, min(8, REPORT_CHARS // max(1, turns)))
        self.seconds = 0.0

    async def ask(self, rule: str, phase: str, **where: Any) -> dict[str, Any]:
        chars = self.step_chars if phase == "steps" else self.walk_chars
        verdict = await self.sandbox.check(PROGRAM, request(self.rules[rule], *self.walk, phase, chars, **where))
        self.seconds += verdict.seconds
        report = _report(verdict.detail) if verdict.result == ERROR else None
        if report is None:
            raise _Unusable(verdict)
        return report

    async def both(self, phase: str, **where: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        a, b = await asyncio.gather(self.ask("secret", phase, **where), self.ask("guess", phase, **where),
                                    return_exceptions=True)
        for found in (a, b):
            if isinstance(found, BaseException):
                raise found
        return a, b      # type: ignore[return-value]

    def digests(self, report: dict[str, Any], key: str, size: int) -> list[str]:
        found = _chunks(report.get(key), size)
        if found is None:
            raise _Unusable(None, f"a report without its {key}")
        return found


async def judge_code(sandbox: Sandbox, truth_code: str, guess_code: str | None, mainline: Sequence[Card],
                     simulations: int = CONTINUATIONS, turns: int = STEPS, seed: int = SEED_SIMULATION) -> CodeVerdict:
    """The seed's verdict on ``guess_code`` against ``truth_code`` from ``mainline``: each rule walks in a
    check of its own, and the verdict is computed here from their reports."""
    if not guess_code or not guess_code.strip():
        return CodeVerdict(NO_CODE)
    walks = _Walks(sandbox, truth_code, guess_code, mainline, simulations, turns, seed)
    try:
        return await _compare(walks)
    except _Unusable as exc:
        result = exc.verdict.result if exc.verdict is not None else ERROR
        return CodeVerdict(FAILED, walks.seconds, detail=exc.detail[:500], sandbox_result=result)


async def _compare(walks: _Walks) -> CodeVerdict:
    a, b = await walks.both("walks")
    for rule, report in (("secret", a), ("guess", b)):
        if "compile" in report:
            return CodeVerdict(DIFFERENT, walks.seconds, {"where": "compile", "rule": rule,
                                                          "error": str(report["compile"])[:160]}, sandbox_result=ERROR)
    if a.get("e") is False and b.get("e") is False and isinstance(a.get("d"), str) and len(a["d"]) == 32 \
            and a["d"] == b["d"]:
        return CodeVerdict(SAME, walks.seconds, sandbox_result=TRUE)
    walk = _first_difference(walks.digests(a, "w", walks.walk_chars), walks.digests(b, "w", walks.walk_chars))
    a, b = await walks.both("steps", walk=walk)
    step = _first_difference(walks.digests(a, "steps", walks.step_chars),
                             walks.digests(b, "steps", walks.step_chars))
    a = await walks.ask("secret", "cards", walk=walk, step=step)
    skip = [i for i, answer in enumerate(str(a.get("answers"))) if answer == "E"]
    b = await walks.ask("guess", "cards", walk=walk, step=step, skip=skip)
    said, answered = a.get("answers"), b.get("answers")
    if not all(isinstance(x, str) and len(x) == len(CARDS) and set(x) <= set("TFE") for x in (said, answered)):
        raise _Unusable(None, "a report without the step's answers")
    failed: dict[str, Any] | None = None
    for (rank, suit), mine, theirs in zip(CARDS, said, answered):
        if mine == "E" or theirs == "E":
            rule, report = ("secret", a) if mine == "E" else ("guess", b)
            failed = failed or {"card": [rank, suit], "rule": rule, "error": str(report.get("error"))[:160]}
            continue
        if mine != theirs:
            return CodeVerdict(DIFFERENT, walks.seconds, {"where": "walk", "walk": walk + 1, "step": step + 1,
                                                          "card": [rank, suit], "secret": mine == "T"},
                               sandbox_result=ERROR)
    if failed is not None:
        return CodeVerdict(DIFFERENT, walks.seconds, {"where": "walk", "walk": walk + 1, "step": step + 1, **failed},
                           sandbox_result=ERROR)
    raise _Unusable(None, "the rules' reports differ but their answers do not")
