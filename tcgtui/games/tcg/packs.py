"""Find and read card packs: the built-in ones by name, any other by directory.

A pack is a directory with ``pack.toml`` (the cards as data) and
``text/<lang>.toml`` (names per language).  A private pack stays wherever its
owner keeps it; records carry only its id and content hash.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from tcgtui import engine, locales
from tcgtui.engine.tcg import Pack, PackError, build_pack
from tcgtui.errors import UserError
from tcgtui.userfiles import TooDeep, parse_toml, read_text

BUILTIN_DIR = Path(engine.__file__).resolve().parent / "packs"
DEFAULT_PACK = "community"


def builtin_names() -> list[str]:
    return sorted(p.parent.name for p in BUILTIN_DIR.glob("*/pack.toml"))


def _read_toml(path: Path, shown: str) -> dict:
    """A pack file's tables; the file is read as every user file is (``tcgtui.userfiles``)."""
    source = read_text("", path)
    try:
        return parse_toml(source)
    except TooDeep as exc:
        raise PackError(shown, str(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise PackError(shown, f"not valid TOML ({exc})") from None


def resolve(spec: str) -> Path:
    """A built-in pack name or a directory path, to the pack's directory."""
    path = Path(spec).expanduser()
    if path.is_dir():
        return path
    if spec in builtin_names():
        return BUILTIN_DIR / spec
    if path.exists():
        raise PackError(spec, "is a file; expected a pack directory holding pack.toml")
    raise PackError(spec, f"no such directory or built-in pack (built-in: {', '.join(builtin_names())})")


def read_deck(flag: str, path: str) -> dict:
    """A deck list file (TOML: a ``[cards]`` table of card ids and counts), parsed; the pack
    checks it when the game is made.  Any problem with the file is one line naming it."""
    source = read_text(flag, path)
    try:
        doc = parse_toml(source)
    except ValueError as exc:
        raise UserError(f"{flag}: {path}: not a TOML deck list ({type(exc).__name__})") from None
    return {**doc, "file": path}


def load_pack(spec: str = DEFAULT_PACK) -> Pack:
    """Load and validate a pack; any problem raises one PackError."""
    folder = resolve(spec)
    manifest_path = folder / "pack.toml"
    if not manifest_path.is_file():
        raise PackError(str(folder), "has no pack.toml")
    manifest = _read_toml(manifest_path, str(manifest_path))
    text_dir = folder / "text"
    texts, files = {}, {}
    for path in sorted(text_dir.glob("*.toml")) if text_dir.is_dir() else []:
        texts[path.stem] = _read_toml(path, str(path))
        files[path.stem] = str(path)
    if not texts:
        raise PackError(str(text_dir), "has no language files; expected e.g. text/en.toml")
    try:
        return build_pack(manifest, texts, manifest_file=str(manifest_path), text_files=files,
                          source=str(folder))
    except RecursionError:
        raise PackError(str(manifest_path), locales.load().t("limits.nested")) from None
