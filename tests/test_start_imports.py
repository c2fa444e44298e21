"""What a bare ``tcgtui`` (home) and the games' registry import before the first frame: no other
command's module, and no numpy (0.13 s) for the duel's report analyses."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from tcgtui import cli
from tcgtui.commands import home
home.run = lambda: 0                       # the screen itself is not the question here
cli.main([])
from tcgtui.engine import registry
registry.games()
commands = sorted(m for m in sys.modules if m.startswith("tcgtui.commands.") and m != "tcgtui.commands.home")
print(commands, "numpy" in sys.modules)
"""


def test_a_bare_tcgtui_builds_no_parser_and_the_registry_loads_no_numpy() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "False"], out
