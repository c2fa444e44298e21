"""tcgtui: play, watch and benchmark reasoning games in the terminal.

The repository keeps ``engine/``, ``opponents/`` and ``locales/`` beside this
folder; an install maps them under this package (``tcgtui.engine``...), so
installing tcgtui adds one name to site-packages and shadows nobody's
``engine``.  In a source checkout that mapping is made here instead.
"""

from pathlib import Path as _Path

__version__ = "0.1.0"

_here = _Path(__file__).resolve().parent
if not (_here / "engine").is_dir() and (_here.parent / "engine" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # noqa: F821  (a package's own __path__)
