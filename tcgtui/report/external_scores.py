"""``report --scores FILE``: other benchmarks' scores per model, for the seed tables that correlate a
rating with them (The Token Games' ``model-scores.json``: HLE, GPQA...).

Two shapes are read: the seed's file as released (a list of objects, each with the model's ``id`` and
its scores) and the shape its README describes (an object keyed by model name, each value an object of
scores).  Only numbers are kept (a missing benchmark is missing, not zero); anything else in the
file is refused in one line naming it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.errors import UserError

Scores = dict[str, dict[str, float]]


def _numbers(values: dict[str, Any]) -> dict[str, float]:
    return {str(k): float(v) for k, v in values.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and v == v}


def load(path_text: str) -> Scores:
    """The scores of ``path_text`` by model, or a UserError naming the file and what was expected."""
    text = locales.load()
    path = Path(path_text).expanduser()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(text.t("cmd_report.errors.scores_missing", path=path_text)) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(text.t("cmd_report.errors.scores_unreadable", path=path_text,
                               reason=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
    if isinstance(data, list) and all(isinstance(row, dict) and isinstance(row.get("id"), str) for row in data):
        return {row["id"]: _numbers({k: v for k, v in row.items() if k != "id"}) for row in data}
    if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
        return {str(model): _numbers(values) for model, values in data.items()}
    raise UserError(text.t("cmd_report.errors.scores_shape", path=path_text))
