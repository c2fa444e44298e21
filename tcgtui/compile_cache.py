"""Filling numba's on-disk cache for a game's compiled search in a child process.

A new install has an empty cache, and compiling the card game's kernels takes
20 s and more, most of it Python code holding the GIL.  Done in the TUI's own
process, even in a thread, it would starve the screen; done in a child, the
screen stays live and the parent then loads the cached code in about a second.
A marker file beside the cache says a game's code was compiled here once.

    python -m tcgtui.compile_cache tcg      # what the TUI runs in the background
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tcgtui.arena import load_resources
from tcgtui.engine import registry


def _marker(game_id: str) -> Path | None:
    cache = os.environ.get("NUMBA_CACHE_DIR")
    return Path(cache) / f"compiled-{game_id}" if cache else None


def is_filled(game_id: str) -> bool:
    """Whether this game's compiled search was cached here before (loading it takes a second)."""
    marker = _marker(game_id)
    return marker is not None and marker.is_file()


def mark_filled(game_id: str) -> None:
    marker = _marker(game_id)
    if marker is None:
        return
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass                   # a read-only cache: numba skips it too, and the next start compiles again


class ChildCompile:
    """The game's search compiling in a child process; ``wait`` blocks the calling thread, not the GIL."""

    def __init__(self, game_id: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", __name__, game_id], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait(self) -> bool:
        return self.process.wait() == 0

    def stop(self) -> None:
        """The person left before it was done: the next start compiles again."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def compile_game(game_id: str) -> None:
    """Compile (or load) the game's search on a game with default parameters, their files loaded
    (the card game's default pack); the kernels are compiled per type, not per pack or board, so
    any game of this id fills the same cache."""
    spec = registry.get(game_id)
    if spec.fast is not None:
        spec.fast().warm_up(spec.game(load_resources(spec, spec.info.resolve({}))))
    mark_filled(game_id)


NICE = 10        # the compile yields the processor to the screen and the interim search a person waits on


if __name__ == "__main__":
    os.nice(NICE)
    compile_game(sys.argv[1])
