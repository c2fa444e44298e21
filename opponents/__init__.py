"""Players that act on observations: random, Monte Carlo, MCTS, language models, people."""
