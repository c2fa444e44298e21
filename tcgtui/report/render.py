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
from rich.markup import escape
from tcgtui.console_text import clean, safe
from rich.table import Table

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.report.analyses import Report, Row


def _pct(v: Any) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _num(v: Any) -> str:
    if v is None:
        return "–"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _elo(v: Any) -> str:
    """A rating to a tenth of a point, as The Token Games publishes its Elo."""
    return "–" if v is None else f"{v:.1f}"


def _on_scale(row: Row) -> str:
    """A placed rating; one that won (lost) every game is only a lower (upper) bound."""
    shown = _elo(row.get("rating"))
    if row.get("beyond"):
        return ("≥ " if row.get("score_share") == 1 else "≤ ") + shown
    return shown


def _ks(v: Any) -> str:
    return ",".join(str(k) for k in v)


def _interval(low: str = "ci_low", high: str = "ci_high", spec: str = ".4g", scale: float = 1.0,
              unit: str = "") -> Callable[[Row], str]:
    """An interval cell from a row's two bounds, ``[low, high]`` in ``spec`` (times ``scale``, then ``unit``)."""
    def cell(row: Row) -> str:
        lo, hi = row.get(low), row.get(high)
        return "–" if lo is None else f"[{scale * lo:{spec}}{unit}, {scale * hi:{spec}}{unit}]"
    return cell


_ci = _interval(spec=".1f", scale=100.0, unit="%")          # a share, in percent
_ci_num = _interval()
_ci_elo = _interval(spec=".1f")                            # a rating, to a tenth of a point
_ci_slope = _interval("slope_low", "slope_high")
_ci_gap = _interval("gap_low", "gap_high")


def _ci_share(name: str) -> Callable[[Row], str]:
    return _interval(f"{name}_ci_low", f"{name}_ci_high", ".1f", 100.0, "%")


def _flag(v: Any) -> str:
    return "*" if v else ""


Column = tuple[str, Callable[[Row], str]]
SHARES = ("win", "right")          # a study row's measure that is a share (shown in percent), not a score


def _measured(key: str) -> Callable[[Row], str]:
    """A study row's value as its measure has it: a share in percent, a mean score as a number."""
    def cell(row: Row) -> str:
        return (_pct if row.get("measure") in SHARES else _num)(row.get(key))
    return cell


def _ci_measured(low: str, high: str) -> Callable[[Row], str]:
    def cell(row: Row) -> str:
        a, b = row.get(low), row.get(high)
        if a is None:
            return "–"
        fmt = _pct if row.get("measure") in SHARES else _num
        return f"[{fmt(a)}, {fmt(b)}]"
    return cell


def _col(key: str, fmt: Callable[[Any], str] = _num) -> Column:
    return key, lambda row: fmt(row.get(key))


COLUMNS: dict[str, list[Column]] = {
    "win_rates": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("finished"), _col("wins"),
                  _col("draws"), _col("losses"), _col("cancelled"), _col("disqualified"), _col("errored"),
                  _col("abandoned"), _col("win_rate", _pct),
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
    "scores": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("finished"), _col("errored"),
               _col("abandoned"), _col("mean_score"), ("ci_mean", _ci_num), _col("mean_positive")],
    "decisions": [_col("agent", str), _col("lang", str), _col("finished"), _col("decisions"),
                  _col("median_decision_s"), _col("mean_decision_s"), _col("mean_tokens"),
                  _col("tokens_estimated", _flag), _col("invalid_moves"), _col("invalid_share", _pct)],
    "errors": [_col("error", str), _col("games"), _col("agents", str)],
    "by_round": [_col("round"), _col("asked"), _col("solved"), _col("solve_rate", _pct), ("ci", _ci)],
    "seed_elo": [_col("agent", str), _col("match_elo", _elo), _col("proposer_elo", _elo), _col("solver_elo", _elo)],
    "role_correlation": [_col("ratings", str), _col("players"), _col("spearman"), _col("spearman_p"), _col("pearson"),
                         _col("pearson_p")],
    "score_correlation": [_col("rating", str), _col("benchmark", str), _col("players"), _col("spearman"), _col("spearman_p"),
                          _col("pearson"), _col("pearson_p")],
    "families": [_col("family", str), _col("models"), _col("cards"), _col("champion", _pct), _col("spell", _pct),
                 _col("trick", _pct)],
    "matrix": [_col("agent", str), _col("opponent", str), _col("games"), _col("wins"), _col("draws"),
               _col("losses"), _col("cancelled"), _col("disqualified"), _col("errored"), _col("abandoned"),
               _col("score_share", _pct)],
    "ratings": [_col("agent", str), _col("games"), _col("rating"), ("ci_rating", _ci_num)],
    "ratings_by_role": [_col("agent", str), _col("role", str), _col("games"), _col("rating"),
                        ("ci_rating", _ci_num)],
    "study_baseline": [_col("game", str), _col("opponent", str), _col("lang", str), _col("measure", str),
                       _col("people"), _col("games"), ("estimate", _measured("estimate")),
                       ("ci_people", _ci_measured("ci_low", "ci_high")), ("sd_people", _measured("sd_people")),
                       _col("icc"), ("ci_pooled", _ci_measured("pooled_low", "pooled_high"))],
    "quality": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("evaluator", str), _col("games"),
                _col("judged"), _col("mean_regret"), ("ci_regret", _ci_num), _col("blunders"),
                _col("blunder_rate", _pct), _col("agreement_rate", _pct)],
    "quality_by_kind": [_col("agent", str), _col("lang", str), _col("evaluator", str), _col("kind", str),
                        _col("games"), _col("judged"), _col("mean_regret"), ("ci_regret", _ci_num),
                        _col("blunders"), _col("blunder_rate", _pct), _col("agreement_rate", _pct)],
    "quality_by_phase": [_col("agent", str), _col("opponent", str), _col("lang", str), _col("evaluator", str),
                         _col("by", str), _col("phase", str), _col("games"), _col("judged"), _col("mean_regret"),
                         ("ci_regret", _ci_num), _col("blunders"), _col("blunder_rate", _pct),
                         _col("agreement_rate", _pct)],
    "diversity": [_col("agent", str), _col("lang", str), _col("choice", str), _col("by", str), _col("phase", str),
                  _col("counted"), _col("entropy_bits"), _col("max_bits"), _col("shares", str)],
    "adaptability": [_col("agent", str), _col("lang", str), _col("evaluator", str), _col("opponent_k"), _col("games"),
                     _col("judged"), _col("mean_regret"), ("ci_regret", _ci_num), _col("slope"),
                     ("ci_slope", _ci_slope)],
    "scale": [_col("agent", str), _col("lang", str), ("rating", _on_scale), ("ci_rating", _ci_elo), _col("games"),
              _col("score_share", _pct), _col("rungs", str), _col("scale_rating", _elo)],
    "regret_ranking": [_col("opponent", str), _col("lang", str), _col("evaluator", str), _col("rank"), _col("agent", str), _col("games"),
                       _col("judged"), _col("mean_regret"), ("ci_regret", _ci_num), _col("next", lambda v: v or "–"),
                       _col("gap"), ("ci_gap", _ci_gap), _col("established", _flag)],
    "study_curve": [_col("game", str), _col("measure", str), _col("position"), _col("people"),
                    ("estimate", _measured("estimate")), ("ci_people", _ci_measured("ci_low", "ci_high"))],
    "study_paired": [_col("game", str), _col("opponent", str), _col("lang", str), _col("model", str),
                     _col("people"), _col("pairs"), ("person_mean", _measured("person_mean")),
                     ("model_mean", _measured("model_mean")), ("difference", _measured("difference")),
                     ("ci_people", _ci_measured("ci_low", "ci_high"))],
}
PARSE = "parse_"          # the llm section's parse-path columns: parse_<path>
# Outcomes most runs never have: on a terminal a column of them, 0 in every row, is said in a line
# under the table instead (the win-rate table fits 120 columns); Markdown, CSV and JSON keep them.
RARE_COUNTS = ("cancelled", "disqualified", "errored", "abandoned")
LEFT = ("agent", "next", "opponent", "lang", "evaluator", "kind", "by", "phase", "choice", "shares", "game", "mover", "pattern", "error", "agents",
        "role", "organisation", "family", "form", "size_range", "style", "run", "measure", "participant")
PCT_SUFFIXES = ("rate", "share", "_gap")


def _rand(row: Row) -> str:
    if row.get("rand_low") is None:
        return "–"
    return f"[{100 * row['rand_low']:.1f}%, {100 * row['rand_high']:.1f}%]"


def _wide_cell(k: str) -> Callable[[Row], str]:
    def cell(row: Row) -> str:
        if row.get(f"k{k}_win_rate") is None:
            return "–"
        return (f"{100 * row[f'k{k}_win_rate']:.1f} [{100 * row[f'k{k}_ci_low']:.1f}%, "
                f"{100 * row[f'k{k}_ci_high']:.1f}%] n={row[f'k{k}_games']}")
    return cell


def _wide(rows: list[Row]) -> list[Column]:
    """Table 7's layout: organisation, model, language, then a column per K (win rate, interval, games)."""
    ks = sorted({int(k[1:-len("_win_rate")]) for r in rows for k in r if k.endswith("_win_rate")})
    return [_col("organisation", str), _col("agent", str), _col("lang", str), _col("opponent", str),
            *((f"K={k}", _wide_cell(str(k))) for k in ks)]


TIMES = ("median_decision_s", "mean_decision_s")    # seconds; shown in ms where all of a column is under 1 s


def _fixed(v: Any) -> str:
    """A time without an exponent: 4.188e-06 s reads 0.004 ms."""
    if v is None:
        return "–"
    return f"{v:.0f}" if v >= 100 else f"{v:.2f}" if v >= 1 else f"{v:.3f}"


def _in_units(cols: list[Column], rows: list[Row]) -> list[Column]:
    """Time columns in s, or in ms (the key's ``_ms`` header) when every value is under a second."""
    out: list[Column] = []
    for key, fmt in cols:
        if key in TIMES:
            values = [r[key] for r in rows if r.get(key) is not None]
            if values and max(values) < 1:
                out.append((key.removesuffix("_s") + "_ms",
                            lambda row, k=key: _fixed(None if row.get(k) is None else 1000 * row[k])))
            else:
                out.append((key, lambda row, k=key: _fixed(row.get(k))))
        else:
            out.append((key, fmt))
    return out


def _shown(report: Report, rows: list[Row], section: str, text: locales.Catalog,
           cols: list[Column], terminal: bool = True) -> tuple[list[Column], list[list[str]], list[str]]:
    """The columns a person reads, their cells, and (on a terminal) the counts of exceptional outcomes
    left out for being 0 in every row, said under the table; a column with no value in any row is
    left out everywhere."""
    cells = [_cells(report, row, section, text, cols) for row in rows]
    keep = [i for i in range(len(cols)) if any(c[i] not in ("", "–") for c in cells)]
    zero = [i for i in keep if terminal and cols[i][0] in RARE_COUNTS and all(c[i] == "0" for c in cells)]
    keep = [i for i in keep if i not in zero]
    return [cols[i] for i in keep], [[c[i] for i in keep] for c in cells], [cols[i][0] for i in zero]


def _none_of(report: Report, zero: list[str], text: locales.Catalog) -> str:
    """The sentence under a table that says which outcome columns were left out, all 0."""
    sep = text.t("cmd_report.zero_sep")
    return text.t("cmd_report.zero_columns", columns=sep.join(header(report, key, text).lower() for key in zero))


def columns(section: str, rows: list[Row]) -> list[Column]:
    """A section's columns, times in s or ms (``_in_units``)."""
    return _in_units(_columns(section, rows), rows)


def _columns(section: str, rows: list[Row]) -> list[Column]:
    """A section's columns: the known layout (right/wrong scores' interval headed as exact), else every
    key of its rows (ci_low/ci_high as one column); the ``llm`` section's parse-path columns are the
    paths its games' prompters reported."""
    if section == "win_rates" and any("rand_low" in r for r in rows):
        return [*COLUMNS[section], ("ci_randomized", _rand)]
    if section in ("win_rates", "scores") and any(r.get("interval") == "anytime" for r in rows):
        # a sequential run's rows (bench --until) beside others: which interval each row gives
        shown = [("ci_any", _ci if section == "win_rates" else _ci_num) if key in ("ci", "ci_mean") else (key, fmt)
                 for key, fmt in COLUMNS[section]]
        return [*shown, ("interval", lambda row: str(row.get("interval") or ("exact" if section == "win_rates"
                                                                              else "t")))]
    if section == "wide":
        return _wide(rows)
    if section == "scores" and any(r.get("interval") == "exact" for r in rows):
        return [("ci_exact", _ci_num) if key == "ci_mean" else (key, fmt) for key, fmt in COLUMNS[section]]
    if section in COLUMNS:
        return COLUMNS[section]
    if section == "llm":
        paths = [k for k in dict.fromkeys(k for r in rows for k in r) if k.startswith(PARSE)]
        return [_col("agent", str), _col("decisions"), *(_col(k, _pct) for k in paths), _col("invalid", _pct),
                _col("fallback_random", _pct), _col("fallback_forfeit", _pct)]
    out: list[Column] = []
    for key in dict.fromkeys(k for r in rows for k in r):
        if key == "ci_low":
            out.append(("ci_any", _ci_num))
        elif key.endswith("_ci_low"):          # a share's exact interval: NAME_ci_low/NAME_ci_high as one column
            out.append((key.removesuffix("_low"), _ci_share(key.removesuffix("_ci_low"))))
        elif key != "ci_high" and not key.endswith("_ci_high"):
            sample = next((r[key] for r in rows if r.get(key) is not None), None)
            fmt = _pct if key.endswith(PCT_SUFFIXES) and isinstance(sample, float) else (
                _ks if isinstance(sample, list) else _num if isinstance(sample, (int, float)) else
                lambda v: "–" if v is None else str(v))
            out.append(_col(key, fmt))
    return out


def _folder(report: Report) -> str:
    try:
        return registry.get(report.game).info.locale_folder
    except registry.UnknownGame:
        return report.game


def _text(text: locales.Catalog, keys: list[str], fallback: str, **params: Any) -> str:
    """The first of ``keys`` the locale has, else ``fallback`` (an unknown key shows as itself)."""
    for key in keys:
        try:
            return text.t(key, **params)
        except (locales.LocaleError, KeyError):
            continue
    return fallback


def title(report: Report, section: str, text: locales.Catalog) -> str:
    return _text(text, [f"{_folder(report)}.report.section.{section}", f"cmd_report.section.{section}"], section)


def header(report: Report, key: str, text: locales.Catalog) -> str:
    fallback = key
    if key.startswith(PARSE):            # a path only this game's prompter reports: named after the path
        fallback = _text(text, ["cmd_report.col.parse_other"], key, path=key[len(PARSE):])
    name = _text(text, [f"{_folder(report)}.report.col.{key}", f"cmd_report.col.{key}"], fallback)
    if len(name) == 1:                         # a fit's parameter (the decay's a and b): a symbol, as written
        return name
    return name[:1].upper() + name[1:]         # one capitalisation in every game's tables


def _cells(report: Report, row: Row, section: str, text: locales.Catalog, cols: list[Column]) -> list[str]:
    out = []
    for key, fmt in cols:
        value = fmt(row)
        if key == "pattern":
            value = _text(text, [f"{_folder(report)}.report.pattern.{value}", f"cmd_report.pattern.{value}"], value)
        elif key == "measure":
            value = _text(text, [f"cmd_report.measure.{value}"], value)
        elif key == "interval":
            value = _text(text, [f"cmd_report.interval_kind.{value}"], value)
        out.append(value)
    return out


def notes(report: Report, text: locales.Catalog) -> list[str]:
    return [_text(text, [f"{_folder(report)}.report.notes.{key}", f"cmd_report.notes.{key}"], key, **report.meta)
            for key in report.notes]


def as_table(report: Report, sections: list[str], console: Console) -> None:
    text = locales.load()
    for name in sections:
        rows = report.section(name)
        if not rows:
            continue
        cols, cells, zero = _shown(report, rows, name, text, columns(name, rows))
        table = Table(title=title(report, name, text), title_justify="left")
        for key, _ in cols:            # an interval is never cut in two ("[19.4…" over "99.4%]")
            table.add_column(header(report, key, text), justify="left" if key in LEFT else "right",
                             no_wrap=key.startswith("ci"))
        for row_cells in cells:
            table.add_row(*(safe(c) for c in row_cells))
        console.print(table)
        if zero:
            console.print(f"[dim]{escape(_none_of(report, zero, text))}[/dim]", highlight=False)
    for line in notes(report, text):
        console.print(f"[dim]{escape(line)}[/dim]", highlight=False)


def as_markdown(report: Report, sections: list[str]) -> str:
    text = locales.load()
    out: list[str] = []
    for name in sections:
        rows = report.section(name)
        if not rows:
            continue
        cols, cells, _ = _shown(report, rows, name, text, columns(name, rows), terminal=False)
        heads = [header(report, key, text) for key, _ in cols]
        out += [f"### {title(report, name, text)}", "", "| " + " | ".join(heads) + " |",
                "|" + "|".join("---" for _ in heads) + "|"]
        out += ["| " + " | ".join(clean(c).replace("|", "\\|") for c in row_cells) + " |" for row_cells in cells]
        out.append("")
    out += [f"- {line}" for line in notes(report, text)]
    return "\n".join(out) + "\n"


def as_csv(report: Report, section: str) -> str:
    rows = report.section(section)
    buf = io.StringIO()
    keys = list(dict.fromkeys(k for r in rows for k in r))
    writer = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: _ks(v) if isinstance(v, list) else ("" if v is None else clean(v) if isinstance(v, str) else v)
                         for k, v in r.items()})
    return buf.getvalue()


def as_json(report: Report, sections: list[str], meta: dict[str, Any]) -> str:
    """The sections as JSON, every string cleaned like the other formats' (JSON itself escapes
    C0 controls but would let DEL and the 8-bit C1 controls through to a terminal)."""
    text = locales.load()
    built = {name: report.section(name) for name in sections}     # first: a seed table adds its note
    return json.dumps(_cleaned({**meta, **report.meta, "notes": notes(report, text), **built}),
                      indent=2, ensure_ascii=False)


def _cleaned(value: Any) -> Any:
    if isinstance(value, str):
        return clean(value, newlines=True)
    if isinstance(value, list):
        return [_cleaned(v) for v in value]
    if isinstance(value, dict):
        return {k: _cleaned(v) for k, v in value.items()}
    return value
