"""The duel's moves as text: canonical JSON objects, so a record replays byte for byte.

A proposal ``{"code", "explanation", "solution"}``, an answer ``{"value"}``, a solver's
time running out with nothing written ``{"time_up": true}`` (duels with a time to solve),
and the referee's verdict on a pending check ``{"detail", "result", "seconds"}``.  The value
and the solution are kept exactly as the player wrote them after ``SOLUTION:``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

RESULTS = ("true", "false", "error", "timeout")
CODE_LIMIT = 20_000  # characters of puzzle code a proposal may hold
VALUE_LIMIT = 5_000  # characters of a value or solution
TEXT_LIMIT = 20_000  # characters of a private explanation


@dataclass(frozen=True)
class Proposal:
    code: str
    solution: str
    explanation: str = ""

    def text(self) -> str:
        return _dump({"code": self.code, "explanation": self.explanation, "solution": self.solution})


@dataclass(frozen=True)
class Answer:
    value: str

    def text(self) -> str:
        return _dump({"value": self.value})


@dataclass(frozen=True)
class TimeUp:
    """The solver's time ran out with no answer written: the round is a failure."""

    def text(self) -> str:
        return _dump({"time_up": True})


@dataclass(frozen=True)
class Verdict:
    result: str
    seconds: float = 0.0
    detail: str = ""

    def text(self) -> str:
        return _dump({"detail": self.detail, "result": self.result, "seconds": round(float(self.seconds), 4)})

    @property
    def exception(self) -> bool:
        """An error or a timeout: the outcome takes its ``-ex`` variant."""
        return self.result in ("error", "timeout")


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _load(text: str) -> dict[str, Any] | None:
    try:
        obj = json.loads(text)
    except (TypeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def parse_proposal(text: str) -> Proposal | None:
    obj = _load(text)
    if obj is None or set(obj) - {"code", "solution", "explanation"}:
        return None
    code, solution, expl = obj.get("code"), obj.get("solution"), obj.get("explanation", "")
    if not (isinstance(code, str) and isinstance(solution, str) and isinstance(expl, str)):
        return None
    if (
        not code.strip()
        or not solution.strip()
        or len(code) > CODE_LIMIT
        or len(solution) > VALUE_LIMIT
        or len(expl) > TEXT_LIMIT
    ):
        return None
    return Proposal(code, solution, expl)


def parse_answer(text: str) -> Answer | None:
    obj = _load(text)
    if obj is None or set(obj) != {"value"} or not isinstance(obj["value"], str):
        return None
    value = obj["value"]
    return Answer(value) if value.strip() and len(value) <= VALUE_LIMIT else None


def parse_time_up(text: str) -> TimeUp | None:
    obj = _load(text)
    return TimeUp() if obj == {"time_up": True} else None


def parse_verdict(text: str) -> Verdict | None:
    obj = _load(text)
    if obj is None or set(obj) - {"result", "seconds", "detail"} or obj.get("result") not in RESULTS:
        return None
    seconds, detail = obj.get("seconds", 0.0), obj.get("detail", "")
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0 or not isinstance(detail, str):
        return None
    return Verdict(obj["result"], float(seconds), detail)
