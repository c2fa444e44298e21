"""Grid games."""
