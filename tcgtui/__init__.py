"""tcgtui: play, watch and benchmark reasoning games in the terminal.

The repository keeps ``engine/``, ``opponents/`` and ``locales/`` beside this
folder; an install maps them under this package (``tcgtui.engine``...), so
installing tcgtui adds one name to site-packages and shadows nobody's
``engine``.  In a source checkout that mapping is made here instead.
"""

import os as _os
from pathlib import Path as _Path

__version__ = "0.1.0"

# Search compiles with numba once; keep the compiled code per version in the user's cache
# directory (site-packages may not be writable, and then every start would compile again).
# A NUMBA_CACHE_DIR the user set wins; numba skips a cache it cannot write.
if "NUMBA_CACHE_DIR" not in _os.environ:
    from platformdirs import user_cache_dir as _user_cache_dir

    _os.environ["NUMBA_CACHE_DIR"] = str(_Path(_user_cache_dir("tcgtui")) / f"numba-{__version__}")

_here = _Path(__file__).resolve().parent
if not (_here / "engine").is_dir() and (_here.parent / "engine" / "__init__.py").is_file():
    __path__.append(str(_here.parent))  # noqa: F821  (a package's own __path__)
