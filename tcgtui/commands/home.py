"""``tcgtui`` with no arguments: the home screen (pick a game, an opponent, a language, then play).

Not a subcommand: ``tcgtui.cli`` opens it when nothing is typed after ``tcgtui``.
Games started here are played from a random seed and not stored.
"""

from __future__ import annotations

import secrets

from tcgtui import rtl
from tcgtui.tui.app import ArenaApp, Settings


def run() -> int:
    settings = Settings(home=True, seed=secrets.randbelow(2**31), rtl_mode=rtl.resolve_mode(None))
    app = ArenaApp(settings)
    app.run()
    if app.refusal is not None:
        raise app.refusal
    return app.return_code or 0
