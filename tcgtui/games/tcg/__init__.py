"""The card game's app side: its packs and deck lists read from disk (``packs``) and the
campaign ladder a person climbs (``campaign``)."""

from tcgtui.app_side import AppSide, Role, register_app

register_app("tcg", AppSide(resources=Role("tcgtui.games.tcg.resources"), campaign=Role("tcgtui.games.tcg.campaign"),
                            replay=Role("tcgtui.games.tcg.replay"), figures=Role("tcgtui.games.tcg.figures"),
                            baseline=Role("tcgtui.games.tcg.baseline"), screen="tcgtui.tui.games.tcg:BoardScreen"))
