"""Random playouts of the public TCG-Bench engine, timed inside the user's checkout (``--upstream DIR``).

Run as a script in a subprocess by ``perf/playouts.py``: ``python _upstream_playouts.py SRC GAMES SEED``,
with SRC the checkout's ``src`` folder.  It imports nothing of tcgtui and carries none of the engine's
code: it deals as the engine's ``random_baseline.py`` does (each deck the whole English pool, shuffled,
three cards drawn each) and calls the engine's own ``simulate_random_game`` (the rollout of its
``RolloutAgent``: a copy of the state played to the end) once per deal.  Only those calls are
timed (the thread's processor time, as tcgtui's own rates), the deals not (tcgtui's rates count theirs).  Prints one JSON line: games, seconds, turns.
"""

import json
import random
import sys
import time


def main(src: str, games: int, seed: int) -> None:
    sys.path.insert(0, src)
    import game                                          # the checkout's src/game.py

    pool = game.get_card_pool("en")
    random.seed(seed)
    turns = 0
    seconds = 0.0
    for _ in range(games):
        p1, p2 = game.Player("Player 1"), game.Player("Player 2")
        p1.deck = [game.Card(cd).clone() for cd in pool]
        p2.deck = [game.Card(cd).clone() for cd in pool]
        random.shuffle(p1.deck)
        random.shuffle(p2.deck)
        for _ in range(3):
            p1.draw()
            p2.draw()
        state = game.GameState(p1, p2)
        started = time.thread_time()
        turns += game.simulate_random_game(state)[1]
        seconds += time.thread_time() - started
    print(json.dumps({"games": games, "seconds": seconds, "turns": turns / games}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
