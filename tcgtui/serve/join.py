"""What a browser participant runs, named once: ``tcgtui study join`` with the participant's token
and the study's store, and the modules the zygote imports ahead of time for it."""

from __future__ import annotations

import os
import runpy
import sys

# --token=T: a token may begin with "-", which argparse would take for a flag of its own.
PARTICIPANT_ARGV = ("study", "join", "{study}", "--token={token}", "--db={db}")
# Imported by the zygote before it forks: what the participant's process would import anyway.
PRELOAD = ("tcgtui.cli", "tcgtui.commands.study", "tcgtui.study.joining", "tcgtui.study.roster",
           "tcgtui.study.spec", "tcgtui.tui.app", "tcgtui.tui.screens.study", "tcgtui.serve.driver")

# Where a participant's process finds its study, store and token (the environment, not argv,
# so no other user of the machine reads a token in ps).
STUDY_ENV, DB_ENV, TOKEN_ENV = "TCGTUI_SERVE_STUDY", "TCGTUI_SERVE_DB", "TCGTUI_SERVE_TOKEN"


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
