"""Turn a spec into an agent.  Each kind's module registers its own builder here."""

from __future__ import annotations

from typing import Any, Callable

from tcgtui.opponents.base import Agent
from tcgtui.opponents.spec import AgentSpec, parse_spec

Builder = Callable[[AgentSpec, dict[str, Any]], Agent]


def _random(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    from tcgtui.opponents.random_agent import RandomAgent
    return RandomAgent()


def _mc(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    from tcgtui.opponents.montecarlo import MonteCarloAgent
    return MonteCarloAgent(spec.n, peek=spec.peek, executor=options.get("executor"),
                           workers=options.get("workers", 1))


def _mcts(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    from tcgtui.opponents.ismcts import ISMCTSAgent
    return ISMCTSAgent(spec.n, executor=options.get("executor"), workers=options.get("workers", 1))


BUILDERS: dict[str, Builder] = {"random": _random, "mc": _mc, "mcts": _mcts}


def _llm(spec: AgentSpec, options: dict[str, Any]) -> Agent:
    from tcgtui.opponents.llm.agent import build
    return build(spec, options)


BUILDERS["llm"] = _llm


def make_agent(spec: AgentSpec | str, **options: Any) -> Agent:
    """Build the agent a spec names; ``options`` carry endpoint settings, workers, etc."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    builder = BUILDERS.get(spec.kind)
    if builder is None:
        raise ValueError(f"no player of kind {spec.kind!r} is available")
    return builder(spec, options)
