"""Errors a user can fix: shown as one line naming the flag, file or value, exit code 2."""

from __future__ import annotations

from tcgtui.opponents.base import OptionError


class UserError(OptionError):
    """Bad input from the command line, a file or the environment.

    A kind of the players' ``OptionError``: catching that one catches both."""

    exit_code = 2
