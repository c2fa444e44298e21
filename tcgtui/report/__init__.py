"""``tcgtui report``'s parts: reading the store, the analyses, their statistics, rendering and the plot."""

# The report's tables, in the order they are shown.  Kept here, apart from the
# analyses, so the CLI can list them without importing scipy.
SECTIONS = ("win_rates", "decay", "language_gap", "summary", "error_patterns", "quarters", "llm")
