"""Errors a user can fix: shown as one line naming the flag, file or value, exit code 2."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from the command line, a file or the environment."""

    exit_code = 2
