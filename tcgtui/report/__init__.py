"""``tcgtui report``'s parts: reading the store, the analyses, their statistics, rendering and the plot."""

# The card game's tables, in the order they are shown (its report predates the arena and
# keeps this layout; see tcgtui.engine.tcg).  Kept here so the CLI can list them without scipy.
SECTIONS = ("win_rates", "decay", "language_gap", "summary", "error_patterns", "quarters", "llm")
# Sections every game's report has (some only when there are rows: the round-robin ones).
COMMON = ("win_rates", "scores", "decisions", "llm", "tokens", "costs", "errors", "matrix", "ratings", "ratings_by_role")
