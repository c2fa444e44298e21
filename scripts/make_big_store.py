"""Build a synthetic store of N card games (default 50,000) for timing ``tcgtui report``.

    python scripts/make_big_store.py /tmp/big.sqlite3 50000
    time tcgtui report --db /tmp/big.sqlite3 --format json > /dev/null

``tcgtui perf --only report_speed`` builds one itself and times the report on it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.perf._bigstore import build  # noqa: E402

if __name__ == "__main__":
    build(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 50_000)
