"""``tcgtui bench``'s parts: the plan of a sweep, the runner that plays it, and its progress view."""
