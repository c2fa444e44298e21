"""``tcgtui serve --study FILE``: a study served to web browsers (textual-serve), one process per
participant, on the loopback interface unless --host says otherwise."""

from __future__ import annotations

import argparse

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.limits import check_count
from tcgtui.store import add_db_argument, open_store
from tcgtui.store.location import resolve

MAX_PARTICIPANTS = 200


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    p.add_argument("--study", required=True, metavar="FILE", help=text.t("cmd_serve.study"))
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS", help=text.t("cmd_serve.host"))
    p.add_argument("--port", type=int, default=8000, metavar="N", help=text.t("cmd_serve.port"))
    p.add_argument("--max", type=int, default=20, metavar="N", dest="max_participants",
                   help=text.t("cmd_serve.max", most=MAX_PARTICIPANTS))
    p.add_argument("--no-zygote", action="store_true", help=text.t("cmd_serve.no_zygote"))
    add_db_argument(p, text)


def run(args: argparse.Namespace) -> int:
    from tcgtui.study.roster import study_run     # start-up time: the study's modules load only to serve
    from tcgtui.study.spec import load_study
    study = load_study(args.study, "--study")
    if not 1 <= args.port <= 65535:
        raise UserError(f"--port: {args.port} is not a port; expected 1 to 65535")
    check_count("--max", args.max_participants, 1, MAX_PARTICIPANTS)
    from tcgtui.serve.server import StudyServer      # aiohttp and textual-serve: only to serve
    with open_store(args.db, create=True) as store:   # an unwritable --db, or a changed study of the same
        study_run(store, study)                       # id, is one line now, not one per participant
        db, _ = resolve(args.db)
    StudyServer(study, db, host=args.host, port=args.port, max_participants=args.max_participants,
                zygote=not args.no_zygote).serve()
    return 0
