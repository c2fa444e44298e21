"""The puzzle duel's app side: puzzle files and banks (``rows``, ``mine``), The Token Games'
released logs (``seedlogs``) and the ``tcgtui duel`` command; the engine runs no code."""
