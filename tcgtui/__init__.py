"""tcgtui: play, watch and benchmark reasoning games in the terminal."""

__version__ = "0.1.0"
