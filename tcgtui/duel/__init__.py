"""The puzzle duel's I/O side: reading puzzle files and running checks (the engine runs no code)."""
