"""The Textual front end: ``tcgtui play`` and ``tcgtui watch`` share one board.

``app`` holds settings and screens, ``session`` runs ``tcgtui.match.run_match``
in a worker and turns its hooks into UI updates, ``widgets`` draw the board and
``bidi_text`` is how every line of right-to-left text reaches a widget.
"""
