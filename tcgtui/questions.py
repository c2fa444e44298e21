"""Read a deck-completion question set: a built-in set by name, or any JSON Lines file.

A file is taken whole or not at all: the first malformed line stops the load with its
file and line number, and none of the file is used.  Questions made from our own cards
name their pack; it is loaded here (the engine does no I/O) and its content hash checked.
"""

from __future__ import annotations

from pathlib import Path

from tcgtui import engine
from tcgtui.engine.deck.questions import QuestionError, QuestionSet, parse_question, set_hash
from tcgtui.engine.tcg import PackError
from tcgtui.errors import UserError
from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text

BUILTIN_DIR = Path(engine.__file__).resolve().parent / "deck" / "sets"


def builtin_sets() -> list[str]:
    return sorted(p.stem for p in BUILTIN_DIR.glob("*.jsonl"))


def _path(flag: str, spec: str) -> Path:
    path = Path(spec).expanduser()
    if path.is_file():
        return path
    if spec in builtin_sets():
        return BUILTIN_DIR / f"{spec}.jsonl"
    raise UserError(f"{flag}: {spec}: no such file or built-in question set (built-in: {', '.join(builtin_sets())})")


def read_questions(flag: str, path: Path) -> tuple:
    """Every question of a JSON Lines file, or UserError naming the first bad line."""
    out, seen = [], set()
    text = read_text(flag, path)
    for number, line in numbered_lines(text):
        try:
            q = parse_question(parse_json(line))
        except ValueError as exc:
            why = str(exc) if isinstance(exc, (QuestionError, TooDeep)) else _not_lines(text)
            raise UserError(f"{flag}: {path}:{number}: {why}; nothing of the file was used") from None
        if (q.id, q.language) in seen:
            raise UserError(f"{flag}: {path}:{number}: id {q.id!r} in {q.language} again; nothing of the file was used")
        seen.add((q.id, q.language))
        out.append(q)
    if not out:
        raise UserError(f"{flag}: {path}: no questions")
    return tuple(out)


def _not_lines(text: str) -> str:
    """Why a line is not a question: not JSON, or the file is one JSON value (ManaBench publishes so)."""
    try:
        parse_json(text)
    except ValueError:
        return "not valid JSON"
    return ("the file is one JSON value, not JSON Lines; if it holds ManaBench's questions, convert it with: "
            "tcgtui deck import FILE --cards CARD_DATABASE --out SET.jsonl")


def load_set(flag: str, spec: str) -> QuestionSet:
    """A question set with the packs its questions were made from."""
    from tcgtui.games.tcg.packs import load_pack
    path = _path(flag, spec)
    questions = read_questions(flag, path)
    packs = {}
    for q in questions:
        sim = q.sim or {}
        name = sim.get("pack")
        if not name or name in packs:
            continue
        try:
            pack = load_pack(str(sim.get("pack_dir") or name))
        except (PackError, UserError) as exc:
            raise UserError(f"{flag}: {path}: question {q.id!r} needs pack {name!r}: {exc}") from None
        if sim.get("pack_hash") not in (None, pack.hash):
            raise UserError(f"{flag}: {path}: question {q.id!r} was made from another version of pack {name!r}")
        packs[name] = pack
    return QuestionSet(path.stem, questions, set_hash(questions), packs)
