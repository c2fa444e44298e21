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

