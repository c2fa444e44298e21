"""``tcgtui report --format seed --out DIR``: stored games written as their seed's own output files.

A game offers the format through its ``seed_files`` hook (the grid games: the
seed simulator's per-game TXT, JSON, CSV and moves CSV, a PNG of the final board,
and the leaderboard's submission files per pair and prompt type).  The seed's
wording for a move's board status is read from the user's checkout (``--upstream``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import groupby
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.report.data import StoredGame
from tcgtui.errors import UserError
from tcgtui.upstream import Upstream

FINISHED = "finished"


def _stamp(when: str | None) -> str:
    """yyMMdd-HHmmss, as the seed names its files."""
    try:
        return datetime.fromisoformat(when or "").strftime("%y%m%d-%H%M%S")
    except ValueError:
        return "000000-000000"


def _unique(hook: Any, logged: Any, g: StoredGame, number: int, written: dict[str, Any]) -> dict[str, Any]:
    """The game's files, named as the seed names them; when two games of a pair finished with the
    same result in the same second, the later one is named a second later, so none overwrites another."""
    when = datetime.fromisoformat(g.finished_at) if g.finished_at else datetime(2000, 1, 1)
    while True:
        files = hook.game_files(logged, uuid=g.id, stamp=when.strftime("%y%m%d-%H%M%S"), number=number,
                                duration_s=_seconds(g.started_at, g.finished_at))
        if not written.keys() & files.keys():
            return files
        when += timedelta(seconds=1)


def _seconds(started: str, finished: str | None) -> int:
    try:
        return round((datetime.fromisoformat(finished or "") - datetime.fromisoformat(started)).total_seconds())
    except ValueError:
        return 0


def _prompt(config: dict[str, Any], seats: tuple[str, ...]) -> tuple[str, str]:
    """(prompt type, prompt version) of a game: its model's, else the run's style, else list."""
    for spec in seats:
        for described in (config.get("players", {}).get(spec) or {}).values():
            if described.get("prompt_style"):
                return described["prompt_style"], str(described.get("prompt_version", ""))
    return str(config.get("settings", {}).get("prompt_style") or "list"), ""


def write(spec: registry.GameSpec, games: list[StoredGame], configs: dict[str | None, dict[str, Any]], out: Path,
          upstream: Upstream | None) -> tuple[int, int]:
    """Write every finished game's files into ``out``; (games, files) written."""
    text = locales.load()
    hook = spec.report.seed_files
    if hook is None:
        raise UserError(text.t("cmd_report.errors.no_seed_format", game=spec.id))
    if upstream is None:
        raise UserError(text.t("cmd_report.errors.seed_needs_upstream", repository=hook.REPOSITORY))
    try:
        wording = hook.wording(spec.id, upstream)
    except ValueError as exc:
        raise UserError(f"--upstream: {exc}") from None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out: {out}: {exc.strerror or exc}") from None
    written: dict[str, Any] = {}
    done = []
    rows = sorted((g for g in games if g.status == FINISHED and g.record is not None),
                  key=lambda g: (g.seats, g.started_at, g.id))
    for seats, pair in groupby(rows, key=lambda g: g.seats):
        by_style: dict[tuple[str, str], list[Any]] = {}
        for number, g in enumerate(pair, 1):
            style, version = _prompt(configs.get(g.run, {}), g.seats)
            logged = hook.seed_game(g.record, list(g.seats), style, version or wording.version, wording)
            written.update(_unique(hook, logged, g, number, written))
            by_style.setdefault((style, version), []).append((logged, g))
            done.append(g.id)
        for group in by_style.values():
            last = max(g.finished_at or "" for _, g in group)
            written.update(hook.submission_files([s for s, _ in group], uuid=group[0][1].id, stamp=_stamp(last)))
    for name, content in written.items():
        path = out / name
        try:
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        except OSError as exc:
            raise UserError(f"--out: {path}: {exc.strerror or exc}") from None
    return len(done), len(written)
