"""The 26 rules of the benchmark, read from ``rules.toml`` shipped in this package.

Reading a data file of the package itself is not I/O in the engine's sense:
it is part of the rules, like a table in code, only easier to review.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tcgtui.engine.eleusis.rulelang import Rule, compile_rule


@dataclass(frozen=True)
class LibraryRule:
    number: int
    code: str
    name: dict[str, str]
    description: dict[str, str]

    @property
    def rule(self) -> Rule:
        return compiled(self.number)

    def name_in(self, lang: str) -> str:
        return self.name.get(lang) or self.name["en"]

    def description_in(self, lang: str) -> str:
        return self.description.get(lang) or self.description["en"]


@cache
def library() -> tuple[LibraryRule, ...]:
    data = tomllib.loads(resources.files(__package__).joinpath("rules.toml").read_text(encoding="utf-8"))
    rules = tuple(
        LibraryRule(int(r["number"]), str(r["code"]).strip("\n"), dict(r["name"]), dict(r["description"]))
        for r in data["rule"]
    )
    assert [r.number for r in rules] == list(range(len(rules))), "rules.toml numbers its rules 0, 1, 2..."
    return rules


@cache
def compiled(number: int) -> Rule:
    return compile_rule(library()[number].code)


COUNT = 26
