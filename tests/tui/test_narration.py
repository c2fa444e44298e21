"""The battle log: every event of many games narrated in both languages, hiding what it must."""

from __future__ import annotations

import random
import re

import pytest

from tcgtui import locales
from tcgtui.engine.core import Match
from tcgtui.engine.tcg import TcgGame
from tcgtui.tui.games.tcg.narration import SPECTATOR, narrate

HARAKAT = re.compile("[\u064B-\u0652]")


def games(pack, n: int):  # type: ignore[no-untyped-def]
    for seed in range(n):
        m = Match(TcgGame(pack), seed)
        rng = random.Random(seed)
        while not m.state.is_terminal():
            m.play(rng.choice(m.state.legal_moves()))
        yield m


@pytest.fixture(scope="module")
def matches(community):  # type: ignore[no-untyped-def]
    return list(games(community, 120))


def test_every_event_kind_is_narrated(matches, community) -> None:  # type: ignore[no-untyped-def]
    kinds: set[str] = set()
    for lang in ("en", "ar"):
        cat = locales.load(lang)
        for m in matches[:40]:
            for seat in (0, 1, SPECTATOR):
                for e in m.events:
                    kinds.add(e.kind)
                    line = narrate(e, seat, cat, community)
                    if e.kind == "end_turn":
                        assert line is None
                        continue
                    assert line and "{" not in line and "}" not in line, (e, line)
                    if lang == "ar":
                        assert not HARAKAT.search(line)
                        assert not re.search("[A-Za-z]", line), line       # no English fallback
    assert {"summon", "cast", "set_trick", "trick", "attack", "block", "damage", "destroy",
            "draw", "turn", "game_over", "heal", "buff"} <= kinds


def test_hidden_cards_are_never_named(matches, community) -> None:  # type: ignore[no-untyped-def]
    en = locales.load("en")
    for m in matches:
        for e in m.events:
            if e.kind in ("draw", "set_trick"):
                name = community.card(e.data["card"]).name("en")
                other = narrate(e, 1 - e.player, en, community)
                assert other is not None and name not in other
                assert name in (narrate(e, e.player, en, community) or "")
                assert name in (narrate(e, SPECTATOR, en, community) or "")


def test_the_log_reads_like_the_prompts_from_the_readers_seat(community) -> None:  # type: ignore[no-untyped-def]
    from tcgtui.engine.core import Event
    from tcgtui.engine.tcg.narrator import Narrator
    en = locales.load("en")
    attack = Event("attack", 0, {"card": "swift_scout", "power": 2})
    mine, theirs = narrate(attack, 0, en, community), narrate(attack, 1, en, community)
    watched = narrate(attack, SPECTATOR, en, community)
    assert mine == Narrator(en, community, 0)(attack)          # the same sentence a model reads
    assert len({mine, theirs, watched}) == 3 and "Swift Scout" in (mine or "")


def test_ui_text_exists_in_both_languages() -> None:
    en, ar = locales.load("en"), locales.load("ar")
    mine = ("ui", "cmd_play", "cmd_watch")
    keys_en = {k for k in en.entries if k.split(".")[0] in mine}
    keys_ar = {k for k in ar.entries if k.split(".")[0] in mine}
    assert keys_en == keys_ar
    for key in keys_en:
        assert en.placeholders(key) == ar.placeholders(key), key
        raw = ar.raw(key)
        texts = [v for k, v in raw.items() if k != "count"] if isinstance(raw, dict) else [raw]
        assert not any(HARAKAT.search(str(t)) for t in texts), key
