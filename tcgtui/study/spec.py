"""A study is a TOML file a researcher writes once: which games against which opponents, how many
games per person, which languages, where the deals come from, and the texts a participant reads.

Everything is checked when the file is read, so a bad study is one line naming the file, the key,
the value and what was expected, before anyone is asked to consent.  The digest of the file's bytes
is stored with every game played under it, so a changed file can never pool with the old one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tcgtui import locales
from tcgtui.arena import param_error_text
from tcgtui.engine import registry
from tcgtui.engine.registry import ParamError, UnknownGame
from tcgtui.errors import UserError
from tcgtui.opponents.registry import runnable
from tcgtui.opponents.spec import SpecError
from tcgtui.study.names import PRACTICE_PREFIX, RUN_PREFIX
from tcgtui.userfiles import parse_toml, read_bytes

ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
FRESH, PAIRED = "fresh", "paired"
KEYS = {"id", "title", "consent", "done", "languages", "games_per_rung", "practice", "move_seconds", "deals", "games"}
MAX_GAMES_PER_RUNG = 200
MAX_PRACTICE = 10
MAX_MOVE_SECONDS = 3600
MAX_TEXT = 20_000


@dataclass(frozen=True)
class Rung:
    """One opponent of one game: a block of ``games_per_rung`` games in a participant's schedule."""

    game: str
    params: tuple[tuple[str, str], ...]      # as --param NAME=VALUE gives them, sorted by name
    opponent: str

    @property
    def given(self) -> dict[str, str]:
        return dict(self.params)

    @property
    def label(self) -> str:
        return f"{self.game} vs {self.opponent}"


@dataclass(frozen=True)
class Study:
    id: str
    titles: dict[str, str]            # language -> text ("" key: the one text for every language)
    consents: dict[str, str]
    dones: dict[str, str]
    languages: tuple[str, ...]
    games_per_rung: int
    practice: int
    move_seconds: float
    deals: str                        # FRESH or PAIRED
    deals_run: str | None             # PAIRED: the stored run whose deals people meet
    rungs: tuple[Rung, ...]
    digest: str
    path: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False)

    def title(self, lang: str) -> str:
        return _in(self.titles, lang, self.languages)

    def consent(self, lang: str) -> str:
        return _in(self.consents, lang, self.languages)

    def done(self, lang: str) -> str:
        return _in(self.dones, lang, self.languages)

    @property
    def run_name(self) -> str:
        return f"{RUN_PREFIX}{self.id}"

    @property
    def practice_run_name(self) -> str:
        return f"{PRACTICE_PREFIX}{self.id}"

    @property
    def counted_games(self) -> int:
        return self.games_per_rung * len(self.rungs)

    def config(self) -> dict[str, Any]:
        """What the study's run records: the study as read, and the digest of its file."""
        return {"study": self.id, "digest": self.digest, "spec": self.raw}


def _in(texts: dict[str, str], lang: str, languages: tuple[str, ...]) -> str:
    if "" in texts:
        return texts[""]
    return texts.get(lang) or texts[languages[0]]


def load_study(path: str | Path, flag: str = "") -> Study:
    """The study in ``path``, every key checked; one ``UserError`` line otherwise."""
    data = read_bytes(flag, path)
    where = f"{flag} {path}" if flag else str(path)
    try:
        raw = parse_toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise _bad(where, "encoding") from None
    except ValueError as exc:
        raise UserError(locales.load().t("study.not_toml", file=where, reason=str(exc))) from None
    return parse_study(raw, hashlib.sha256(data).hexdigest(), where, str(Path(path).expanduser().resolve()))


def _bad(where: str, key: str, value: Any = None, expected: str = "") -> UserError:
    text = locales.load()
    if key == "encoding":
        return UserError(text.t("study.not_utf8", file=where))
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return UserError(text.t("study.bad_key", file=where, key=key, value=shown, expected=expected))


def _expect(key: str) -> str:
    return locales.load().t(f"study.expect.{key}")


def parse_study(raw: dict[str, Any], digest: str, where: str, path: str = "") -> Study:
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise UserError(locales.load().t("study.unknown_key", file=where, key=unknown[0], known=", ".join(sorted(KEYS))))
    for key in ("id", "title", "consent", "games"):
        if key not in raw:
            raise UserError(locales.load().t("study.missing", file=where, key=key))
    sid = raw["id"]
    if not isinstance(sid, str) or not ID_RE.fullmatch(sid):
        raise _bad(where, "id", sid, _expect("id"))
    languages = raw.get("languages", [locales.DEFAULT])
    known = locales.available()
    if (not isinstance(languages, list) or not languages or len(set(map(str, languages))) != len(languages)
            or any(lang not in known for lang in languages)):
        raise _bad(where, "languages", languages, _expect("languages").format(known=", ".join(known)))
    langs = tuple(languages)
    titles = _texts(raw["title"], "title", where, langs)
    consents = _texts(raw["consent"], "consent", where, langs)
    dones = _texts(raw.get("done", {lang: locales.load(lang).t("study.done_default") for lang in langs}),
                   "done", where, langs)
    per_rung = _whole(raw.get("games_per_rung", 1), "games_per_rung", where, 1, MAX_GAMES_PER_RUNG)
    practice = _whole(raw.get("practice", 0), "practice", where, 0, MAX_PRACTICE)
    seconds = raw.get("move_seconds", 0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= MAX_MOVE_SECONDS:
        raise _bad(where, "move_seconds", seconds, _expect("move_seconds").format(high=MAX_MOVE_SECONDS))
    deals, deals_run = _deals(raw.get("deals", {"kind": FRESH}), where)
    rungs = _rungs(raw["games"], where)
    return Study(sid, titles, consents, dones, langs, per_rung, practice, float(seconds), deals, deals_run, rungs,
                 digest, path, raw)


def _texts(value: Any, key: str, where: str, langs: tuple[str, ...]) -> dict[str, str]:
    """A text for every language: one string for all, or a table with one per language offered."""
    if isinstance(value, str) and value.strip() and len(value) <= MAX_TEXT:
        return {"": value}
    if isinstance(value, dict) and all(isinstance(v, str) and v.strip() and len(v) <= MAX_TEXT for v in value.values()):
        missing = [lang for lang in langs if lang not in value]
        extra = [k for k in value if k not in langs]
        if not missing and not extra:
            return dict(value)
    raise _bad(where, key, value, _expect("text").format(langs=", ".join(langs), high=MAX_TEXT))


def _whole(value: Any, key: str, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(where, key, value, _expect("whole").format(low=low, high=high))
    return value


def _deals(value: Any, where: str) -> tuple[str, str | None]:
    if not isinstance(value, dict) or value.get("kind") not in (FRESH, PAIRED) or set(value) - {"kind", "run"}:
        raise _bad(where, "deals", value, _expect("deals"))
    if value["kind"] == FRESH:
        if "run" in value:
            raise _bad(where, "deals.run", value["run"], _expect("deals_fresh"))
        return FRESH, None
    run = value.get("run")
    if not isinstance(run, str) or not run.strip() or len(run) > 200:
        raise _bad(where, "deals.run", run, _expect("deals_run"))
    return PAIRED, run


def _rungs(value: Any, where: str) -> tuple[Rung, ...]:
    if not isinstance(value, list) or not value or len(value) > 20:
        raise _bad(where, "games", value, _expect("games"))
    out: list[Rung] = []
    for i, entry in enumerate(value):
        key = f"games[{i}]"
        if not isinstance(entry, dict) or set(entry) - {"game", "params", "ladder"} or "game" not in entry:
            raise _bad(where, key, entry, _expect("game_entry"))
        game_id = entry["game"]
        try:
            spec = registry.get(game_id) if isinstance(game_id, str) else None
        except UnknownGame:
            spec = None
        if spec is None:
            raise _bad(where, f"{key}.game", game_id,
                       _expect("game").format(games=", ".join(s.id for s in registry.games())))
        given = entry.get("params", {})
        if not isinstance(given, dict) or any(isinstance(v, (dict, list)) for v in given.values()):
            raise _bad(where, f"{key}.params", given, _expect("params"))
        params = tuple(sorted((str(k), _as_given(v)) for k, v in given.items()))
        try:
            spec.info.resolve(dict(params))
        except ParamError as exc:
            raise UserError(f"{where}: {key}.params: {param_error_text(exc, locales.load())}") from None
        ladder = entry.get("ladder", [] if spec.info.seats == 1 else None)
        if spec.info.seats == 1:
            if ladder:
                raise _bad(where, f"{key}.ladder", ladder, _expect("ladder_solo"))
            out.append(Rung(spec.id, params, ""))
            continue
        if not isinstance(ladder, list) or not ladder or len(ladder) > 20:
            raise _bad(where, f"{key}.ladder", ladder, _expect("ladder"))
        for j, player in enumerate(ladder):
            out.append(Rung(spec.id, params, _player(player, f"{key}.ladder[{j}]", spec, where)))
    if len(set(out)) != len(out):
        raise _bad(where, "games", value, _expect("unique_rungs"))
    return tuple(out)


def _as_given(value: Any) -> str:
    """A TOML value as the command line's --param would give it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _player(value: Any, key: str, spec: registry.GameSpec, where: str) -> str:
    if not isinstance(value, str):
        raise _bad(where, key, value, _expect("player"))
    try:
        return runnable(value, spec)
    except SpecError as exc:
        raise UserError(f"{where}: {key}: {exc}") from None
