"""``tcgtui`` with no arguments: the home screen (pick a game, an opponent, a language, then play).

Not a subcommand: ``tcgtui.cli`` opens it when nothing is typed after ``tcgtui``.
Games started here are recorded like ``tcgtui play``'s (the person's handle is
asked once), so people's games of every game stand beside the models' in reports.
"""

from __future__ import annotations

import secrets
from typing import Any

from tcgtui import config, rtl
from tcgtui.engine import registry
from tcgtui.store import open_store


def portable(params: dict[str, Any]) -> dict[str, Any]:
    """Parameters as a later ``--resume`` can rebuild them: a loaded pack by its name."""
    return {k: (v.id if hasattr(v, "hash") else v) for k, v in params.items()}


def run() -> int:
    from tcgtui.commands.play import farewell
    from tcgtui.tables import FreeTable
    from tcgtui.tui.app import ArenaApp, Settings

    handle = config.saved_handle()
    with open_store(None, create=True) as store:
        settings = Settings(home=True, seed=secrets.randbelow(2**31), rtl_mode=rtl.resolve_mode(None),
                            handle=handle or "", ask_handle=handle is None)

        def table(person: str) -> FreeTable:
            game = registry.get(settings.game_id).game(settings.params)
            where = {"game": settings.game_id, "params": portable(settings.params)}
            return FreeTable(store, game, where, person, settings.seats[1] if len(settings.seats) > 1 else "", 0,
                             settings.seed)
        settings.table = table
        app = ArenaApp(settings)
        app.run()
        farewell(store, settings.handle, app.deal)
    if app.refusal is not None:
        raise app.refusal
    return app.return_code or 0
