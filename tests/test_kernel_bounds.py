"""The compiled kernel never indexes outside its arrays, negative indices included.

kernel.py compiles without Python's wrap-around of negative indices (for speed), so an index below
zero would read another array's memory instead of counting from the end.  Here everything
tests/fixtures/kernel_streams.json records (mc:1000 counts, random games on packs using every
primitive, mc:K games, ISMCTS) runs again in a fresh process with numba's bounds checks on, where
any such index raises, and must still give the recorded numbers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("record_kernel_fixture", sys.argv[1])
recorder = importlib.util.module_from_spec(spec)
spec.loader.exec_module(recorder)
print(json.dumps(recorder.record()))
"""


def test_recorded_streams_hold_with_bounds_checked(tmp_path):
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", CHECK, str(ROOT / "scripts" / "record_kernel_fixture.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    recorded = json.loads((ROOT / "tests" / "fixtures" / "kernel_streams.json").read_text())
    assert json.loads(done.stdout.strip().splitlines()[-1]) == recorded
