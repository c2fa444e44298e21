"""Turn a spec into an agent.  Each kind's module is imported only when that kind is built."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tcgtui.opponents.base import Agent
from tcgtui.opponents.human import HUMAN
from tcgtui.opponents.spec import AgentSpec, SpecError, check_supported, grammars, kinds, parse_spec

Builder = Callable[[AgentSpec, dict[str, Any]], Agent]


def _random(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.random_agent import RandomAgent

    return RandomAgent()


def _mc(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.montecarlo import MonteCarloAgent

    return MonteCarloAgent(
        spec.n,
        peek=spec.peek,
        executor=options.get("executor"),
        workers=options.get("workers", 1),
        compiled=options.get("compiled"),
        interim_budget=_budget(options),
    )


def _mcts(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.ismcts import ISMCTSAgent

    return ISMCTSAgent(
        spec.n,
        executor=options.get("executor"),
        workers=options.get("workers", 1),
        compiled=options.get("compiled"),
        interim_budget=_budget(options),
    )


def _budget(options: dict[str, Any]) -> Any:
    """``interim_budget`` (seconds): the TUI's time budget for a decision while a person waits: a search
    player's on the interim path, a reference player's that offers ``anytime`` (a deep search)."""
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.search import Budget

    seconds = options.get("interim_budget")
    return Budget(float(seconds)) if seconds else None


def _llm(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.llm.agent import build

    return build(spec, options)


def _reference(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    # each kind's module is loaded only when that kind is built (start-up time)
    from tcgtui.opponents.reference import ReferenceAgent

    return ReferenceAgent(spec, budget=_budget(options), compiled=options.get("compiled"))


# Kinds a sweep can build (a person plays through ``tcgtui play``); references are added per game.
BUILDERS: dict[str, Builder] = {"random": _random, "mc": _mc, "mcts": _mcts, "llm": _llm}


def builder(kind: str) -> Builder | None:
    if kind in BUILDERS:
        return BUILDERS[kind]
    return _reference if kind in kinds() and kind != "human" else None


def make_agent(spec: AgentSpec | str, **options: Any) -> Agent:
    """Build the agent a spec names; ``options`` carry endpoint settings, workers, etc."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    build = builder(spec.kind)
    if build is None:
        raise ValueError(f"no player of kind {spec.kind!r} is available")
    return build(spec, options)


def runnable(value: str, game: Any) -> str:
    """The spec ``value`` names, checked: it parses, can play ``game`` (a registry ``GameSpec``) and is a
    player this install can build, not a person; ``SpecError`` otherwise (each command names its flag or key)."""
    spec = parse_spec(value)
    check_supported(spec, game)
    if spec.kind == HUMAN or builder(spec.kind) is None:
        available = ", ".join(g for g in grammars(game) if g != HUMAN)
        raise SpecError(f"{value!r} is not a player this install can run; available kinds: {available}")
    return str(spec)
