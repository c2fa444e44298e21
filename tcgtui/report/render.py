"""Show a report as rich tables, Markdown, CSV or JSON.

Machine formats (CSV, JSON) keep raw numbers and stable English keys; the
human formats format numbers and take their headers from the locale.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Callable

from rich.console import Console
from tcgtui.console_text import clean, safe
from rich.table import Table

from tcgtui import locales
from tcgtui.report.analyses import Report, Row
from tcgtui.report.stats import DECAY_FORM


def _pct(v: Any) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _num(v: Any) -> str:
    if v is None:
        return "–"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _ks(v: Any) -> str:
    return ",".join(str(k) for k in v)


def _ci(row: Row) -> str:
    if row.get("ci_low") is None:
        return "–"
    return f"[{100 * row['ci_low']:.1f}%, {100 * row['ci_high']:.1f}%]"


Column = tuple[str, Callable[[Row], str]]


def _col(key: str, fmt: Callable[[Any], str] = _num) -> Column:
    return key, lambda row: fmt(row.get(key))


COLUMNS: dict[str, list[Column]] = {
    "win_rates": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("finished"), _col("wins"),
                  _col("draws"), _col("losses"), _col("errored"), _col("abandoned"), _col("win_rate", _pct),
                  ("ci", _ci)],
    "decay": [_col("agent", str), _col("lang", str), _col("opponent", str), _col("ks", _ks), _col("a"),
              _col("b"), _col("r2")],
    "language_gap": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("en_win_rate", _pct),
                     _col("win_rate", _pct), _col("relative_gap", _pct)],
    "summary": [_col("agent", str), _col("lang", str), _col("finished"), _col("mean_turns"),
                _col("median_decision_s"), _col("mean_tokens_per_turn"), _col("champion", _pct),
                _col("spell", _pct), _col("trick", _pct)],
    "error_patterns": [_col("agent", str), _col("pattern", str), _col("hits"), _col("of_losses", _pct),
                       _col("share", _pct), _col("mean_turns")],
    "quarters": [_col("agent", str), _col("quarter"), _col("games"), _col("win_rate", _pct),
                 _col("win_rate_var"), _col("decisions"), _col("decision_s_var"), _col("mean_tokens"),
                 _col("tokens_var")],
    "llm": [_col("agent", str), _col("decisions"), _col("parse_tags", _pct), _col("parse_last_name", _pct),
            _col("parse_none", _pct), _col("invalid", _pct), _col("fallback_random", _pct),
            _col("fallback_forfeit", _pct)],
}


def _cells(row: Row, section: str, text: locales.Catalog) -> list[str]:
    out = []
    for key, fmt in COLUMNS[section]:
        value = fmt(row)
        if key == "pattern":
            value = text.t(f"cmd_report.pattern.{value}")
        out.append(value)
    return out


def notes(text: locales.Catalog) -> list[str]:
    return [text.t("cmd_report.notes.denominator"), text.t("cmd_report.notes.decay", form=DECAY_FORM),
            text.t("cmd_report.notes.decisions"), text.t("cmd_report.notes.patterns"),
            text.t("cmd_report.notes.quarters")]


def as_table(report: Report, sections: list[str], console: Console) -> None:
    text = locales.load()
    for name in sections:
        rows = report.sections[name]
        if not rows:
            continue
        table = Table(title=text.t(f"cmd_report.section.{name}"), title_justify="left")
        for key, _ in COLUMNS[name]:
            table.add_column(text.t(f"cmd_report.col.{key}"), justify="left" if key in (
                "agent", "opponent", "lang", "pattern") else "right")
        for row in rows:
            table.add_row(*(safe(c) for c in _cells(row, name, text)))
        console.print(table)
    for line in notes(text):
        console.print(f"[dim]{line}[/dim]", highlight=False)


def as_markdown(report: Report, sections: list[str]) -> str:
    text = locales.load()
    out: list[str] = []
    for name in sections:
        rows = report.sections[name]
        if not rows:
            continue
        heads = [text.t(f"cmd_report.col.{key}") for key, _ in COLUMNS[name]]
        out += [f"### {text.t(f'cmd_report.section.{name}')}", "", "| " + " | ".join(heads) + " |",
                "|" + "|".join("---" for _ in heads) + "|"]
        out += ["| " + " | ".join(clean(c).replace("|", "\\|") for c in _cells(r, name, text)) + " |" for r in rows]
        out.append("")
    out += [f"- {line}" for line in notes(text)]
    return "\n".join(out) + "\n"


def as_csv(report: Report, section: str) -> str:
    rows = report.sections[section]
    buf = io.StringIO()
    keys = list(dict.fromkeys(k for r in rows for k in r))
    writer = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: _ks(v) if isinstance(v, list) else ("" if v is None else clean(v) if isinstance(v, str) else v)
                         for k, v in r.items()})
    return buf.getvalue()


def as_json(report: Report, sections: list[str], meta: dict[str, Any]) -> str:
    text = locales.load()
    return json.dumps({**meta, "decay_form": DECAY_FORM, "notes": notes(text),
                       **{name: report.sections[name] for name in sections}}, indent=2, ensure_ascii=False)
