"""All text a person or a model reads, one folder per language.

A language is a folder of TOML files (``meta.toml`` names it and gives its
direction and plural rules); each game of the arena has a subfolder of its own,
read under the game's id (``grid/prompts.toml`` gives the keys ``grid.prompts.*``)
unless a file names its prefix (``_prefix = "cards"``: the card game's older
keys).  Adding a language means adding a folder; this module only loads and
formats, it holds no text of its own.
"""

from __future__ import annotations

import os
import string
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parent
DEFAULT = "en"
EXTRA_ENV = "TCGTUI_LOCALES"   # more folders holding language folders, ':'-separated
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# A game's file may name the prefix its keys are read under instead of "<game>.<file>": the card
# game's keys kept the names they had at the root, which its recorded prompt versions hash.
PREFIX_KEY = "_prefix"


class LocaleError(Exception):
    """A locale folder or key is missing or malformed."""


def _roots() -> list[Path]:
    extra = [Path(p) for p in os.environ.get(EXTRA_ENV, "").split(os.pathsep) if p]
    return [ROOT, *extra]


def _folder(code: str) -> Path | None:
    for root in _roots():
        if (root / code / "meta.toml").is_file():
            return root / code
    return None


def available() -> list[str]:
    """Codes of every language folder that has a meta.toml (shipped, or under $TCGTUI_LOCALES)."""
    return sorted({p.parent.name for root in _roots() for p in root.glob("*/meta.toml")})


def _flatten(prefix: str, table: dict, out: dict) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict) and "count" not in value:
            _flatten(name, value, out)
        else:
            out[name] = value


@dataclass(frozen=True)
class PluralRule:
    """One plural category's condition: exact values, or ranges on n % mod."""

    values: tuple[tuple[int, int], ...]
    mod: int | None = None

    @classmethod
    def parse(cls, text: str) -> PluralRule:
        mod = None
        parts = text.split()
        if parts and parts[0].startswith("%"):
            mod = int(parts.pop(0)[1:])
        ranges = []
        for part in " ".join(parts).split(","):
            lo, _, hi = part.strip().partition("-")
            ranges.append((int(lo), int(hi or lo)))
        return cls(tuple(ranges), mod)

    def matches(self, n: int) -> bool:
        v = abs(n) % self.mod if self.mod else abs(n)
        return any(lo <= v <= hi for lo, hi in self.values)


@dataclass
class Catalog:
    """The text of one language, with English behind it for missing keys."""

    code: str
    name: str
    rtl: bool
    plural: dict[str, PluralRule]
    entries: dict[str, object]
    fallback: Catalog | None = field(default=None, repr=False)

    def has(self, key: str) -> bool:
        return key in self.entries

    def raw(self, key: str) -> object:
        if key in self.entries:
            return self.entries[key]
        if self.fallback is not None:
            return self.fallback.raw(key)
        raise LocaleError(f"locales/{self.code}: no text for key {key!r}")

    def category(self, n: int) -> str:
        for name in CATEGORIES:
            rule = self.plural.get(name)
            if rule is not None and rule.matches(n):
                return name
        return "other"

    def t(self, key: str, /, **params: object) -> str:
        """The text under ``key``, formatted with ``params`` and plural-aware."""
        value = self.raw(key)
        if isinstance(value, dict):
            n = params[value["count"]]
            cat = self.category(int(n))  # type: ignore[arg-type]
            value = value.get(cat, value.get("other"))
        if not isinstance(value, str):
            raise LocaleError(f"locales/{self.code}: key {key!r} is not text")
        return value.format(**params) if params else value

    def items(self, prefix: str) -> list[tuple[str, object]]:
        """Entries under a dotted prefix, in file order (fallback's order if absent)."""
        source = self.entries if any(k.startswith(prefix + ".") for k in self.entries) else (
            self.fallback.entries if self.fallback else {})
        return [(k[len(prefix) + 1:], v) for k, v in source.items() if k.startswith(prefix + ".")]

    def placeholders(self, key: str) -> set[str]:
        value = self.raw(key)
        texts = [v for k, v in value.items() if k != "count"] if isinstance(value, dict) else [value]
        return {f for t in texts for _, f, _, _ in string.Formatter().parse(str(t)) if f}


def _read(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise LocaleError(f"{path}: not valid TOML ({exc})") from None


def plugin_roots() -> list[Path]:
    """The ``locales/`` folders of game plug-ins (entry point group ``tcgtui.games``), found
    without importing them: each holds ``<lang>/<game>/*.toml`` as a shipped game's folder does."""
    from importlib.metadata import entry_points
    from importlib.util import find_spec
    out = []
    from tcgtui.engine.registry import PLUGIN_GROUP
    for module in sorted({ep.module for ep in entry_points(group=PLUGIN_GROUP)}):
        try:
            spec = find_spec(module)
        except ImportError:               # a broken plug-in: registry.discover says so, in one line
            continue
        if spec is not None and spec.submodule_search_locations:
            out += [Path(p) / "locales" for p in spec.submodule_search_locations]
    return [p for p in out if p.is_dir()]


@cache
def load(code: str = DEFAULT) -> Catalog:
    """Load a language folder; unknown codes raise LocaleError naming the choices."""
    folder = _folder(code)
    if folder is None:
        raise LocaleError(
            f"unknown language {code!r}: expected one of {', '.join(available())}")
    meta = _read(folder / "meta.toml")
    entries: dict[str, object] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name != "meta.toml":
            _flatten(path.stem, _read(path), entries)
    for path in sorted(folder.glob("*/*.toml")):          # a game's own folder: keys "<game>.<file>.<key>"
        table = _read(path)
        _flatten(str(table.pop(PREFIX_KEY, f"{path.parent.name}.{path.stem}")), table, entries)
    for root in plugin_roots():                           # games from other packages bring their own
        for path in sorted((root / code).glob("*/*.toml")):
            table = _read(path)
            _flatten(str(table.pop(PREFIX_KEY, f"{path.parent.name}.{path.stem}")), table, entries)
    plural = {k: PluralRule.parse(v) for k, v in meta.get("plural", {}).items()}
    fallback = load(DEFAULT) if code != DEFAULT else None
    return Catalog(code, meta["name"], meta.get("direction", "ltr") == "rtl", plural, entries, fallback)
