"""``tcgtui study new|check|join|status``: human-baseline studies.

A researcher writes a study file (``new`` gives a complete example, ``check`` reads it back as
participants will meet it); a participant joins it in a terminal (``join``) or a browser
(``tcgtui serve --study FILE``); ``status`` says who has joined and how far they are, and
``tcgtui report --study ID`` gives the baseline with intervals that count people.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import platformdirs

from tcgtui.flags import LANG
from tcgtui import locales, rtl
from tcgtui.commands import study_status
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.store import add_db_argument, open_store
from tcgtui.userfiles import check_regular, check_target, read_text, write_atomic


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="study_command", metavar="SUBCOMMAND", parser_class=type(p))
    new = sub.add_parser("new", help=text.t("cmd_study.new"), description=text.t("cmd_study.new"))
    new.add_argument("file", metavar="FILE", help=text.t("cmd_study.new_file"))
    LANG.add(new, text.t("cmd_study.new_lang"))
    new.add_argument("--force", action="store_true", help=text.t("cmd_study.force"))
    check = sub.add_parser("check", help=text.t("cmd_study.check"), description=text.t("cmd_study.check"))
    check.add_argument("file", metavar="FILE", help=text.t("cmd_study.file"))
    add_db_argument(check, text)
    join = sub.add_parser("join", help=text.t("cmd_study.join"), description=text.t("cmd_study.join"))
    join.add_argument("file", metavar="FILE|URL", help=text.t("cmd_study.join_file"))
    join.add_argument("--token", default=None, metavar="TOKEN", help=text.t("cmd_study.token"))
    LANG.add(join, text.t("cmd_study.lang"), default=None)     # none given: the person's, else the study's first
    join.add_argument("--rtl", default=None, metavar="MODE", help=text.t("cmd_play.rtl"))
    add_db_argument(join, text)
    status = sub.add_parser("status", help=text.t("cmd_study.status_help"), description=text.t("cmd_study.status_help"))
    study_status.add_arguments(status, text)
    p.set_defaults(_study_parser=p)


def run(args: argparse.Namespace) -> int:
    command = getattr(args, "study_command", None)
    if command == "new":
        return new(args)
    if command == "check":
        return check(args)
    if command == "join":
        return join(args)
    if command == "status":
        return study_status.run(args)
    args._study_parser.print_help()
    return 2


def new(args: argparse.Namespace) -> int:
    """A complete example study, every key with a comment saying what it takes."""
    if args.lang not in locales.available():
        raise UserError(f"--lang: {args.lang!r} is not a language; expected one of {', '.join(locales.available())}")
    text = locales.load(args.lang)
    if check_regular("FILE", args.file) and not args.force:
        raise UserError(text.t("cmd_study.exists", file=clean(args.file)))
    target = check_target("FILE", args.file)
    stem = re.sub(r"[^a-z0-9-]+", "-", target.stem.lower()).strip("-")[:40] or "my-study"
    write_atomic("FILE", target, [text.t("cmd_study.template", id=stem)])
    print(clean(locales.load().t("cmd_study.written", file=str(target))))
    return 0


def check(args: argparse.Namespace) -> int:
    """The study as a participant will meet it: its games, opponents, deals and languages."""
    # start-up time: the study's checks load the games and players; only the study's commands need them
    from tcgtui.study.roster import paired_deals
    from tcgtui.study.spec import load_study
    study = load_study(args.file, "FILE")
    text = locales.load()
    if study.deals_run is not None:          # paired: the run's deals must be there for every rung
        with open_store(args.db, create=False, read_only=True) as store:
            paired_deals(store, study)
    print(clean(text.t("cmd_study.summary", id=study.id, digest=study.digest[:12],
                       title=study.title("en" if "en" in study.languages else study.languages[0]), languages=", ".join(study.languages),
                       practice=study.practice, per_rung=study.games_per_rung, rungs=len(study.rungs),
                       total=study.practice + study.counted_games,
                       deals=study.deals if study.deals_run is None else f"{study.deals} ({study.deals_run})"),
                newlines=True))
    for i, rung in enumerate(study.rungs, 1):
        params = " ".join(f"{k}={v}" for k, v in rung.params)
        print(clean(f"  {i:>2}. {rung.game:<10} {rung.opponent or '-':<16} {params}"))
    return 0


def token_file(study_id: str) -> Path:
    """Where a terminal keeps its participant's token for a study (the link back in)."""
    return Path(platformdirs.user_data_dir("tcgtui")) / "studies" / f"{study_id}.token"


def saved_token(study_id: str) -> str | None:
    from tcgtui.study.roster import TOKEN_RE       # start-up time: as above
    path = token_file(study_id)
    if not check_regular("", path):
        return None
    token = read_text("", path, limit=200).strip()
    return token if TOKEN_RE.fullmatch(token) else None


def keep_token(study_id: str):  # type: ignore[no-untyped-def]
    def keep(token: str) -> None:
        path = token_file(study_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic("", path, [token + "\n"])
        os.chmod(path, 0o600)
    return keep


def join(args: argparse.Namespace) -> int:
    """Consent, then the participant's games, saved after every move, resumable with the same token;
    a served study's link (http://...) is played on its server, this terminal showing it."""
    # start-up time: only a served study needs the web client
    from tcgtui.serve.client import is_link, join_link
    if is_link(args.file):
        for flag, given in (("--token", args.token), ("--db", args.db), ("--lang", args.lang)):
            if given is not None:
                raise UserError(locales.load().t("cmd_study.link_flag", flag=flag))
        return join_link(args.file)
    # start-up time: the study's checks load the games and players; only the study's commands need them
    from tcgtui.study.joining import Joining
    from tcgtui.study.roster import check_token, new_token, paired_deals, study_run, token_taken
    from tcgtui.study.spec import load_study
    study = load_study(args.file, "FILE")
    lang = args.lang or study.languages[0]
    if lang not in study.languages:
        raise UserError(locales.load().t("cmd_study.bad_lang", lang=clean(lang), study=study.id,
                                         languages=", ".join(study.languages)))
    mode = rtl.resolve_mode(args.rtl)
    token = check_token(args.token) if args.token is not None else saved_token(study.id)
    keep = None if args.token is not None else keep_token(study.id)
    with open_store(args.db, create=True) as store:
        study_run(store, study)              # a changed file, or a paired study without its run's deals,
        paired_deals(store, study)           # is refused before anyone consents
        if token is None:
            token = new_token()
        joining = Joining(store, study, token, keep)
        if not joining.consented and token_taken(store, token):
            raise UserError(locales.load().t("study.bad_token", flag="--token"))
        if joining.person is not None and args.lang is None and joining.person.lang in study.languages:
            lang = joining.person.lang
        from tcgtui.tui.app import ArenaApp, Settings      # Textual loads only once a screen is wanted
        settings = Settings(home=True, lang=lang, rtl_mode=mode, study=joining, seats=())
        app = ArenaApp(settings)
        app.run()
    if app.refusal is not None:
        raise app.refusal
    return app.return_code or 0
