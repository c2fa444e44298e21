"""Player specs such as ``random``, ``mc:100``, ``mc:100:peek``, ``mcts:500``, ``perfect``, ``ab:8``, ``llm:MODEL``.

Specs name players everywhere: on the command line, in records and in reports.
A spec is parsed once into an ``AgentSpec``; each kind owns its grammar and
says which games it can play, so a spec a game cannot take is refused with one
line.  Reference players (a perfect Tic-Tac-Toe player, a Connect Four
alpha–beta) are kinds too: their names come from the games that provide them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tcgtui.engine import registry
from tcgtui.engine.registry import LIST, GameSpec

_INT = re.compile(r"^[1-9][0-9]{0,6}$")


class SpecError(ValueError):
    pass


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    n: int = 0  # K rollouts for mc, N iterations for mcts, the argument of a reference
    peek: bool = False  # mc only: clone the true state (the public engine's cheat)
    model: str = ""  # llm only

    def __str__(self) -> str:
        if self.kind == "mc":
            return f"mc:{self.n}" + (":peek" if self.peek else "")
        if self.kind == "llm":
            return f"llm:{self.model}"
        if self.n:
            return f"{self.kind}:{self.n}"
        return self.kind


@dataclass(frozen=True)
class Kind:
    """One kind of player: its grammar, its parser and the games it can play."""

    name: str
    grammar: str
    parse: Callable[[str], AgentSpec | None]  # the text after "name:" ("" when none)
    supports: Callable[[GameSpec, AgentSpec], bool]


def _plain(name: str) -> Callable[[str], AgentSpec | None]:
    return lambda rest: AgentSpec(name) if not rest else None


def _mc(rest: str) -> AgentSpec | None:
    k, _, flag = rest.partition(":")
    return AgentSpec("mc", int(k), peek=flag == "peek") if _INT.match(k) and flag in ("", "peek") else None


def _counted(name: str) -> Callable[[str], AgentSpec | None]:
    return lambda rest: AgentSpec(name, int(rest)) if _INT.match(rest) else None


def _llm(rest: str) -> AgentSpec | None:
    return AgentSpec("llm", model=rest.strip()) if rest.strip() else None


def _searchable(game: GameSpec, spec: AgentSpec) -> bool:
    """Search needs a move list; peeking needs a compiled path that can start from a true state."""
    return game.info.moves == LIST and game.info.search and (not spec.peek or game.info.peek)


BUILTIN: tuple[Kind, ...] = (
    Kind("random", "random", _plain("random"), lambda g, s: g.info.moves == LIST),
    Kind("mc", "mc:K", _mc, _searchable),
    Kind("mcts", "mcts:N", _counted("mcts"), _searchable),
    Kind("llm", "llm:MODEL", _llm, lambda g, s: g.prompter is not None),
    Kind("human", "human", _plain("human"), lambda g, s: True),
)


def _reference_kind(ref: registry.Reference) -> Kind:
    def parse(rest: str) -> AgentSpec | None:
        if not ref.takes_arg:
            return AgentSpec(ref.name) if not rest else None
        if not rest:
            return AgentSpec(ref.name, ref.default_arg or 0)
        if _INT.match(rest) and (ref.max_arg is None or int(rest) <= ref.max_arg):
            return AgentSpec(ref.name, int(rest))
        return None

    grammar = f"{ref.name}:N" if ref.takes_arg else ref.name
    return Kind(ref.name, grammar, parse, lambda g, s: g.reference(ref.name) is not None)


def kinds() -> dict[str, Kind]:
    out = {k.name: k for k in BUILTIN}
    for game in registry.games():
        for ref in game.references:
            out.setdefault(ref.name, _reference_kind(ref))
    return out


def parse_spec(text: str) -> AgentSpec:
    t = text.strip()
    name, _, rest = t.partition(":")
    kind = kinds().get(name)
    spec = kind.parse(rest) if kind is not None else None
    if spec is None:
        raise SpecError(f"{text!r} is not a player; expected {expected()}")
    return spec


def grammars(game: GameSpec | None = None) -> list[str]:
    """The grammars a user may type (for one game, only the players it supports)."""
    return [k.grammar for k in kinds().values() if game is None or k.supports(game, AgentSpec(k.name))]


def expected(game: GameSpec | None = None) -> str:
    names = grammars(game)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def check_supported(spec: AgentSpec, game: GameSpec) -> None:
    """Refuse, in one line, a player that cannot play this game."""
    kind = kinds()[spec.kind]
    if not kind.supports(game, spec):
        raise SpecError(f"{spec} cannot play {game.id}; players for {game.id}: {expected(game)}")


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
        prefix = spec.kind if spec.kind in ("mc", "mcts") or spec.n else ""
        out.append(spec)
    return out
