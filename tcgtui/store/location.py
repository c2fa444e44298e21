"""Where the store lives: ``--db PATH``, else ``$TCGTUI_DB``, else the user's data directory.

Every command that reads or writes games (bench, report, play, watch,
baseline) takes ``--db`` through ``add_db_argument`` and opens the store with
``open_store``, so they all agree on which file holds the results.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import platformdirs

from tcgtui import locales
from tcgtui.store.db import Store, StoreError
from tcgtui.userfiles import check_regular

ENV = "TCGTUI_DB"
FILENAME = "tcgtui.sqlite3"


def default_path() -> Path:
    return Path(platformdirs.user_data_dir("tcgtui")) / FILENAME


def add_db_argument(parser: argparse.ArgumentParser, text: locales.Catalog) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help=text.t("store.db_help", env=ENV, default=str(default_path())))


def resolve(db: str | None) -> tuple[Path, str | None]:
    """The path, and which setting named it (``--db``, the variable, or None for the default)."""
    if db:
        return Path(db).expanduser(), "--db"
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser(), ENV
    return default_path(), None


def open_store(db: str | None, *, create: bool, read_only: bool = False) -> Store:
    """Open the store for a command; ``create`` for writers, readers need an existing file
    (``read_only``: one that only reads, see ``Store``)."""
    text = locales.load()
    path, source = resolve(db)
    where = source or text.t("store.default_location")
    if path.is_dir():
        raise StoreError(text.t("store.is_directory", source=where, path=str(path)))
    if not check_regular(source or "", path):
        if not create:
            raise StoreError(text.t("store.missing", source=where, path=str(path)))
        if source is None:
            path.parent.mkdir(parents=True, exist_ok=True)
        elif not path.parent.is_dir():
            raise StoreError(text.t("store.no_directory", source=where, path=str(path.parent)))
    return Store(path, create=create, read_only=read_only)
