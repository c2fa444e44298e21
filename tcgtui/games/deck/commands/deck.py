"""``tcgtui deck make``: deck-completion questions from a pack, each answer proved by simulation.

Candidates are dealt from ``--seed`` (candidate i from its own stream), simulated in the
bench's process pool, and kept only when the verdict (``engine/deck/make.py``) says the
best option beats every other at the 95 % level.  Kept questions are written as JSON Lines,
one file per language (``--out q.jsonl --lang en,ar``: ``q.en.jsonl`` and ``q.ar.jsonl``, the
same questions), with the win rates and the simulation's setup.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcgtui.flags import LANGS
from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.limits import MAX_CONCURRENCY, check_count, check_seed
from tcgtui.games.tcg.packs import BUILTIN_DIR, load_pack, resolve
from tcgtui.userfiles import check_target, write_atomic

if TYPE_CHECKING:
    from tcgtui.engine.deck.make import Candidate

DEFAULTS = {"pack": "frontier", "count": 10, "playouts": 5, "games": 200, "field": 4, "seed": 0}


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    m = sub.add_parser("make", help=text.t("cmd_deck.make"))
    m.add_argument("--pack", default=DEFAULTS["pack"], metavar="DIR", help=text.t("cmd_deck.pack"))
    m.add_argument("--count", type=int, default=DEFAULTS["count"], metavar="N", help=text.t("cmd_deck.count"))
    m.add_argument("--out", required=True, metavar="FILE", help=text.t("cmd_deck.out"))
    LANGS.add(m, text.t("cmd_deck.lang"))
    m.add_argument("--playouts", type=int, default=DEFAULTS["playouts"], metavar="K", help=text.t("cmd_deck.playouts"))
    m.add_argument("--games", type=int, default=DEFAULTS["games"], metavar="G", help=text.t("cmd_deck.games"))
    m.add_argument("--field", type=int, default=DEFAULTS["field"], metavar="F", help=text.t("cmd_deck.field"))
    m.add_argument("--seed", type=int, default=DEFAULTS["seed"], metavar="N", help=text.t("cmd_deck.seed"))
    m.add_argument("--max-candidates", type=int, default=None, metavar="N", help=text.t("cmd_deck.max_candidates"))
    m.add_argument("--workers", type=int, default=None, metavar="N", help=text.t("cmd_deck.workers"))
    m.add_argument("--ray", default=None, metavar="ADDRESS", help=text.t("cmd_bench.ray"))
    i = sub.add_parser("import", help=text.t("cmd_deck.import"))
    i.add_argument("file", metavar="FILE", help=text.t("cmd_deck.import_file"))
    i.add_argument("--cards", required=True, metavar="FILE", help=text.t("cmd_deck.cards"))
    i.add_argument("--out", required=True, metavar="FILE", help=text.t("cmd_deck.out"))
    i.add_argument("--seed", type=int, default=0, metavar="N", help=text.t("cmd_deck.import_seed"))


def published_questions(flag: str, path: str) -> list[tuple[int, Any]]:
    """(line or position, question) from a file of ManaBench questions: one JSON value (a question
    or a list of them) or JSON Lines."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.userfiles import TooDeep, numbered_lines, parse_json, read_text
    text = read_text(flag, path)
    try:
        whole = parse_json(text)
    except TooDeep as exc:
        raise UserError(f"{flag}: {path}: {exc}") from None
    except ValueError:
        whole = None
    if isinstance(whole, list):
        return list(enumerate(whole, 1))
    if isinstance(whole, dict):
        return [(1, whole)]
    out = []
    for number, line in numbered_lines(text):
        try:
            out.append((number, parse_json(line)))
        except ValueError:
            raise UserError(f"{flag}: {path}:{number}: not valid JSON; nothing of the file was used") from None
    return out


def import_questions(args: argparse.Namespace) -> int:
    """``tcgtui deck import``: ManaBench's published questions, with card text, as a question set."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.games.deck.card_database import load
    from tcgtui.engine.deck.manabench import import_question
    from tcgtui.engine.deck.questions import QuestionError
    text = locales.load()
    check_seed("--seed", args.seed)
    check_target("--out", args.out, reads=(("FILE", args.file), ("--cards", args.cards)))
    rows = published_questions(args.file, args.file)
    if not rows:
        raise UserError(f"{args.file}: no questions")
    lookup = load("--cards", args.cards)
    lines, seen = [], set()
    for number, obj in rows:
        try:
            q = import_question(obj, lookup, args.seed)
        except QuestionError as exc:
            raise UserError(f"{args.file}:{number}: {exc}; nothing was written") from None
        if q.id in seen:
            raise UserError(f"{args.file}:{number}: id {q.id!r} again; nothing was written")
        seen.add(q.id)
        lines.append(json.dumps(q.to_json(), ensure_ascii=False) + "\n")
    write_atomic("--out", args.out, lines)
    print(clean(text.t("cmd_deck.imported", count=len(lines), path=args.out)), file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> None:
    for flag, value, lo, hi in (("--count", args.count, 1, 100_000), ("--playouts", args.playouts, 1, 10_000),
                                ("--games", args.games, 2, 1_000_000), ("--field", args.field, 1, 100),
                                ("--max-candidates", args.max_candidates, 1, 10_000_000),
                                ("--workers", args.workers, 1, MAX_CONCURRENCY)):
        check_count(flag, value, lo, hi)
    check_seed("--seed", args.seed)


def _targets(out: str, langs: list[str]) -> dict[str, Path]:
    """The file of each language, each checked before any simulation (which takes minutes)."""
    path = Path(out)
    named = {lang: path if len(langs) == 1 else path.with_name(f"{path.stem}.{lang}{path.suffix}") for lang in langs}
    for target in named.values():
        check_target("--out", target)
    return named


def sim_setup(pack: Any, spec: str, cand: Candidate, field: list[tuple[int, ...]], k: int, games: int) -> dict:
    """What a question carries so anyone can re-run its simulation."""
    ids = [c.id for c in pack.cards]

    def table(counts: tuple[int, ...]) -> dict[str, int]:
        return {ids[i]: c for i, c in enumerate(counts) if c}
    out = {"pack": pack.id, "pack_hash": pack.hash, "deck": table(cand.partial),
           "options": [ids[i] for i in cand.options], "removed": ids[cand.removed],
           "field": [table(f) for f in field], "playouts": k, "games_per_pairing": games}
    if resolve(spec) != BUILTIN_DIR / pack.id:
        out["pack_dir"] = str(resolve(spec).resolve())
    return out


def make_questions(pack: Any, spec: str, count: int, langs: list[str], k: int, games: int, field_size: int,
                   seed: int, max_candidates: int, submit: Any) -> tuple[list[dict], int]:
    """Kept questions (JSON objects, one per language) and how many candidates were tried.
    ``submit(tasks) -> results`` runs simulation tasks (in a pool, or a cluster)."""
    from tcgtui.engine.deck import make as M          # numpy: only when questions are made
    from tcgtui.engine.deck.simulate import scores, tasks
    catalogs = [locales.load(lang) for lang in langs]
    field = M.field(pack, field_size, seed)
    out: list[dict] = []
    kept = tried = 0
    batch = 4
    while kept < count and tried < max_candidates:
        cands = [M.candidate(pack, random.Random(f"tcgtui/deck/{seed}/{tried + b}"))
                 for b in range(min(batch, max_candidates - tried))]
        work = [tasks(pack, [c.deck(o) for o in range(len(c.options))], field, k, games,
                      seed * 1_000_003 + tried + b) for b, c in enumerate(cands)]
        flat = [t for w in work for t in w]
        results = submit(flat)
        at = 0
        for b, (c, w) in enumerate(zip(cands, work)):
            table = scores(w, results[at:at + len(w)], len(c.options))
            at += len(w)
            v = M.verdict(table)
            if v.kept and kept < count:
                qid = f"{pack.id}-{seed}-{tried + b}"
                sim = sim_setup(pack, spec, c, field, k, games)
                sim["seed"] = seed * 1_000_003 + tried + b
                sim["p_values"] = list(v.p_values)
                out += [M.question(pack, c, v, qid, cat, sim).to_json() for cat in catalogs]
                kept += 1
        tried += len(cands)
    return out, tried


def run(args: argparse.Namespace) -> int:
    if args.deck_command == "import":
        return import_questions(args)
    text = locales.load()
    _check(args)
    pack = load_pack(args.pack)
    langs = [x.strip() for x in args.lang.split(",") if x.strip()]
    for lang in langs:
        if lang not in locales.available() or lang not in pack.languages:
            raise UserError(text.t("cmd_deck.errors.lang", lang=lang, langs=", ".join(pack.languages)))
    targets = _targets(args.out, langs)
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.bench.cluster import executor
    from tcgtui.engine.deck.simulate import run_task
    pool = executor(args.ray) if args.ray or (args.workers or 2) > 1 else None
    started = time.perf_counter()
    try:
        def submit(work: list) -> list:
            return list(pool.map(run_task, work, chunksize=4)) if pool else [run_task(t) for t in work]
        lines, tried = make_questions(pack, args.pack, args.count, langs, args.playouts, args.games, args.field,
                                      args.seed, args.max_candidates or 20 * args.count, submit)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    seconds = time.perf_counter() - started
    for lang, target in targets.items():
        write_atomic("--out", target, (json.dumps(q, ensure_ascii=False) + "\n" for q in lines if q["language"] == lang))
    kept = len(lines) // max(1, len(langs))
    print(text.t("cmd_deck.made", kept=kept, tried=tried, share=100 * kept / max(1, tried), seconds=seconds,
                 per_hour=3600 * kept / seconds if seconds else 0, path=clean(args.out)), file=sys.stderr)
    return 0 if kept >= args.count else 1
