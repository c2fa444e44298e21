"""What a person sees when tcgtui has a bug: one line naming the error and a file with the
traceback.  The traceback is frames and source lines only: locals are never written (they hold
``os.environ``, API keys and model replies), and the message is cleaned like any outside text."""

from __future__ import annotations

import os
import tempfile
import time
import traceback

from tcgtui import locales
from tcgtui.console_text import clean


def crash_folder() -> str:
    # start-up time: only a crash needs the state directory
    from platformdirs import user_state_dir
    return user_state_dir("tcgtui")


def report_crash(error: BaseException, text: locales.Catalog) -> str:
    """Writes the traceback (without locals) to a new file; returns the one line to print."""
    frames = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    what = clean(f"{type(error).__name__}: {error}")[:300]
    try:
        folder = crash_folder()
        os.makedirs(folder, exist_ok=True)
        fd, path = tempfile.mkstemp(prefix=time.strftime("crash-%Y%m%d-%H%M%S-"), suffix=".txt", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(frames)
    except OSError:
        return text.t("cli.crashed_unsaved", error=what)
    return text.t("cli.crashed", error=what, file=clean(path))
