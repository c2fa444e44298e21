"""The grid games' app side: how the replay viewer shows them (``replay``)."""
