"""The SQLite store of runs, games and decisions shared by bench, report, play and baseline."""

from tcgtui.store.db import (ABANDONED, ERRORED, EXISTS, FINISHED, IN_PROGRESS, REPLACED, STORED, DecisionRow,
                             GameRow, Run, Store, StoreError)
from tcgtui.store.location import add_db_argument, default_path, open_store

__all__ = ["ABANDONED", "ERRORED", "EXISTS", "FINISHED", "IN_PROGRESS", "REPLACED", "STORED", "DecisionRow",
           "GameRow", "Run", "Store", "StoreError", "add_db_argument", "default_path", "open_store"]
