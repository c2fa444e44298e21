"""A replay refused at home is said in the reader's language, and the lines a person can meet at
home name the game, not the command line's GAME_ID argument."""

from __future__ import annotations

import pytest

from tcgtui import locales
from tcgtui.errors import UserError
from tcgtui.replay.load import find, load
from tcgtui.store import Store


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_refusal_is_in_the_language_asked(tmp_path, lang: str) -> None:
    with Store(tmp_path / "g.sqlite3", create=True) as store:
        with pytest.raises(UserError) as caught:
            load(store, "abc123", lang)
        assert str(caught.value) == locales.load(lang).t("replay.unknown", id="abc123", db=str(store.path))
        with pytest.raises(UserError) as bad:
            find(store, "zz", lang)
        assert str(bad.value) == locales.load(lang).t("replay.bad_id", id="zz")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_lines_met_at_home_do_not_speak_command_line(lang: str) -> None:
    text = locales.load(lang)
    for key in ("replay.no_game", "replay.bad_record"):
        assert "GAME_ID" not in text.t(key, id="1234", game="chess", move=3, why="-")
