"""``tcgtui report``'s parts: reading the store, the analyses, their statistics, rendering and the plot."""

# Sections every game's report has (some only when there are rows: the round-robin ones).
COMMON = ("win_rates", "scores", "decisions", "llm", "tokens", "costs", "errors", "matrix", "ratings", "ratings_by_role")
