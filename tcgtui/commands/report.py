"""``tcgtui report``: tables of the stored games of one game, with exact intervals.

Every game gets the common sections (outcomes, decisions, parse paths, errors,
and for round robins the results matrix and ratings); its own sections come
from its registry spec.  The card game's report keeps the paper's tables.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

from tcgtui.flags import GAME
from tcgtui import locales
from tcgtui.arena import game_name, variant_flag, variants
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.report import COMMON
from tcgtui.store import add_db_argument, open_store

FORMATS = ("table", "md", "csv", "json", "seed")


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    GAME.add(p, text.t("cmd_report.game"))
    p.add_argument("--run", nargs="+", action="extend", metavar="NAME", help=text.t("cmd_report.run"))
    add_db_argument(p, text)
    p.add_argument("--format", choices=FORMATS, default="table", help=text.t("cmd_report.format"))
    p.add_argument("--table", dest="section", metavar="NAME",      # a report section, by the name users know
                   help=text.t("cmd_report.table", choices=", ".join(COMMON)))
    p.add_argument("--plot", metavar="FILE|DIR", help=text.t("cmd_report.plot_help"))
    p.add_argument("--by", metavar="KEYS", help=text.t("cmd_report.by"))
    p.add_argument("--ci", choices=("exact", "exact-randomized"), default="exact", help=text.t("cmd_report.ci"))
    p.add_argument("--ci-seed", type=int, default=0, metavar="N", help=text.t("cmd_report.ci_seed"))
    p.add_argument("--list", action="store_true", help=text.t("cmd_report.list"))
    p.add_argument("--no-humans", action="store_true", help=text.t("cmd_report.no_humans"))
    p.add_argument("--out", metavar="DIR", help=text.t("cmd_report.out"))
    p.add_argument("--upstream", metavar="DIR", help=text.t("cmd_report.upstream"))
    p.add_argument("--settings", action="store_true", help=text.t("cmd_report.settings_help"))
    p.add_argument("--anchor", metavar="PLAYER|first", help=text.t("cmd_report.anchor"))
    p.add_argument("--scores", metavar="FILE", help=text.t("cmd_report.scores"))
    p.add_argument("--scale", metavar="FILE", help=text.t("cmd_report.scale_help"))
    p.add_argument("--study", metavar="ID", help=text.t("cmd_report.study"))


def _spec(game_id: str):  # noqa: ANN202
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.engine import registry
    try:
        return registry.get(game_id)
    except registry.UnknownGame:
        known = ", ".join(s.id for s in registry.games())
        raise UserError(locales.load().t("cmd_report.errors.unknown_game", game=game_id, known=known)) from None


def _list(spec, text: locales.Catalog) -> int:  # noqa: ANN001
    """``--list``: every table the game's report has (shown by default or on request) and every figure;
    then its variants' (the duel's puzzle bank), whose runs the same ``--game`` reports."""
    print(clean(text.t("cmd_report.list_title", game=spec.id)))
    _list_tables(spec, text, "  ")
    for other, param in variants(spec):
        print(clean("  " + text.t("cmd_report.list_variant", flag=variant_flag(param), name=game_name(other, text))))
        _list_tables(other, text, "    ")
    return 0


def _list_tables(spec, text: locales.Catalog, indent: str) -> None:  # noqa: ANN001
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.report import analyses, extra
    report = analyses.build([], spec)
    one_seat = analyses.ROUND_ROBIN if spec.info.seats == 1 else ()     # a one-seat game meets no one
    names = [n for n in dict.fromkeys([*report.layout, *report.sections]) if n not in one_seat]
    for name in names:
        print(clean(f"{indent}{name:<18} {_title(report, name, text)}"))
    for name, table in extra.tables(spec).items():
        figure = text.t("cmd_report.list_figure") if table.figure is not None else ""
        shown = _title(report, name, text)
        print(clean(f"{indent}{name:<18} {shown}" + ("" if table.answers in shown else f" ({table.answers})") + figure))
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.report.plot import fixed_figures
    for name in fixed_figures(spec, report):
        print(clean(f"{indent}{name:<18} {text.t('cmd_report.list_plot', name=name)}"))


def _title(report, name: str, text: locales.Catalog) -> str:  # noqa: ANN001
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.report.render import title
    return title(report, name, text)


def _study(args: argparse.Namespace, text: locales.Catalog) -> int:
    """``--study ID``: the study's own tables (``tcgtui.report.study``), in any format but seed."""
    from rich.console import Console           # heavy imports only when reporting

    from tcgtui.report import render, study, study_data
    if args.format == "seed":
        raise UserError(text.t("cmd_report.errors.study_format", format=args.format))
    with open_store(args.db, create=False, read_only=True) as store:
        report = study.build(study_data.load(store, args.study), seed=args.ci_seed)
        path = str(store.path)
    if args.section and args.section not in report.sections:
        raise UserError(text.t("cmd_report.errors.unknown_table", table=args.section,
                               choices=", ".join(report.sections)))
    sections = [args.section] if args.section else [name for name in report.layout if report.sections[name]]
    if not report.sections["study_baseline"]:
        print(clean(text.t("cmd_report.study_empty", study=args.study, path=path)), file=sys.stderr)
    if args.format == "table":
        console = Console()
        render.as_table(report, sections, console if console.is_terminal else Console(width=200))
    elif args.format == "md":
        sys.stdout.write(render.as_markdown(report, sections))
    elif args.format == "csv":
        sys.stdout.write(render.as_csv(report, args.section or report.layout[0]))
    else:
        sys.stdout.write(render.as_json(report, sections, {"db": path, "runs": [study_data.RUN_PREFIX + args.study]})
                         + "\n")
    return 0


def run(args: argparse.Namespace) -> int:
    # A report builds a few hundred thousand objects that live until it is done, and no
    # garbage cycles: the cyclic collector, walking them again and again as they pile up,
    # cost a 42,000-game store 0.2-0.3 s.  Memory is still freed by reference counting.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _report(args)
    finally:
        if enabled:
            gc.enable()


def _report(args: argparse.Namespace) -> int:
    # The report's linear algebra is a handful of two-parameter fits: OpenBLAS's extra
    # threads only spin beside it (0.2-0.3 s of CPU on a 2-core machine).  It counts only
    # before numpy loads (a process that has it already is left alone); a user's setting wins.
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from rich.console import Console           # heavy imports (scipy, rich) only when reporting

    from tcgtui.report import analyses, render
    from tcgtui.report.data import load_games, run_ids
    text = locales.load()
    if args.study is not None:
        return _study(args, text)
    spec = _spec(args.game)
    if args.format == "seed":
        if spec.report.seed_files is None:
            raise UserError(text.t("cmd_report.errors.no_seed_format", game=spec.id))
        if not args.out:
            raise UserError(text.t("cmd_report.errors.seed_needs_out"))
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.report import external_scores, extra, grouping
    by = grouping.parse_by(args.by)
    if args.list:
        return _list(spec, text)
    plot_path = Path(args.plot).expanduser() if args.plot else None
    plot_dir = plot_path is not None and (plot_path.is_dir() or not plot_path.suffix)
    if plot_path is not None and not plot_dir:
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.report.plot import check_target
        check_target(plot_path)
    with open_store(args.db, create=False, read_only=True) as store:
        for spec in [spec] + [other for other, _ in variants(spec)]:   # a game, else its variants (the bank)
            games = load_games(store, run_ids(store, args.run), humans=not args.no_humans, game=spec.id,
                               with_record=args.format == "seed" or spec.report.reads_records,
                               every_seat=args.format != "seed")
            if games:
                break
        runs = [r.name for r in store.runs() if not args.run or r.name in args.run]
        configs = {r.name: r.config for r in store.runs()}
        facts = extra.model_facts(r for r in store.runs() if not args.run or r.name in args.run)
        path = str(store.path)
        if games:
            # start-up time: every command module loads for `tcgtui --help`; only this path needs it
            from tcgtui.report import tokens
            spent, by_default = tokens.sections(store, (g.id for g in games))
            if args.settings:
                spent["settings"] = tokens.settings(store, args.run)
                spent["params"] = grouping.settings_rows(games, spec.info.params)
    if not games:
        print(clean(text.t("cmd_report.empty", path=path)), file=sys.stderr)
        return 0
    if args.format == "seed":
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.report import seed_export
        from tcgtui.upstream import load as load_upstream
        upstream = load_upstream("--upstream", args.upstream) if args.upstream else None
        out = Path(args.out).expanduser()
        count, files = seed_export.write(spec, games, configs, out, upstream)
        print(clean(text.t("cmd_report.written", games=count, files=files, out=str(out))), file=sys.stderr)
        return 0
    packs = sorted({g.pack for g in games if g.pack is not None})
    if len(packs) > 1 and "pack" not in grouping.all_keys(by, spec.info.params):
        print(clean(text.t("cmd_report.mixed_packs", count=len(packs), packs=", ".join(packs))), file=sys.stderr)
    anchor = args.anchor
    if anchor is not None and anchor != "first" and not any(anchor in g.seats or anchor == g.agent for g in games):
        raise UserError(text.t("cmd_report.errors.unknown_anchor", anchor=anchor))
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.quality.table import BLUNDER, QUALITY_TABLES, Reader
    from tcgtui.report import legal_moves, scale
    judged = Reader(path)
    context = extra.Context(facts, ci=args.ci, seed=args.ci_seed, legal_moves=legal_moves.Reader(path),
                            scores=external_scores.load(args.scores) if args.scores else {}, decision_values=judged,
                            scales=[scale.load(Path(args.scale))] if args.scale else None)
    report = analyses.build(games, spec, by=by, context=context, anchor=anchor)
    if args.section in QUALITY_TABLES:      # the threshold their note states
        report.meta["blunder"] = BLUNDER
    report.sections.update(spent)
    shown = [name for name in spent if spent[name] and (by_default or name in ("settings", "params"))]
    if shown:         # after the llm section (or at the end), with their note
        at = report.layout.index("llm") + 1 if "llm" in report.layout else len(report.layout)
        report.layout[at:at] = shown
        report.notes.append("tokens")
    if args.section and args.section not in report.sections and args.section not in report.extra:
        raise UserError(text.t("cmd_report.errors.unknown_table", table=args.section,
                               choices=", ".join([*report.sections, *report.extra])))
    sections = [args.section] if args.section else list(report.layout)
    if args.format == "table":
        console = Console()
        if not console.is_terminal:      # piped: keep rows whole instead of wrapping at 80 columns
            console = Console(width=200)
        render.as_table(report, sections, console)
    elif args.format == "md":
        sys.stdout.write(render.as_markdown(report, sections))
    elif args.format == "csv":
        sys.stdout.write(render.as_csv(report, args.section or report.layout[0]))
    else:
        sys.stdout.write(render.as_json(report, sections, {"db": path, "runs": runs}) + "\n")
    if judged.missing:          # the quality table was built, and some decisions have no value yet
        print(clean(text.t("quality.missing", missing=judged.missing, decisions=judged.decisions,
                                 runs=", ".join(runs) or "-")), file=sys.stderr)
    if args.section == "scale" and not report.section("scale"):
        print(clean(text.t("cmd_report.no_scale", game=spec.id)), file=sys.stderr)
    if plot_path is not None and plot_dir:
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.report.plot import draw_all
        drawn = draw_all(report, plot_path)
        if not drawn:
            raise UserError(text.t("cmd_report.errors.nothing_to_plot_dir", path=str(plot_path)))
        for name in drawn:
            print(clean(text.t("cmd_report.plotted_figure", path=str(name))), file=sys.stderr)
    elif plot_path is not None:
        # start-up time: every command module loads for `tcgtui --help`; only this path needs it
        from tcgtui.report.plot import draw
        lines = draw(report, plot_path)
        if lines == 0:
            raise UserError(text.t("cmd_report.errors.nothing_to_plot", path=str(plot_path)))
        print(clean(text.t("cmd_report.plotted", path=str(plot_path), count=lines)), file=sys.stderr)
    return 0
