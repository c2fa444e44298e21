"""A seeded app for tests, with a rules fixture; the driving helpers come from the app."""

from __future__ import annotations

import dataclasses
from functools import cache

import locales
from locales import Catalog
from tcgtui.packs import load_pack
from tcgtui.tui.app import HUMAN, Settings, TcgApp
from tcgtui.tui.driving import play_moves, screen_text, settle

__all__ = ["RULES_FIXTURE", "fixture_catalog", "make_app", "play_moves", "screen_text", "settle"]

# Until locales/<lang>/rules.toml lands on main, tests render this; it also keeps
# the rules snapshots independent of the lead's wording.
RULES_FIXTURE = {
    "en": {"rules.basics.title": "Basics",
           "rules.basics.lp": "Each player starts with {starting_lp} LP and {opening_hand} cards [x].",
           "rules.basics.limit": "After {turn_limit} turns the higher LP wins; chains stop at {max_chain}.",
           "rules.turn.title": "A turn",
           "rules.turn.order": "Draw a card, play one card (champion, spell or trick), then combat."},
    "ar": {"rules.basics.title": "الأساسيات",
           "rules.basics.lp": "يبدأ كل لاعب بـ{starting_lp} نقاط حياة و{opening_hand} بطاقات [x].",
           "rules.basics.limit": "بعد {turn_limit} دورا يفوز صاحب نقاط الحياة الأعلى، وتتوقف السلاسل عند {max_chain}.",
           "rules.turn.title": "الدور",
           "rules.turn.order": "اسحب بطاقة، والعب بطاقة واحدة (بطلا أو تعويذة أو خدعة)، ثم يأتي القتال."},
}


@cache
def fixture_catalog(code: str) -> Catalog:
    base = locales.load(code)
    entries = {k: v for k, v in base.entries.items() if not k.startswith("rules.")}
    entries.update(RULES_FIXTURE.get(code, {}))
    fallback = fixture_catalog(locales.DEFAULT) if code != locales.DEFAULT else None
    return dataclasses.replace(base, entries=entries, fallback=fallback)


def make_app(seats: tuple[str, str] = (HUMAN, "random"), *, lang: str = "en", seed: int = 7,
             pause: float = 0.0, rtl_mode: str = "app", pack: str = "community",
             **options: object) -> TcgApp:
    settings = Settings(load_pack(pack), seats, lang=lang, rtl_mode=rtl_mode, seed=seed,
                        pause=pause, catalogs=fixture_catalog, **options)  # type: ignore[arg-type]
    return TcgApp(settings)
