"""A study file is checked whole when it is read: the example ``study new`` writes reads back, and
every kind of mistake is one line naming the file, the key, the value and what was expected."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tcgtui.errors import UserError
from tcgtui.study.spec import FRESH, PAIRED, load_study

from tests.study.helpers import write_study

CLI = [sys.executable, "-m", "tcgtui"]


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_example_study_reads_back_and_check_describes_it(tmp_path, lang: str) -> None:
    out = run("study", "new", "--lang", lang, str(tmp_path / "pilot.toml"))
    assert out.returncode == 0, out.stderr
    study = load_study(tmp_path / "pilot.toml")
    assert study.id == "pilot" and study.deals == FRESH and len(study.rungs) == 3
    assert set(study.languages) == {"en", "ar"} and study.title("ar") != study.title("en")
    shown = run("study", "check", str(tmp_path / "pilot.toml"))
    assert shown.returncode == 0 and "pilot" in shown.stdout and "perfect" in shown.stdout
    again = run("study", "new", str(tmp_path / "pilot.toml"))
    assert again.returncode == 2 and "--force" in again.stderr      # never overwritten unasked


BAD = [
    ('id = "X"', "id"),                                                   # upper case
    ('wrong = 1', "wrong"),                                               # an unknown key
    ('games_per_rung = 0', "games_per_rung"),
    ('practice = -1', "practice"),
    ('move_seconds = "soon"', "move_seconds"),
    ('languages = ["en", "fr"]', "languages"),
    ('title = { en = "only English" }', "title"),                         # Arabic offered, no Arabic title
    ('deals = { kind = "sometimes" }', "deals"),
    ('deals = { kind = "fresh", run = "x" }', "deals.run"),
    ('games = [{ game = "chess" }]', "games[0].game"),
    ('games = [{ game = "tictactoe", ladder = ["human"] }]', "games[0].ladder[0]"),
    ('games = [{ game = "tictactoe", ladder = ["mc:-4"] }]', "games[0].ladder[0]"),
    ('games = [{ game = "tictactoe", ladder = [] }]', "games[0].ladder"),
    ('games = [{ game = "tictactoe", ladder = ["random", "random"] }]', "games"),
    ('games = [{ game = "tictactoe", params = { nope = 1 }, ladder = ["random"] }]', "nope"),
    ('games = [{ game = "eleusis", ladder = ["random"] }]', "games[0].ladder"),
]
GOOD = {"id": 'id = "s"', "title": 'title = "T"', "consent": 'consent = "C"', "languages": 'languages = ["en", "ar"]',
        "games": 'games = [{ game = "tictactoe", ladder = ["random"] }]'}


@pytest.mark.parametrize("line,named", BAD)
def test_a_bad_study_is_one_line_naming_the_key(tmp_path, line: str, named: str) -> None:
    key = line.split(" =")[0]
    lines = [v for k, v in GOOD.items() if k != key] + [line]
    if key == "games":
        lines.remove(line)
        lines.append(line)
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(UserError) as err:
        load_study(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message and named in message


def test_files_that_are_not_studies_are_one_line_each(tmp_path) -> None:
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "syntax.toml").write_text("id = \n", encoding="utf-8")
    (tmp_path / "missing.toml").write_text('id = "a"\n', encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.toml")
    for name in ("bin.toml", "syntax.toml", "missing.toml", "fifo.toml", "absent.toml", "."):
        out = run("study", "check", str(tmp_path / name))
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, (name, out)


def test_a_paired_study_needs_its_run_and_enough_deals(tmp_path) -> None:
    path = tmp_path / "p.toml"
    path.write_text("\n".join(GOOD.values()) + '\ngames_per_rung = 2\n[deals]\nkind = "paired"\nrun = "sweep"\n',
                    encoding="utf-8")
    assert load_study(path).deals == PAIRED
    db = tmp_path / "db.sqlite3"
    out = run("study", "check", str(path), "--db", str(db))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert run("bench", "--game", "tictactoe", "--agent", "random", "--vs", "random", "--games", "1",
               "--run", "sweep", "--db", str(db)).returncode == 0
    out = run("study", "check", str(path), "--db", str(db))
    assert out.returncode == 2 and "has 1 finished deals" in out.stderr and "each person plays 2 in all" in out.stderr
    assert run("bench", "--game", "tictactoe", "--agent", "random", "--vs", "random", "--games", "4",
               "--run", "sweep", "--db", str(db)).returncode == 0
    assert run("study", "check", str(path), "--db", str(db)).returncode == 0


def test_a_changed_study_under_the_same_id_is_refused(tmp_path) -> None:
    path = write_study(tmp_path)
    db = str(tmp_path / "db.sqlite3")
    from tcgtui.store import Store
    from tcgtui.study.roster import study_run
    with Store(tmp_path / "db.sqlite3") as store:
        study_run(store, load_study(path))
        write_study(tmp_path, per_rung=2)
        with pytest.raises(UserError, match="needs a new id"):
            study_run(store, load_study(path))
    assert db
