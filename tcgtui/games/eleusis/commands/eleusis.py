"""``tcgtui eleusis judge``: does a guessed rule behave as a secret rule from a given mainline?
``tcgtui eleusis rules``: the 26 rules of the library, by number.
``tcgtui eleusis import DIR``: the seed's released runs (``results/RUN/*/results.json``) into the store,
as rounds played under the seed's protocol, for ``tcgtui report --game eleusis``.

The verdict is the game's own judge (``engine/eleusis/judge.py``), seeded, so the
same question always gets the same answer.
"""

from __future__ import annotations

import argparse
import json

from tcgtui.flags import LANG_LISTED
from tcgtui import locales, rtl
from tcgtui.console_text import clean
from tcgtui.engine.eleusis.cards import CardError, parse_cards
from tcgtui.engine.eleusis.judge import judge
from tcgtui.engine.eleusis.library import COUNT, compiled
from tcgtui.engine.eleusis.rulelang import Rule, RuleError, compile_rule
from tcgtui.errors import UserError
from tcgtui.store import add_db_argument
from tcgtui.limits import check_seed
from tcgtui.userfiles import read_text


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="eleusis_command", metavar="COMMAND", required=True)
    j = sub.add_parser("judge", help=text.t("cmd_eleusis.judge.help"), description=text.t("cmd_eleusis.judge.help"))
    j.add_argument("--rule", required=True, metavar="N|FILE", help=text.t("cmd_eleusis.judge.rule", high=COUNT - 1))
    j.add_argument("--guess", required=True, metavar="FILE", help=text.t("cmd_eleusis.judge.guess"))
    j.add_argument("--mainline", default="", metavar="CARDS", help=text.t("cmd_eleusis.judge.mainline"))
    j.add_argument("--seed", type=int, default=0, help=text.t("cmd_eleusis.judge.seed"))
    j.add_argument("--json", action="store_true", help=text.t("cmd_eleusis.judge.json"))
    LANG_LISTED.add(j, text.t("cmd_cards.lang"))
    r = sub.add_parser("rules", help=text.t("cmd_eleusis.rules.help"), description=text.t("cmd_eleusis.rules.help"))
    r.add_argument("--code", action="store_true", help=text.t("cmd_eleusis.rules.code"))
    LANG_LISTED.add(r, text.t("cmd_cards.lang"))
    r.add_argument("--rtl", choices=rtl.MODES, default=None, help=text.t("cmd_cards.rtl"))
    i = sub.add_parser("import", help=text.t("cmd_eleusis.import.help"), description=text.t("cmd_eleusis.import.help"))
    i.add_argument("folder", metavar="DIR", help=text.t("cmd_eleusis.import.dir"))
    i.add_argument("--run", default="eleusis-seed", metavar="NAME", help=text.t("cmd_eleusis.import.run"))
    LANG_LISTED.add(i, text.t("cmd_cards.lang"))
    add_db_argument(i, text)


def _read_rule(flag: str, path: str, text: locales.Catalog) -> Rule:
    source = read_text(flag, path)
    try:
        return compile_rule(source)
    except RuleError as exc:
        raise UserError(text.t("cmd_eleusis.errors.rule", flag=flag, path=path, why=exc.text(text))) from None


def secret_rule(value: str, text: locales.Catalog) -> Rule:
    """``--rule``: a number of the library, or a file holding a rule."""
    if value.strip().lstrip("-").isdigit():
        n = int(value)
        if not 0 <= n < COUNT:
            raise UserError(text.t("cmd_eleusis.errors.number", value=value, high=COUNT - 1))
        return compiled(n)
    return _read_rule("--rule", value, text)


def run(args: argparse.Namespace) -> int:
    text = locales.load(args.lang)
    if args.eleusis_command == "rules":
        return show_rules(args, text)
    if args.eleusis_command == "import":
        return import_results(args, text)
    check_seed("--seed", args.seed)
    truth = secret_rule(args.rule, text)
    guess = _read_rule("--guess", args.guess, text)
    try:
        mainline = parse_cards(args.mainline)
    except CardError as exc:
        raise UserError(text.t("cmd_eleusis.errors.card", card=exc.text)) from None
    verdict = judge(truth, guess, mainline, args.seed)
    if args.json:
        print(json.dumps(verdict.to_json(), ensure_ascii=False))
        return 0
    print(text.t("cmd_eleusis.judge.equivalent" if verdict.equivalent else "cmd_eleusis.judge.different"))
    if verdict.counterexample is not None:
        line, card, truth_says = verdict.counterexample
        key = "cmd_eleusis.judge.counter_accepts" if truth_says else "cmd_eleusis.judge.counter_rejects"
        print(text.t(key, mainline=" ".join(c.text() for c in line) or text.t("cmd_eleusis.judge.empty"),
                     card=card.text()))
        if verdict.error is not None:
            print(text.t("cmd_eleusis.judge.guess_error", why=clean(verdict.error.text(text))))
    return 0


def show_rules(args: argparse.Namespace, text: locales.Catalog) -> int:
    """The library: number, name and description in the language asked, and the code with ``--code``."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from rich.console import Console

    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.console_text import ProsePrinter
    from tcgtui.engine.eleusis.library import library

    out = ProsePrinter(Console(), text.rtl, rtl.resolve_mode(args.rtl))
    for r in library():
        out.paragraph(text.t("cmd_eleusis.rules.line", number=r.number, name=r.name_in(text.code),
                             description=r.description_in(text.code)))
        if args.code:
            for line in r.code.splitlines():
                print(f"    {line}")
    return 0


def import_results(args: argparse.Namespace, text: locales.Catalog) -> int:
    """Every results file of DIR checked first, then stored in one run (kind ``import``, protocol ``seed``)."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from pathlib import Path

    from tcgtui.games.eleusis.seed_results import REPOSITORY, number_rounds, read_evaluation, result_files
    from tcgtui.store import open_store
    from tcgtui.upstream import import_run, load

    files = result_files(args.folder, text)
    rounds = [r for f in files for r in read_evaluation(f, None, text)]    # all checked before any is stored
    source = load("DIR", str(Path(args.folder).expanduser())).describe()
    with open_store(args.db, create=True) as store:
        run = import_run(store, args.run, {"game": "eleusis", "protocol": "seed", "source": REPOSITORY,
                                           "checkout": source}, text.t("cmd_eleusis.import.clash", run=args.run))
        for game, _ in rounds:
            game.run_id = run.id
        number_rounds(store, run.id, rounds)
        added, skipped = store.merge_games(rounds)
    print(clean(text.t("cmd_eleusis.import.imported", added=added, skipped=skipped, files=len(files), run=args.run)))
    return 0
