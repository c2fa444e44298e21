"""Make screenshots/: SVG and PNG of the main screens, in English and Arabic.

    /work/venv/bin/python scripts/screenshots.py [--out screenshots] [--no-png]
    /work/venv/bin/python scripts/screenshots.py --out /tmp/snaps --svg tests/tui/__snapshots__/.../x.svg

Each picture comes from the real app, driven headless by key presses on a
seeded game.  PNGs need ``rsvg-convert`` (Debian: librsvg2-bin).  rsvg applies
bidi to text a second time and drops leading no-break spaces, so each SVG is
fixed first: bidi override on text, plain spaces, ``xml:space="preserve"``.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Awaitable, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tcgtui.games.tcg.packs import load_pack  # noqa: E402
from tcgtui.tui.app import HUMAN, Settings, ArenaApp  # noqa: E402
from tcgtui.tui.driving import play_free_cells, play_moves, settle  # noqa: E402

Scene = Callable[[object, ArenaApp], Awaitable[None]]


async def start(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)


async def mid_game(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    for key in ("2", "1", "3"):
        if app.board is not None and app.board.session.result is None:
            await pilot.press(key, "enter")
            await settle(pilot, app)
    await pilot.press("right")
    await pilot.pause()


async def rules(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("question_mark")
    await pilot.pause()


async def game_over(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await play_moves(pilot, app)
    await pilot.pause()


def grid_moves(*keys: str) -> Scene:
    async def scene(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, app)
        for key in keys:
            if app.board is not None and app.board.session.result is None:
                await pilot.press(key)
                await settle(pilot, app)
    return scene


async def full_hand(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    """Seed 2: after these three cards the person holds eight (compact cards on a crowded row)."""
    await settle(pilot, app)
    for key in ("1", "1", "4"):
        await pilot.press(key, "enter")
        await settle(pilot, app)
    await pilot.press("right")
    await pilot.pause()


async def until(pilot, condition: Callable[[], object]) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):
        if condition():
            return
        await pilot.pause(0.05)
    raise RuntimeError("the screen did not get there")


async def duel_keys(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*[{" ": "space", "\n": "enter"}.get(ch, ch) for ch in text])


async def duel_send(pilot, app: ArenaApp, key: str) -> None:  # type: ignore[no-untyped-def]
    assert app.board is not None
    before = len(app.board.session.decisions)
    await pilot.press(key)
    await until(pilot, lambda: len(app.board.session.decisions) > before or app.board.session.result is not None)
    await settle(pilot, app)


async def duel_propose(pilot, app: ArenaApp, send: bool = False) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await pilot.press("f7", "backspace")
    await duel_keys(pilot, "def mystery(x):\n    return x == 'ann'")
    await pilot.press("f2")
    await duel_keys(pilot, "'ann'")
    if send:
        await duel_send(pilot, app, "ctrl+s")


async def duel_solve(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await settle(pilot, app)
    await duel_keys(pilot, "12")


async def duel_over(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(2):
        await duel_propose(pilot, app, send=True)
        await duel_keys(pilot, "0")
        await duel_send(pilot, app, "enter")
    await pilot.pause(0.3)


async def deck_reveal(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    """A wrong answer (C; the answer is B): the reveal, before Enter opens the game-over dialog."""
    await settle(pilot, app)
    await pilot.press("c", "enter")            # a letter selects, Enter answers (docs/keys.md)
    await until(pilot, lambda: app.board is not None and app.board.reveal is not None)
    await pilot.pause(0.3)


async def study_consent(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause(0.3)


async def study_progress(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause(0.2)
    await pilot.press("y")                     # consent, then the practice game to its end
    await pilot.pause(0.2)
    await pilot.press("enter")
    await play_free_cells(pilot, app)
    await pilot.press("r")
    await pilot.pause(0.3)


async def replay_steps(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause(0.2)
    await pilot.press(*["right"] * 12)          # a position well into the game
    await pilot.pause(0.3)


async def home(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()


async def watching(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
    assert app.board is not None
    session = app.board.session
    while len(session.decisions) < 9:
        await asyncio.sleep(0.05)
    await pilot.press("space")
    await pilot.pause(0.3)


def eleusis(*guesses: str, editor: str = "") -> Scene:
    """Four cards by keys, then each guess through the rule editor; ``editor``: left open with that text."""
    async def scene(pilot, app: ArenaApp) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot, app)
        for key in ("1", "enter", "right", "enter", "5", "enter"):     # digits select, Enter plays
            await pilot.press(key)
            await settle(pilot, app)
        for text in guesses:
            await pilot.press("g")
            await pilot.pause()
            await pilot.press(*text, "ctrl+s")
            await settle(pilot, app)
        if editor:
            await pilot.press("g")
            await pilot.pause()
            await pilot.press(*editor)
            await pilot.pause()
    return scene


# name, scene, seats, size, game ("" : the home screen)
SHOTS: list[tuple[str, Scene, tuple[str, ...], tuple[int, int], str]] = [
    ("start", start, (HUMAN, "random"), (120, 40), "tcg"),
    ("mid-game", mid_game, (HUMAN, "random"), (120, 40), "tcg"),
    ("mid-game-80x24", mid_game, (HUMAN, "random"), (80, 24), "tcg"),
    ("full-hand", full_hand, (HUMAN, "random"), (120, 40), "tcg"),
    ("full-hand-80x24", full_hand, (HUMAN, "random"), (80, 24), "tcg"),
    ("rules", rules, (HUMAN, "random"), (120, 40), "tcg"),
    ("game-over", game_over, (HUMAN, "random"), (120, 40), "tcg"),
    ("watch", watching, ("random", "random"), (120, 40), "tcg"),
    ("home", home, (), (80, 24), ""),
    ("tictactoe", grid_moves("enter", "up", "enter"), (HUMAN, "random"), (80, 24), "tictactoe"),
    ("connect4", grid_moves("4", "3", "4"), (HUMAN, "random"), (80, 24), "connect4"),
    ("gomoku", grid_moves("enter", "up", "left", "enter", "down", "enter"), (HUMAN, "random"), (80, 24), "gomoku"),
    ("gomoku-120x40", grid_moves("enter", "up", "left", "enter"), (HUMAN, "random"), (120, 40), "gomoku"),
    ("duel-propose", duel_propose, (HUMAN, "puzzler"), (120, 40), "duel"),
    ("duel-solve", duel_solve, ("puzzler", HUMAN), (120, 40), "duel"),
    ("duel-over", duel_over, (HUMAN, "puzzler"), (120, 40), "duel"),
    ("eleusis", eleusis("return card.rank > 5"), (HUMAN,), (120, 40), "eleusis"),
    ("eleusis-80x24", eleusis("return card.rank > 5"), (HUMAN,), (80, 24), "eleusis"),
    ("eleusis-editor", eleusis(editor="return card.rank % 2 == 0 and open"), (HUMAN,), (120, 40), "eleusis"),
    ("eleusis-over", eleusis("return card.rank > 5", "return card.rank % 2 == 0"), (HUMAN,), (120, 40), "eleusis"),
    ("deck-question", start, (HUMAN,), (120, 40), "deck"),
    ("deck-question-80x24", start, (HUMAN,), (80, 24), "deck"),
    ("deck-reveal", deck_reveal, (HUMAN,), (120, 40), "deck"),
    ("study-consent", study_consent, (), (80, 24), "study"),
    ("study-progress", study_progress, (), (80, 24), "study"),
    ("replay-tcg", replay_steps, ("random", "mc:5"), (120, 40), "replay:tcg"),
    ("replay-connect4", replay_steps, ("random", "random"), (80, 24), "replay:connect4"),
]
# Parameters of the games other than the card game (whose pack is loaded in ``shoot``).
PARAMS = {"duel": {"rounds": 4}, "duel-solve": {"rounds": 4, "solve_time": 90}, "deck": {"index": 0},
          "eleusis": {"rule": 0}}      # pinned: the scenes guess rule 0 (a rule is otherwise drawn per deal)


SEEDS = {"full-hand": 2, "full-hand-80x24": 2}     # the rest: seed 7

_TEXT = re.compile(r'(<text\b[^>]*?\bx=")([\d.]+)("[^>]*?\btextLength=")([\d.]+)("[^>]*>)([^<]*)(</text>)')


def _trim_blanks(m: re.Match[str]) -> str:
    """Drop a text run's leading and trailing blanks, moving its x and length to match:
    rsvg spreads a run's glyphs over its textLength, and Arabic glyphs narrower than
    a space would otherwise drift away from their cells."""
    head, x, mid, length, tail, content, end = m.groups()
    inner = content.strip(" ")
    if not inner or inner == content:
        return m.group(0)
    cell = float(length) / len(html.unescape(content))     # Rich escapes &, < and >
    lead = len(content) - len(content.lstrip(" "))
    return (f"{head}{float(x) + lead * cell:g}{mid}{len(inner) * cell:g}{tail}{inner}{end}")


def fix_svg(svg: str) -> str:
    """Make rsvg draw the cells exactly as the terminal would."""
    svg = _TEXT.sub(_trim_blanks, svg.replace("&#160;", " "))
    svg = re.sub(r"<svg\b", '<svg xml:space="preserve"', svg, count=1)
    return svg.replace("<style>", "<style>\n    text { unicode-bidi: bidi-override; direction: ltr; }", 1)


async def shoot(name: str, scene: Scene, seats: tuple[str, ...], size: tuple[int, int], lang: str,
                game: str) -> str:
    if game == "study":
        return await shoot_study(name, scene, size, lang)
    if game.startswith("replay:"):
        return await shoot_replay(name, scene, seats, size, lang, game.removeprefix("replay:"))
    params = {"pack": load_pack("community")} if game == "tcg" else PARAMS.get(name, PARAMS.get(game, {}))
    app = ArenaApp(Settings(seats, game_id=game or "tcg", params=params, lang=lang, seed=SEEDS.get(name, 7),
                          home=not game,
                          pause=0.05 if seats and seats[0] != HUMAN else 0.0))
    async with app.run_test(size=size) as pilot:
        await scene(pilot, app)
        return app.export_screenshot(title=f"tcgtui {name} ({lang})")


async def shoot_study(name: str, scene: Scene, size: tuple[int, int], lang: str) -> str:
    """A study as ``tcgtui study new`` writes it, joined in a store of its own (docs/study.md)."""
    from tcgtui import locales
    from tcgtui.store import Store
    from tcgtui.study.joining import Joining
    from tcgtui.study.spec import load_study
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pilot.toml"
        path.write_text(locales.load("en").t("cmd_study.template", id="pilot"), encoding="utf-8")
        with Store(Path(tmp) / "study.sqlite3") as store:
            joining = Joining(store, load_study(path), "screenshot-token-0123456789")
            app = ArenaApp(Settings(home=True, lang=lang, pause=0.0, seed=7, study=joining))
            async with app.run_test(size=size) as pilot:
                await scene(pilot, app)
                return app.export_screenshot(title=f"tcgtui {name} ({lang})")


async def shoot_replay(name: str, scene: Scene, seats: tuple[str, ...], size: tuple[int, int], lang: str,
                       game: str) -> str:
    """A game played by ``tcgtui bench`` (seed 7) into a store of its own, then replayed."""
    from tcgtui.replay.load import load
    from tcgtui.store import Store
    from tcgtui.tui.games import replay_board_for
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        subprocess.run([sys.executable, "-m", "tcgtui", "bench", "--game", game, "--agent", seats[0], "--vs", seats[1],
                        "--games", "1", "--seed", "7", "--db", str(db)], check=True, capture_output=True)
        with Store(db, create=False, read_only=True) as store:
            replay = load(store, store.games()[0].id[:12], lang)
        assert replay_board_for(game) is not None
        app = ArenaApp(Settings(lang=lang, replay=replay))
        async with app.run_test(size=size) as pilot:
            await scene(pilot, app)
            return app.export_screenshot(title=f"tcgtui {name} ({lang})")


def browser_shot(out: Path, lang: str) -> Path:
    """A served study's page in Debian's headless chromium (Selenium, the system's chromedriver), once
    the participant has agreed: what a person joining from a browser sees (docs/study.md)."""
    import os
    import time
    from tcgtui import locales
    from tcgtui.perf._participant import PROGRESS, served
    os.environ["SE_OFFLINE"] = "true"          # Selenium Manager may never download a browser or driver
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--disable-gpu", "--window-size=1100,720", "--no-first-run",
                "--disable-background-networking", *(["--no-sandbox"] if os.geteuid() == 0 else [])):
        options.add_argument(arg)
    with tempfile.TemporaryDirectory() as tmp:
        study = Path(tmp) / "pilot.toml"
        text = locales.load("en").t("cmd_study.template", id="pilot")
        study.write_text(text if lang == "en" else text.replace('languages = ["en", "ar"]', 'languages = ["ar", "en"]'),
                         encoding="utf-8")
        driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        try:
            with served(Path(tmp), study, Path(tmp) / "study.sqlite3") as base:
                driver.get(f"{base}/")
                time.sleep(4)
                driver.find_element(By.ID, "terminal").click()
                driver.switch_to.active_element.send_keys("y")
                time.sleep(3)
                target = out / f"study-browser-{lang}.png"
                driver.save_screenshot(str(target))
        finally:
            driver.quit()
    assert PROGRESS
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="screenshots", type=Path)
    parser.add_argument("--no-png", action="store_true")
    parser.add_argument("--only", action="append", metavar="PREFIX",
                        help="only the shots whose name starts so (repeatable, e.g. duel, mid-game)")
    parser.add_argument("--svg", action="append", type=Path, metavar="FILE",
                        help="only draw this SVG (a snapshot test's, say) as a PNG in --out, with the same "
                             "fixes: rsvg drops the leading spaces of a raw one ('Turns 5seed 3')")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    converter = shutil.which("rsvg-convert")
    if (args.svg or not args.no_png) and converter is None:
        print("rsvg-convert not found (apt-get install librsvg2-bin), or pass --no-png", file=sys.stderr)
        return 2
    for given in args.svg or []:
        fixed = args.out / given.name
        fixed.write_text(fix_svg(given.read_text(encoding="utf-8")), encoding="utf-8")
        subprocess.run([converter, "--zoom", "1.5", "-o", str(fixed.with_suffix(".png")), str(fixed)], check=True)
        print(fixed.with_suffix(".png"))
    if args.svg:
        return 0
    if args.only and "study-browser" in args.only:
        for lang in ("en", "ar"):
            print(browser_shot(args.out, lang))
        return 0
    for lang in ("en", "ar"):
        for name, scene, seats, size, game in SHOTS:
            if args.only and not any(name.startswith(o) for o in args.only):
                continue
            svg_path = args.out / f"{name}-{lang}.svg"
            svg_path.write_text(fix_svg(asyncio.run(shoot(name, scene, seats, size, lang, game))), encoding="utf-8")
            if not args.no_png:
                subprocess.run([converter, "--zoom", "1.5", "-o", str(svg_path.with_suffix(".png")),
                                str(svg_path)], check=True)
            print(svg_path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
