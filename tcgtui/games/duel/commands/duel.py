"""``tcgtui duel``: the puzzle duel's own jobs outside a match.

``duel check FILE.jsonl`` re-checks puzzles (each row's code against its value) in
the sandbox and prints one JSON verdict per row, in order: how a user audits a
puzzle or re-tests a bank.  ``duel mine`` collects the valid puzzles of recorded
duels into a bank (JSON Lines), which ``tcgtui bench --game duel --bank FILE``
has models solve.  ``duel import DIR`` stores The Token Games' released duel logs
(``tcgtui/games/duel/seedlogs.py``) as duels played under the seed's protocol, for the report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.games.duel.rows import read_rows
from tcgtui.errors import UserError
from tcgtui.limits import MAX_CONCURRENCY, check_count
from tcgtui.sandbox import BACKENDS, DockerMissing, Limits, Sandbox
from tcgtui.store import add_db_argument, open_store
from tcgtui.userfiles import check_target, write_atomic


def add_sandbox_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--sandbox", choices=BACKENDS, default="local", help=text.t("cmd_duel.sandbox"))
    p.add_argument("--timeout", type=float, default=Limits.timeout, metavar="S", help=text.t("cmd_duel.timeout"))
    p.add_argument("--workers", type=int, default=None, metavar="N", help=text.t("cmd_duel.workers"))


def sandbox_from(args: argparse.Namespace, text: locales.Catalog) -> Sandbox:
    if not 0 < args.timeout <= 600:
        raise UserError(text.t("cmd_duel.bad_timeout", value=args.timeout))
    check_count("--workers", args.workers, 1, MAX_CONCURRENCY)
    return Sandbox(args.sandbox, Limits(timeout=args.timeout), args.workers,
                   judge="seed" if getattr(args, "protocol", "tcgtui") == "seed" else "strict")


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="duel_command", metavar="JOB", parser_class=type(p))
    check = sub.add_parser("check", help=text.t("cmd_duel.check"), description=text.t("cmd_duel.check"))
    check.add_argument("file", metavar="FILE.jsonl", nargs="?", help=text.t("cmd_duel.file"))
    add_sandbox_arguments(check, text)
    check.add_argument("--explain", action="store_true", help=text.t("cmd_duel.explain"))
    check.add_argument("--protocol", choices=("tcgtui", "seed"), default="tcgtui", help=text.t("cmd_duel.protocol"))
    mine = sub.add_parser("mine", help=text.t("cmd_duel.mine"), description=text.t("cmd_duel.mine"))
    mine.add_argument("--run", nargs="+", action="extend", metavar="NAME", help=text.t("cmd_duel.run"))
    mine.add_argument("--out", metavar="FILE.jsonl", default="-", help=text.t("cmd_duel.out"))
    add_db_argument(mine, text)
    show = sub.add_parser("show", help=text.t("cmd_duel.show"), description=text.t("cmd_duel.show"))
    show.add_argument("duel", metavar="ID", help=text.t("cmd_duel.show_id"))
    show.add_argument("--run", nargs="+", action="extend", metavar="NAME", help=text.t("cmd_duel.run"))
    show.add_argument("--format", choices=("table", "json"), default="table", help=text.t("cmd_duel.show_format"))
    add_db_argument(show, text)
    imp = sub.add_parser("import", help=text.t("cmd_duel.import"), description=text.t("cmd_duel.import"))
    imp.add_argument("folder", metavar="DIR", help=text.t("cmd_duel.import_dir"))
    imp.add_argument("--run", default="ttg", metavar="NAME", help=text.t("cmd_duel.import_run"))
    add_db_argument(imp, text)


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    if args.duel_command == "check":
        return check(args, text)
    if args.duel_command == "mine":
        return mine(args, text)
    if args.duel_command == "import":
        return import_logs(args, text)
    if args.duel_command == "show":
        return show(args)
    raise UserError(text.t("cmd_duel.no_job"))


def mine(args: argparse.Namespace, text: locales.Catalog) -> int:
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.games.duel.mine import bank_rows
    from tcgtui.report.data import load_games, run_ids
    if args.out != "-":
        check_target("--out", args.out)
    with open_store(args.db, create=False) as store:
        games = load_games(store, run_ids(store, args.run), game="duel", with_record=True)
    lines = [json.dumps(row) + "\n" for row in bank_rows(games)]
    if args.out == "-":
        sys.stdout.write("".join(lines))
    else:
        write_atomic("--out", args.out, lines)
        print(clean(text.t("cmd_duel.mined", count=len(lines), file=args.out)), file=sys.stderr)
    return 0


def show(args: argparse.Namespace) -> int:
    """One duel of the store, round by round (an id or its prefix)."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.games.duel import view
    from tcgtui.report.data import load_games, run_ids
    with open_store(args.db, create=False, read_only=True) as store:
        games = load_games(store, run_ids(store, args.run), game="duel", with_record=True, every_seat=True)
        return view.show(store, games, args.duel, args.format)


def import_logs(args: argparse.Namespace, text: locales.Catalog) -> int:
    """Every duel log of DIR checked first, then stored in one run (kind ``import``, protocol ``seed``)."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from pathlib import Path

    from tcgtui.games.duel.seedlogs import REPOSITORY, log_files, number_duels, read_duel, replay
    from tcgtui.upstream import import_run, load
    files = log_files(args.folder)
    duels = [read_duel(f) for f in files]
    source = load("DIR", str(Path(args.folder).expanduser())).describe()
    with open_store(args.db, create=True) as store:
        run = import_run(store, args.run, {"game": "duel", "protocol": "seed", "source": REPOSITORY,
                                           "checkout": source}, text.t("cmd_duel.import_clash", run=args.run))
        games = [replay(d, run.id, REPOSITORY) for d in duels]
        number_duels(store, run.id, games)
        added, skipped = store.merge_games(games)
    print(clean(text.t("cmd_duel.imported", added=added, skipped=skipped, files=len(files), run=args.run)))
    return 0


def check(args: argparse.Namespace, text: locales.Catalog) -> int:
    if args.explain:
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.sandbox.explain import explain
        for line in explain(text):
            print(clean(line))
        if args.file is None:
            return 0
    if args.file is None:
        raise UserError(text.t("cmd_duel.no_file"))
    sandbox = sandbox_from(args, text)
    rows = read_rows(args.file, text)
    try:
        verdicts = asyncio.run(sandbox.check_many((row["code"], row["value"]) for row in rows))
    except DockerMissing as exc:         # no daemon, or docker run itself failed: nothing was checked
        raise UserError(text.t("cmd_duel.no_docker", why=str(exc).removeprefix("sandbox docker: "))) from None
    for verdict in verdicts:
        sys.stdout.write(json.dumps(verdict.to_json()) + "\n")
    return 0
