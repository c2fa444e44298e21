"""The deck quiz's app side: question sets read from disk (``questions``), a card database for
imported questions (``card_database``) and the ``tcgtui deck`` command."""

from tcgtui.app_side import AppSide, Role, register_app

register_app("deck", AppSide(resources=Role("tcgtui.games.deck.resources"), replay=Role("tcgtui.games.deck.replay"),
                             screen="tcgtui.tui.games.deck:DeckScreen"))
