"""``tcgtui grid``: the grid games' own jobs outside a match.

``grid import DIR`` stores the grid benchmark's published games (``tcgtui/games/grid/seed_outputs.py``)
as games played under the seed's protocol, for ``tcgtui report`` beside tcgtui's own runs.
"""

from __future__ import annotations

import argparse

from tcgtui import locales
from tcgtui.console_text import clean
from tcgtui.errors import UserError
from tcgtui.store import add_db_argument, open_store


def add_arguments(p: argparse.ArgumentParser, text: locales.Catalog) -> None:
    sub = p.add_subparsers(dest="grid_command", metavar="JOB", parser_class=type(p))
    imp = sub.add_parser("import", help=text.t("cmd_grid.import"), description=text.t("cmd_grid.import"))
    imp.add_argument("folder", metavar="DIR", help=text.t("cmd_grid.import_dir"))
    imp.add_argument("--run", default="grid-published", metavar="NAME", help=text.t("cmd_grid.import_run"))
    add_db_argument(imp, text)


def run(args: argparse.Namespace) -> int:
    text = locales.load()
    if args.grid_command == "import":
        return import_outputs(args, text)
    raise UserError(text.t("cmd_grid.no_job"))


def import_outputs(args: argparse.Namespace, text: locales.Catalog) -> int:
    """Every moves file of DIR checked and replayed first, then stored in one run (kind ``import``)."""
    # start-up time: every command module loads for `tcgtui --help`; only this path needs it
    from tcgtui.games.grid.seed_outputs import REPOSITORY, move_files, number_games, read_games, replay
    from tcgtui.upstream import import_run
    files = move_files(args.folder)
    games = [replay(game, None) for path in files for game in read_games(path)]    # all checked before storing
    with open_store(args.db, create=True) as store:
        run = import_run(store, args.run, {"protocol": "seed", "source": REPOSITORY},
                         text.t("cmd_grid.import_clash", run=args.run))
        for row, _ in games:
            row.run_id = run.id
        fresh = [g for g in games if not store.conn.execute("SELECT 1 FROM games WHERE id = ?", (g[0].id,)).fetchone()]
        number_games({(a, o, i) for a, o, _, i, *_ in store.cell_games(run.id)}, fresh)
        added, skipped = store.merge_games(games)
    print(clean(text.t("cmd_grid.imported", added=added, skipped=skipped, files=len(files), run=args.run)))
    return 0
