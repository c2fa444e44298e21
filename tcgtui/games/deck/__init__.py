"""The deck quiz's app side: question sets read from disk (``questions``), a card database for
imported questions (``card_database``) and the ``tcgtui deck`` command."""
