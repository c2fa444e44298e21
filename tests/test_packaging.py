"""What an install carries: setup.py's finder takes only folders with an ``__init__.py``, so a
folder of modules without one would be missing from the wheel (and every command with it)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_folder_of_python_modules_is_a_package():
    missing = []
    for top in ("tcgtui", "engine", "opponents", "locales"):
        for folder in [ROOT / top, *(p for p in (ROOT / top).rglob("*") if p.is_dir())]:
            if "__pycache__" in folder.parts:
                continue
            if any(folder.glob("*.py")) and not (folder / "__init__.py").is_file():
                missing.append(str(folder.relative_to(ROOT)))
    assert missing == []



def test_compiled_search_is_cached_per_version_in_the_user_cache_unless_the_user_chose(tmp_path):
    import os
    import subprocess
    import sys
    probe = "import os, tcgtui; print(os.environ['NUMBA_CACHE_DIR'])"
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"} | {"XDG_CACHE_HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    from tcgtui import __version__
    assert Path(out) == tmp_path / "tcgtui" / f"numba-{__version__}"
    chosen = subprocess.run([sys.executable, "-c", probe], env={**env, "NUMBA_CACHE_DIR": "/x"}, cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    assert chosen == "/x"
