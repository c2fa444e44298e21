"""Decision quality: each stored decision judged by an evaluator (every legal move's value, the chosen
move's regret), stored once per evaluator, and the report's table over them (issue 40, part 1)."""
