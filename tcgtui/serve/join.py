"""What a browser participant runs, named once: the command line a participant's process is given,
the modules the zygote imports ahead of time for it, and the study's id and title for the page.

Until ``tcgtui study join`` is on this branch, ``PARTICIPANT_ARGV`` is a stand-in: one game of
Tic-Tac-Toe against the random player under a handle made from the token, stored in the study's store.
"""

from __future__ import annotations

import os
import re
import runpy
import sys
from dataclasses import dataclass
from pathlib import Path

from tcgtui.errors import UserError
from tcgtui.userfiles import parse_toml, read_text

# The one line to switch when `study join` lands:
#   PARTICIPANT_ARGV = ("study", "join", "{study}", "--token", "{token}", "--db", "{db}")
PARTICIPANT_ARGV = ("play", "--game", "tictactoe", "--vs", "random", "--name", "p{token:.16}", "--db", "{db}")
# Imported by the zygote before it forks: what the participant's process would import anyway.
PRELOAD = ("tcgtui.cli", "tcgtui.commands.play", "tcgtui.tui.app", "tcgtui.serve.driver")

# Where a participant's process finds its study, store and token (the environment, not argv,
# so no other user of the machine reads a token in ps).
STUDY_ENV, DB_ENV, TOKEN_ENV = "TCGTUI_SERVE_STUDY", "TCGTUI_SERVE_DB", "TCGTUI_SERVE_TOKEN"
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


@dataclass(frozen=True)
class StudyPage:
    """What the server needs of the study file: its id (tokens are signed per study) and titles."""

    id: str
    titles: dict[str, str]          # language -> title ("" for the one title of every language)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("") or next(iter(self.titles.values()))


def read_study(path: str) -> StudyPage:
    """The study file's id and title, checked: one line naming the file and key otherwise."""
    try:
        raw = parse_toml(read_text("--study", path))
    except ValueError as exc:
        raise UserError(f"--study: {path}: not a TOML file ({exc})") from None
    sid, title = raw.get("id"), raw.get("title")
    if not isinstance(sid, str) or not ID_RE.fullmatch(sid):
        raise UserError(f"--study: {path}: id {sid!r} is not a study id; expected [a-z0-9][a-z0-9-]{{0,39}}")
    if isinstance(title, str) and title.strip():
        return StudyPage(sid, {"": title})
    if isinstance(title, dict) and title and all(isinstance(v, str) and v.strip() for v in title.values()):
        return StudyPage(sid, dict(title))
    raise UserError(f"--study: {path}: title is missing or empty; expected a text or {{en = \"...\", ar = \"...\"}}")


def participant_argv(study: str, token: str, db: str) -> list[str]:
    """The ``tcgtui`` arguments a participant's process runs."""
    return [part.format(study=study, token=token, db=db) for part in PARTICIPANT_ARGV]


def run_participant() -> None:
    """Run the participant's app from what the environment names, as ``python -m tcgtui ARGS``
    would (the zygote's child, or a plain process when the server runs without the zygote); it
    ends in SystemExit with the command's exit code."""
    sys.argv = ["tcgtui", *participant_argv(os.environ[STUDY_ENV], os.environ[TOKEN_ENV], os.environ[DB_ENV])]
    runpy.run_module("tcgtui", run_name="__main__")


if __name__ == "__main__":
    run_participant()
