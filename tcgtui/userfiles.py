"""Files a user names, read and written one way by every command.

Reading opens only a regular file, checked before the first byte is read: a FIFO
nobody writes would hang the command, ``/dev/zero`` never ends, a directory holds no
text.  A file is read up to ``MAX_BYTES`` and decoded as UTF-8, and JSON or TOML in it
may nest at most ``MAX_DEPTH`` deep (the parsers, and everything after them, recurse).
Writing goes to a temporary name beside the target, renamed when whole, so a full
disk, a read-only folder or a kill leaves the old file or none, never half of one; the
target is checked before the work that fills it.  Every problem is one UserError naming
the flag, the file and what was expected.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Iterable, Iterator

from tcgtui import locales
from tcgtui.errors import UserError

MAX_BYTES = 256 << 20          # a file read whole (a merged baseline of many people's games stays far below)
MAX_DEPTH = 64                 # JSON or TOML nesting: our own files nest less than 10 deep
_KINDS = ((stat.S_ISDIR, "directory"), (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "device"),
          (stat.S_ISBLK, "device"), (stat.S_ISSOCK, "socket"))


class TooDeep(ValueError):
    """JSON or TOML nested deeper than ``MAX_DEPTH``."""

    def __init__(self) -> None:
        super().__init__(locales.load().t("limits.nested"))


def where(flag: str, path: Any) -> str:
    """How a message names a file: with the flag that named it, when there is one."""
    return f"{flag} {path}" if flag else str(path)


def _refuse(key: str, flag: str, path: Any, **params: Any) -> UserError:
    return UserError(locales.load().t(f"limits.{key}", file=where(flag, path), **params))


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _special(mode: int) -> str | None:
    """What a file is when it is not a regular file (a directory, a FIFO, a device...), else None."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "special file")


def check_regular(flag: str, path: str | Path) -> bool:
    """True when ``path`` is a regular file, False when nothing is there; a FIFO, a device or a
    directory is refused (SQLite would open /dev/zero as a database and write beside it)."""
    try:
        mode = os.stat(Path(path).expanduser()).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _refuse("unreadable", flag, path, reason=_why(exc)) from None
    kind = _special(mode)
    if kind is not None:
        raise _refuse("not_regular", flag, path, kind=kind)
    return True


def read_bytes(flag: str, path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file (``-``: standard input), at most ``limit`` of them."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            fd = os.open(Path(path).expanduser(), os.O_RDONLY | os.O_NONBLOCK)   # a FIFO opens without waiting
        except FileNotFoundError:
            raise _refuse("missing", flag, path) from None
        except OSError as exc:
            raise _refuse("unreadable", flag, path, reason=_why(exc)) from None
        kind = _special(os.fstat(fd).st_mode)
        if kind is not None:
            os.close(fd)
            raise _refuse("not_regular", flag, path, kind=kind)
        with os.fdopen(fd, "rb") as fh:
            try:
                data = fh.read(limit + 1)
            except OSError as exc:
                raise _refuse("unreadable", flag, path, reason=_why(exc)) from None
    if len(data) > limit:
        raise _refuse("too_big", flag, path, limit=f"{limit:,}")
    return data


def read_text(flag: str, path: str | Path, limit: int = MAX_BYTES) -> str:
    """A regular file's text (UTF-8); a byte that is not UTF-8 is named with its offset."""
    data = read_bytes(flag, path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _refuse("not_utf8", flag, path, offset=exc.start) from None


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) for every line of ``text`` that is not blank."""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield number, line


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")          # NaN, Infinity: Python's extension, which nobody else reads


def parse_json(text: str, depth: int = MAX_DEPTH) -> Any:
    """JSON (no NaN or Infinity) nested at most ``depth`` deep; ValueError (TooDeep) otherwise."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise TooDeep() from None
    check_depth(value, depth)
    return value


def parse_toml(text: str, depth: int = MAX_DEPTH) -> dict[str, Any]:
    """TOML nested at most ``depth`` deep; ValueError (TOMLDecodeError, TooDeep) otherwise."""
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise TooDeep() from None
    check_depth(value, depth)
    return value


def check_depth(value: Any, depth: int = MAX_DEPTH) -> None:
    """TooDeep when lists and tables in ``value`` nest more than ``depth`` deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if level > depth:
            raise TooDeep()
        stack.extend((child, level + 1) for child in children)


def check_target(flag: str, path: str | Path, reads: Iterable[tuple[str, str | Path]] = ()) -> Path:
    """Before any work: the target is no directory, none of the files the command ``reads`` (flag, path),
    and its folder takes a new file (a probe is made and removed), so a long job never ends on a
    target it cannot write, nor replaces its own input."""
    target = Path(path).expanduser()
    for other_flag, other in reads:
        try:
            same = str(other) != "-" and target.exists() and target.samefile(Path(other).expanduser())
        except OSError:
            same = False
        if same:
            raise _refuse("same_as_input", flag, path, other=other_flag)
    try:
        if target.is_dir():
            raise _refuse("directory", flag, path)
        check_regular(flag, target)         # a FIFO or a device is not replaced by a file
        if not target.parent.is_dir():
            raise _refuse("no_folder", flag, path)
        fd, probe = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _refuse("unwritable", flag, path, reason=_why(exc)) from None
    return target


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(flag: str, path: str | Path, chunks: Iterable[str | bytes]) -> Path:
    """Write ``chunks`` (text, as UTF-8, or bytes) to ``path`` whole or not at all: a temporary file
    beside it, renamed."""
    target = check_target(flag, path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:40]}.", suffix=".tmp")
    except OSError as exc:
        raise _refuse("unwritable", flag, path, reason=_why(exc)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fd, 0o666 & ~_umask())           # as an ordinary new file, not mkstemp's 0600
            for chunk in chunks:
                fh.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
            fh.flush()
            os.fsync(fd)
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise _refuse("unwritable", flag, path, reason=_why(exc)) from None
    except BaseException:
        _remove(tmp)
        raise
    return target


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
