"""A race's rival round (``--race SPEC``) in a process of its own.

The rival plays the person's deal at the same time, out of sight.  Its thinking
and the verdicts on its guesses are seconds of Python: on the screen's event
loop they froze typing, and in a thread they still starve it through the
interpreter lock.  So the round runs in a child interpreter
(``python -m tcgtui.tui.rival``), which reads the round from its stdin and writes
one message per decision, then its result, as length-prefixed pickles on its
stdout; the screen's side waits for them in a worker thread.

Messages: ("turn",), then ("done", result, board) or ("error", text); the waiting
side adds ("ended", exit code) when the child stops without either.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import select
import struct
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, BinaryIO, Callable

POLL_S = 0.1            # how often the waiting thread looks whether the screen closed
NICE = 10               # the child yields the processor to the screen the person is using
_SIZE = struct.Struct("<Q")


@dataclass(frozen=True)
class Round:
    """What the child needs to play the round: plain data, the game rebuilt there."""

    game_id: str
    params: dict[str, Any]
    seed: int
    spec: str
    options: dict[str, Any]
    lang: str


def _send(out: BinaryIO, message: tuple[Any, ...]) -> None:
    data = pickle.dumps(message)
    out.write(_SIZE.pack(len(data)) + data)
    out.flush()


def _read(fd: int, n: int) -> bytes | None:
    """Exactly ``n`` bytes, or None at the end of the stream."""
    chunks, left = [], n
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _play(job: Round, out: BinaryIO) -> None:
    # runs in the rival's child process: it loads the game there, not in the screen's
    from tcgtui.engine import registry
    from tcgtui.match import Match, run_match
    from tcgtui.opponents.registry import make_agent

    async def round_() -> None:
        game = registry.get(job.game_id).game(job.params)
        agent = make_agent(job.spec, **{**job.options, "game": game})
        match = Match(game, job.seed)
        try:
            result = await run_match(game, job.seed, (agent,), lang=job.lang, match=match,
                                     on_decision=lambda rec: _send(out, ("turn",)))
        finally:
            await agent.aclose()
        _send(out, ("done", result, match.state.observation(0).board))
    try:
        asyncio.run(round_())
    except Exception as exc:     # a rival that cannot play (an endpoint down) does not stop the person's round
        _send(out, ("error", str(exc) or type(exc).__name__))


def play_round(job: Round, on_message: Callable[[tuple[Any, ...]], None], cancelled: Callable[[], bool]) -> None:
    """Run the round in a child interpreter and hand each of its messages to ``on_message`` until
    it is done; stop the child when ``cancelled()`` says the screen closed.  Blocks: call it from
    a worker thread."""
    child = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, bufsize=0)
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(pickle.dumps(job))
        child.stdin.close()
        fd = child.stdout.fileno()
        while True:
            if not select.select([fd], [], [], POLL_S)[0]:
                if cancelled():
                    return
                continue
            head = _read(fd, _SIZE.size)
            data = _read(fd, _SIZE.unpack(head)[0]) if head is not None else None
            if data is None:
                on_message(("ended", child.wait()))
                return
            message = pickle.loads(data)
            on_message(message)
            if message[0] != "turn":
                return
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()


if __name__ == "__main__":
    # Messages go to the stdout this process was given; anything else printed goes to stderr.
    os.nice(NICE)
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    _play(pickle.load(sys.stdin.buffer), channel)
