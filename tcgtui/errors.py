"""Errors a user can fix: shown as one line naming the flag, file or value, exit code 2.

Imports nothing: every layer raises these, the players' (``tcgtui.opponents``) included.
"""

from __future__ import annotations


class OptionError(Exception):
    """A player's options do not fit (a flag's value, a missing endpoint): the command line
    reports it as one line naming the flag, like its own ``UserError``."""

    exit_code = 2


class UserError(OptionError):
    """Bad input from the command line, a file or the environment.

    A kind of the players' ``OptionError``: catching that one catches both."""

    exit_code = 2
