"""A person's Eleusis guess judged in a process of its own.

The judge simulates for seconds when a rule reads the mainline: on the screen's
event loop that froze every key, and in a thread it still starves the screen
through the interpreter lock.  So a copy of the round plays the guess in a child
interpreter (``python -m tcgtui.tui.games.eleusis_judging``: the round and the move as a pickle
on its stdin, the verdicts it took as a pickle on its stdout), and the round's
own move then finds them kept (``tcgtui.engine.eleusis.judge.remembered``).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import Any

NICE = 5            # the child yields the processor to the screen the person is using


def judge_apart(round_copy: Any, move: str) -> None:
    """Play ``move`` on ``round_copy`` in a child and keep the verdicts it took.  Blocks: call it from a
    worker thread.  A child that fails keeps nothing: the round's move then judges as it always did."""
    # start-up time: the Eleusis engine only when a guess is judged
    from tcgtui.engine.eleusis import judge
    done = subprocess.run([sys.executable, "-m", __name__], input=pickle.dumps((round_copy, move)),
                          capture_output=True, check=False)
    if done.returncode == 0:
        judge.keep(pickle.loads(done.stdout))


if __name__ == "__main__":
    from tcgtui.engine.eleusis.state import verdicts_after
    os.nice(NICE)
    state, played = pickle.load(sys.stdin.buffer)
    sys.stdout.buffer.write(pickle.dumps(verdicts_after(state, played)))
