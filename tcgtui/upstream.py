"""The user's checkout of a seed's public repository, read at run time (``--upstream DIR``).

Where a seed protocol needs the seed's exact prompt wording or data, tcgtui
reads it from here and carries none of it.  Every file is read through
``Upstream.text`` so a missing or unreadable one is one line naming the
folder, the file and what the folder should be.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from typing import Any
from pathlib import Path

from tcgtui.errors import UserError
from tcgtui.limits import check_name
from tcgtui.userfiles import read_text

LIMIT = 16 << 20        # bytes of one file of a checkout: the seeds' largest (a rule library) is far below


@dataclass(frozen=True)
class Upstream:
    """A folder the user says is a checkout of a seed's repository."""

    root: Path
    flag: str = "--upstream"

    def path(self, relative: str) -> Path:
        return self.root / relative

    def has(self, relative: str) -> bool:
        return self.path(relative).is_file()

    def text(self, relative: str, repository: str) -> str:
        """The file's text; one line if the folder lacks it (``repository``: what the folder should be)."""
        path = self.path(relative)
        if not path.is_file():
            raise UserError(f"{self.flag}: {self.root} has no {relative}; expected a checkout of {repository}")
        return read_text(self.flag, str(path), LIMIT)

    def describe(self) -> dict[str, str]:
        """What a record says of it: the folder and, for a git checkout, its commit."""
        out = {"path": str(self.root)}
        try:
            head = subprocess.run(["git", "-C", str(self.root), "rev-parse", "HEAD"], capture_output=True,
                                  text=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            return out
        if head.returncode == 0 and head.stdout.strip():
            out["commit"] = head.stdout.strip()
        return out


def load(flag: str, folder: str) -> Upstream:
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise UserError(f"{flag}: {folder!r} is not a folder; expected a checkout of the seed's public repository")
    return Upstream(path.resolve(), flag)


def import_run(store: Any, name: str, config: dict[str, Any], clash: str) -> Any:
    """The run a seed's published results go into (``duel``, ``eleusis`` and ``grid import``): made on
    first use; after that, a run of another kind or of another seed's results is refused with the
    one line ``clash``, so a second import adds to its own run and to nothing else."""
    run = store.run(check_name("--run", name))
    if run is None:
        return store.create_run(name, config, kind="import")
    if run.kind != "import" or run.config.get("source") != config["source"]:
        raise UserError(clash)
    return run
