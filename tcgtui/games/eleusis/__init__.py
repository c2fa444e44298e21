"""Eleusis's app side: the ``tcgtui eleusis`` command (rules and guesses checked outside a game)."""

from tcgtui.app_side import AppSide, Role, register_app

register_app("eleusis", AppSide(replay=Role("tcgtui.games.eleusis.replay"), referee=Role("tcgtui.games.eleusis.referee"),
                                screen="tcgtui.tui.games.eleusis:EleusisScreen"))
