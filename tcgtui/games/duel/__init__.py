"""The puzzle duel's app side: puzzle files and banks (``rows``, ``mine``), The Token Games'
released logs (``seedlogs``) and the ``tcgtui duel`` command; the engine runs no code."""

from tcgtui.app_side import AppSide, Role, register_app

register_app("duel", AppSide(replay=Role("tcgtui.games.duel.replay"), screen="tcgtui.tui.games.duel:DuelScreen"))
register_app("duel-bank", AppSide(replay=Role("tcgtui.games.duel.replay")))     # no screen: not offered to play
