"""Pictures of a study's two screens at 80×24 and 120×40, in English and Arabic: the consent text
before anything is recorded, and a participant's progress after the practice game.  A store in a
temporary folder, a participant with a fixed pseudonym (the pictures do not depend on chance).
Review changed SVGs in tests/tui/__snapshots__ first."""

from __future__ import annotations

import pytest

from tcgtui.store import Store
from tcgtui.study.joining import Joining
from tcgtui.study.roster import find, study_run
from tcgtui.study.spec import load_study
from tcgtui.tui.app import ArenaApp, Settings

from tests.study.helpers import write_study

SIZES = [(80, 24), (120, 40)]
LANGS = ["en", "ar"]
TOKEN = "snapshot-token-0123456789"


def app_for(tmp_path, lang: str, consented: bool) -> ArenaApp:
    store = Store(tmp_path / "s.sqlite3")
    study = load_study(write_study(tmp_path, per_rung=2))
    if consented:
        study_run(store, study)
        store.conn.execute("INSERT INTO participants (study, id, token, lang, number, joined_at)"
                           " VALUES (?, 'p-0000abcd', ?, ?, 0, '2026-01-01T00:00:00+00:00')", (study.id, TOKEN, lang))
        assert find(store, study, TOKEN) is not None
    return ArenaApp(Settings(home=True, lang=lang, pause=0.0, study=Joining(store, study, TOKEN)))


@pytest.mark.parametrize("screen", ["consent", "progress"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_study_screens(snap_compare, tmp_path, lang: str, size: tuple[int, int], screen: str) -> None:  # type: ignore[no-untyped-def]
    app = app_for(tmp_path, lang, consented=screen == "progress")

    async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=settle)
