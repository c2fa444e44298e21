"""The card game's phase names in the top bar read as phases, not results."""

from __future__ import annotations

from tcgtui import locales


def test_the_draw_phase_does_not_read_like_a_drawn_game() -> None:
    en, ar = locales.load("en"), locales.load("ar")
    assert en.t("tcg.ui.phase.draw") != "Draw" and "phase" in en.t("tcg.ui.phase.draw").lower()
    assert ar.t("tcg.ui.phase.draw").startswith("مرحلة")           # as the main phase's name reads
    assert ar.t("tcg.ui.phase.main").endswith("الرئيسية") and "مرحلة" in ar.t("tcg.ui.phase.main")
