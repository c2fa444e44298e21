"""Agent specs such as ``random``, ``mc:100``, ``mc:100:peek``, ``mcts:500``, ``llm:MODEL``.

Specs name players everywhere: on the command line, in records and in reports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("random", "mc", "mcts", "llm", "human")
_INT = re.compile(r"^[1-9][0-9]{0,6}$")


class SpecError(ValueError):
    pass


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    n: int = 0              # K rollouts for mc, N iterations for mcts
    peek: bool = False      # mc only: clone the true state (the public engine's cheat)
    model: str = ""         # llm only

    def __str__(self) -> str:
        if self.kind == "mc":
            return f"mc:{self.n}" + (":peek" if self.peek else "")
        if self.kind == "mcts":
            return f"mcts:{self.n}"
        if self.kind == "llm":
            return f"llm:{self.model}"
        return self.kind


EXPECTED = "random, mc:K, mc:K:peek, mcts:N or llm:MODEL"


def parse_spec(text: str) -> AgentSpec:
    t = text.strip()
    kind, _, rest = t.partition(":")
    if kind in ("random", "human") and not rest:
        return AgentSpec(kind)
    if kind == "mc":
        k, _, flag = rest.partition(":")
        if _INT.match(k) and flag in ("", "peek"):
            return AgentSpec("mc", int(k), peek=flag == "peek")
    if kind == "mcts" and _INT.match(rest):
        return AgentSpec("mcts", int(rest))
    if kind == "llm" and rest.strip():
        return AgentSpec("llm", model=rest.strip())
    raise SpecError(f"{text!r} is not a player; expected {EXPECTED}")


def expand_specs(text: str) -> list[AgentSpec]:
    """``mc:1,2,5`` is shorthand for ``mc:1``, ``mc:2``, ``mc:5``; items may also be full specs."""
    out: list[AgentSpec] = []
    prefix = ""
    for item in (p.strip() for p in text.split(",")):
        if not item:
            raise SpecError(f"{text!r} has an empty item; expected e.g. mc:1,2,5")
        if _INT.match(item) and prefix:
            out.append(parse_spec(f"{prefix}:{item}"))
            continue
        spec = parse_spec(item)
        prefix = spec.kind if spec.kind in ("mc", "mcts") else ""
        out.append(spec)
    return out
