"""A game defined under tests/ (``tests/plugin_game``: its package, locale folder and screen)
plugs in through the entry point group ``tcgtui.games`` alone, as a third party's would, and is
played through ``play`` (Pilot), ``bench``, ``report``, ``baseline export``, ``replay`` and
``rules``, in English and Arabic.  Nothing outside tests/ names it (the last test checks)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tcgtui import config, locales
from tcgtui.cli import build_parser, main
from tcgtui.commands import play as play_command
from tcgtui.engine import registry
from tcgtui.rtl import shape, visual
from tcgtui.engine.core import GameRecord, replay
from tcgtui.store import FINISHED, Store
from tcgtui.tui.app import ArenaApp
from tcgtui.tui.driving import screen_text

from tests.test_app_side import check as check_app_side

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "tests.plugin_game"


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory):
    """Declare the plug-in as an installed distribution would: a ``.dist-info`` with its entry point."""
    site = tmp_path_factory.mktemp("site")
    info = site / "tcgtui_nim-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tcgtui-nim\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tcgtui.games]\nnim = {PACKAGE}\n")
    from tcgtui import app_side
    for spec in registry.games():                # the shipped games' app sides register first, for good
        app_side.app_for(spec.id)
    with pytest.MonkeyPatch.context() as mp:     # the other tests' registry stays as it was: no Nim
        mp.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
        mp.setattr(registry, "_ORIGIN", dict(registry._ORIGIN))
        mp.setattr(app_side, "_APPS", dict(app_side._APPS))
        mp.syspath_prepend(str(site))
        locales.load.cache_clear()
        registry.discover()
        yield site
    locales.load.cache_clear()
    assert "nim" not in {s.id for s in registry.games()}


def cli(site: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    """``tcgtui ARGV`` in a child process that sees the plug-in's distribution."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "tcgtui", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_it_registers_with_its_text_and_its_screen(plugin) -> None:
    from tcgtui.tui.games import screen_for
    spec = registry.get("nim")
    assert registry.origin("nim") == PACKAGE and registry.origin("tcg") is None
    assert screen_for("nim").__module__ == f"{PACKAGE}.screen"
    assert check_app_side("nim").roles() == {}           # its one declaration: a screen, no role
    assert locales.load("en").t("nim.games.nim.name") == "Nim"
    assert locales.load("ar").t("nim.games.nim.name") == "نيم"
    state = spec.game({"heap": 5}).new_state(0)
    assert state.legal_moves() == ["1", "2", "3"]


def test_bench_report_replay_and_rules_through_the_command_line(plugin, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    done = cli(plugin, "bench", "--game", "nim", "--agent", "random", "--vs", "perfect", "--games", "6",
               "--seed", "3", "--db", str(db), "--run", "nim-run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with Store(db, create=False, read_only=True) as store:
        games = [g for g in store.games() if g.game == "nim"]
    assert len(games) == 6 and all(g.status == FINISHED for g in games)
    assert all(g.winner in (0, 1) and g.reason == "last_stone" for g in games)     # Nim has no draws
    assert sorted(g.game_index for g in games) == list(range(6))
    for g in games:                                  # each record replays to the stored result
        match = replay(registry.get("nim").game(g.game_params), GameRecord.from_json(g.record))
        assert match.state.outcome.winner == g.winner

    report = cli(plugin, "report", "--db", str(db), "--game", "nim", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "perfect" in report.stdout and "random" in report.stdout

    games_list = cli(plugin, "games", cwd=tmp_path)
    assert games_list.returncode == 0 and "nim" in games_list.stdout and "Nim" in games_list.stdout

    for lang, sentence in (("en", "Whoever takes the last stone wins"), ("ar", "من يأخذ آخر حجر يفوز")):
        rules = cli(plugin, "rules", "--game", "nim", "--lang", lang, "--param", "most=3", cwd=tmp_path)
        assert rules.returncode == 0, rules.stderr
        assert sentence in rules.stdout or sentence[::-1] in rules.stdout or lang == "ar"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.ENV, str(tmp_path / "config.toml"))
    return tmp_path / "games.sqlite3"


@pytest.mark.anyio
@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_person_plays_it_then_exports_and_replays_it(plugin, db: Path, tmp_path: Path, lang: str) -> None:
    from tcgtui.replay.load import load
    from tcgtui.tui.app import Settings
    from tcgtui.tui.screens.replay import ReplayScreen
    with Store(db) as store:
        args = build_parser().parse_args(["play", "--game", "nim", "--vs", "perfect", "--param", "heap=7",
                                          "--lang", lang, "--name", "ada", "--pause", "0", "--seed", "1"])
        settings = play_command.seat(play_command.start(args, "ada"), args, store, "ada")
        app = ArenaApp(settings)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(10):                     # take one stone whenever it is the person's turn
                await pilot.pause()
                await pilot.press("1")
            await pilot.pause()
            text = screen_text(app)
        [game] = [g for g in store.games() if g.game == "nim"]
        assert game.status == FINISHED and game.winner == 1          # perfect play wins from a heap of 7
        assert len(store.decisions(game.id)) == game.moves

    out = tmp_path / f"baseline-{lang}.jsonl"
    assert main(["baseline", "export", str(out), "--db", str(db)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert any(line.get("game") == "nim" for line in lines), lines

    with Store(db, create=False, read_only=True) as store:
        replay = load(store, game.id)
    viewer = ArenaApp(Settings(lang=lang, replay=replay))
    async with viewer.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(viewer.screen, ReplayScreen)
        await pilot.press("right", "right")
        await pilot.pause()
        shown = screen_text(viewer)
    heap = replay.steps[2].state.heap                  # 7, less the person's 1 and perfect's 2
    assert heap == 4
    fact = locales.load(lang).t("nim.ui.heap", heap=heap)
    assert (visual(shape(fact)) if lang == "ar" else fact) in visible(shown), shown
    said = locales.load(lang).t("nim.events.take", player=1, n=1, left=6)      # the log, in the game's words
    assert (visual(shape(said)) if lang == "ar" else said) in visible(text), text


def visible(text: str) -> str:
    return " ".join(text.split())


def test_a_plugin_that_does_not_import_is_one_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    info = site / "broken-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tcgtui.games]\nbroken = no_such_pkg.games\n")
    done = cli(site, "games", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "'no_such_pkg.games'" in done.stderr and "tcgtui.games" in done.stderr


def test_nothing_outside_tests_names_it() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    outside = [p for p in tracked if not p.startswith("tests/") and (ROOT / p).is_file()
               and p.endswith((".py", ".toml", ".tcss")) and "plugin_game" in (ROOT / p).read_text(errors="ignore")]
    assert outside == []
