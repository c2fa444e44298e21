"""Commands this game adds to ``tcgtui``, one module per command, found by ``tcgtui.cli``."""
