"""Every subcommand fed generated junk (issue 27): arguments, and files of junk bytes, FIFOs, devices,
folders and hostile text.  Whatever comes in, ``tcgtui`` must answer without a traceback, within a few
seconds, with exit 0, 1 or 2 (2: one line that starts ``tcgtui``), and put no raw escape or control
byte on the terminal.  The CLI's ``main`` runs in this process; work that takes minutes when the
arguments happen to be valid (the screens, deck simulations) is replaced by a stub, and the sizes of
real work (games, rounds) are drawn from small values or junk.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tcgtui.cli import main

EXAMPLES = 16                   # per subcommand: 14 subcommands, about 225 inputs a run
HANG_SECONDS = 8                # one call; the slowest valid input drawn (a 2-game bench) takes under 1 s
CONTROL = {chr(c) for c in range(32) if c not in (9, 10)} | {chr(c) for c in range(0x7f, 0xa0)}
HOSTILE = "\x1b]0;pwned\x07\x1b[2Jx\x9b31m[bold red]y[/]\u202e"
NASTY = ["", " ", "-", "-1", "0", "1", "2", str(2**63), str(-2**63 - 1), str(10**30), "nan", "inf", "-inf",
         "1e309", "0x10", HOSTILE, "[/]", "{x}{0}%s", "a" * 1000, "\udcff\udc80", "mc:1,,", "llm:", "all", ","]
JUNK = st.one_of(st.sampled_from(NASTY), st.text(st.characters(blacklist_characters="\x00"), max_size=30))
NUMBER = st.one_of(st.sampled_from(NASTY), st.integers(-2**70, 2**70).map(str), st.floats().map(str))


class Hang(Exception):
    pass


def _junk_files(root: Path) -> dict[str, str]:
    """Named bad files, made once: each a way a file can be wrong."""
    files = {"dir": root / "adir", "fifo": root / "fifo", "deep": root / "deep.jsonl", "binary": root / "bin",
             "escapes": root / "esc.jsonl", "nan": root / "nan.jsonl", "toml": root / "esc.toml",
             "rule": root / "rule.txt"}
    files["dir"].mkdir()
    os.mkfifo(files["fifo"])
    files["deep"].write_text("[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    files["binary"].write_bytes(bytes(range(256)) * 4)
    files["escapes"].write_text(json.dumps({"code": f"def mystery(x):\n    return '{HOSTILE}'\n", "value": HOSTILE,
                                            "format": "tcgtui-human-game", "version": 2, "agent": HOSTILE}) + "\n",
                                encoding="utf-8")
    files["nan"].write_text('{"seed": NaN, "winner": 1e999, "code": 1}\n', encoding="utf-8")
    files["toml"].write_text(f'[cards]\n"{HOSTILE.encode("unicode_escape").decode()}" = 99\n', encoding="utf-8")
    files["rule"].write_text(f"return card.rank == '{HOSTILE}'\n", encoding="utf-8")
    return {k: str(v) for k, v in files.items()} | {"zero": "/dev/zero", "missing": str(root / "none")}


def _hostile_pack(root: Path) -> str:
    import shutil

    from tcgtui.games.tcg.packs import resolve

    pack = root / "pack"
    shutil.copytree(resolve("starter"), pack)
    names = pack / "text" / "en.toml"
    names.write_text(names.read_text(encoding="utf-8").replace('"Mighty Warrior"', json.dumps(HOSTILE)),
                     encoding="utf-8")
    return str(pack)


def _hostile_store(path: Path) -> str:
    assert main(["bench", "--agent", "random", "--vs", "random", "--games", "2", "--db", str(path)]) == 0
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET agent = ?, reason = ?", ("llm:" + HOSTILE, HOSTILE))
    return str(path)


SECRET = "sk-live-0123456789abcdefSECRET"      # written where a key never goes: never printed
MODELS = {       # models.toml entries, each hostile in one way (servers on port 9: refused at once)
    "date": 'extra_body = { when = 1979-05-27T07:32:00Z }',
    "key_field": f'extra_body = {{ x-api-key = "{SECRET}" }}',
    "nested_key": f'extra_body = {{ headers = {{ Authorization = "Bearer {SECRET}" }} }}',
    "key_value": f'extra_body = {{ user = "{SECRET}" }}',
    "key_as_variable": 'api_key_env = "hf_AbCdEfGhIjKlMnOpQrStUv12SECRET"',
    "escape": f'model = "{HOSTILE.encode("unicode_escape").decode()}"',
    "deep": "extra_body = " + "{ a = " * 200 + "1" + " }" * 200,
}


def _models_files(root: Path) -> list[str]:
    out = []
    for name, line in MODELS.items():
        path = root / f"models-{name}.toml"
        head = '[m]\nbase_url = "http://127.0.0.1:9/v1?token=' + SECRET + '"\n' if name == "escape" else \
            '[m]\nbase_url = "http://127.0.0.1:9/v1"\n'
        body = line if line.startswith("model") else 'model = "x"\n' + line
        path.write_text(head + body + "\n", encoding="utf-8")
        out.append(str(path))
    return out


def _human_line(**change) -> dict:
    line = {"format": "tcgtui-human-game", "version": 2, "id": "0123abcd", "agent": "human:ada",
            "opponent": "random", "lang": "en", "seed": 1, "agent_seat": 0, "game": "tcg", "status": "abandoned",
            "winner": None, "turns": 1, "moves": 1, "started_at": "2026-01-01T00:00:00",
            "record": {"game": "tcg", "seed": 1, "setup": {}, "moves": ["x"]},
            "decisions": [{"idx": 0, "turn": 1, "seat": 0, "agent": "human:ada", "move": "x", "kind": None,
                           "seconds": 1.0, "info": {}}]}
    for key, value in change.items():
        if key.startswith("d_"):
            line["decisions"][0][key[2:]] = value
        else:
            line[key] = value
    return line


def _baseline_files(root: Path) -> list[str]:
    lies = [dict(d_idx=-1), dict(d_seat=-1), dict(d_seat=2 ** 63), dict(game="chess"), dict(lang="xx"),
            dict(opponent=HOSTILE), dict(opponent="human:bob"), dict(turns=-1), dict(id="a" * 100_000),
            dict(d_info={"x": "a" * (2 << 20)}), dict(winner=5), dict(record=[])]
    out = []
    for i, lie in enumerate(lies):
        path = root / f"baseline-{i}.jsonl"
        path.write_text(json.dumps(_human_line(**lie)) + "\n", encoding="utf-8")
        out.append(str(path))
    return out


def _duel_folders(root: Path) -> list[str]:
    from tests.duel.test_duel_import import write_logs

    out = []
    for i, (key, value) in enumerate([("inventer", "human:alice"), ("inventer", "random"), ("inventer", ""),
                                      ("inventer", HOSTILE), ("inventer", "m" * 100_000),
                                      ("inventer_usage", {"input_tokens": 10 ** 30}),
                                      ("inventer_usage", {"input_tokens": -5}), ("outcome", HOSTILE),
                                      ("code", 3), ("player", None)]):
        folder = write_logs(root / f"duels-{i}")
        for log in (folder / "data").glob("*_vs_*.jsonl"):
            if not log.name.endswith(".tags.jsonl"):
                rows = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
                rows[0][key] = value
                log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        out.append(str(folder))
    return out


def _card_files(root: Path) -> list[str]:
    out = []
    for i, faces in enumerate((["not a face"], [3, None], [[{"name": "x"}]], {"a": 1}, "x")):
        path = root / f"cards-{i}.json"
        path.write_text(json.dumps({"data": {"Spark Jab": faces, "Tide Scholar": faces}}), encoding="utf-8")
        out.append(str(path))
    return out


@pytest.fixture(scope="module")
def junk(tmp_path_factory):
    root = tmp_path_factory.mktemp("junk")
    files = _junk_files(root)
    files["pack"] = _hostile_pack(root)
    files["store"] = _hostile_store(root / "hostile.sqlite3")
    files["root"] = str(root)
    return files


@pytest.fixture(scope="module")
def hostile(junk):
    """The newer surfaces' hostile inputs: model registries, human baselines, duel logs, card databases."""
    root = Path(junk["root"])
    return {"models": _models_files(root), "baseline": _baseline_files(root), "duels": _duel_folders(root),
            "cards": _card_files(root)}


@pytest.fixture
def quiet(monkeypatch, junk):
    """No screen, no deck simulation, and nothing of the user's own store or settings."""
    from tcgtui.games.deck.commands import deck
    from tcgtui.tui.app import ArenaApp

    monkeypatch.setattr(ArenaApp, "run", lambda self, *a, **k: None)
    monkeypatch.setattr(deck, "make_questions", lambda *a, **k: ([], 0))
    monkeypatch.setenv("TCGTUI_DB", str(Path(junk["root"]) / "default.sqlite3"))
    monkeypatch.setenv("TCGTUI_CONFIG", str(Path(junk["root"]) / "config.toml"))
    monkeypatch.chdir(junk["root"])               # junk names a command writes land here


_counter = itertools.count()


def paths(junk: dict[str, str], *real: str, write: bool = False) -> st.SearchStrategy[str]:
    """A path: one of the named bad files, a new file of generated bytes, junk text, or ``real`` ones.
    ``write``: a path a command may write, so never a device of this machine."""
    def new_file(data: bytes) -> str:
        path = Path(junk["root"]) / f"gen-{next(_counter)}"
        path.write_bytes(data)
        return str(path)
    named = [v for k, v in junk.items() if k not in ("root", "store") and not (write and v.startswith("/dev/"))]
    return st.one_of(st.sampled_from(named + list(real)), st.binary(max_size=300).map(new_file), JUNK)


def fresh_db(junk: dict[str, str]) -> st.SearchStrategy[str]:
    """A store to write: a new one, the hostile one, or any path but this machine's devices."""
    new = st.builds(lambda: str(Path(junk["root"]) / f"db-{next(_counter)}.sqlite3"))
    return st.one_of(new, paths(junk, junk["store"], write=True))


def small(*valid: str) -> st.SearchStrategy[str]:
    """A value drawn from a few valid ones (small work) or junk."""
    return st.one_of(st.sampled_from(valid), JUNK)


def flags(options: dict[str, st.SearchStrategy[str] | None]) -> st.SearchStrategy[list[str]]:
    """Any subset of the flags, each with a drawn value (None: a switch)."""
    if not options:
        return st.just([])

    @st.composite
    def build(draw):
        out: list[str] = []
        for flag in draw(st.lists(st.sampled_from(sorted(options)), unique=True, max_size=5)):
            out += [flag] if options[flag] is None else [flag, draw(options[flag])]
        return out
    return build()


def game_flags(junk):
    return {"--game": small("tictactoe", "connect4", "tcg", "eleusis", "deck", "gomoku"),
            "--param": st.one_of(st.sampled_from(["move_cap=", "invalid_limit=", "rounds=", "rule=", "index="]),
                                 JUNK).flatmap(lambda name: NUMBER.map(lambda v: name + v)),
            "--position": JUNK, "--to-move": small("X", "O"), "--lang": small("en", "ar", "en,ar")}


def endpoint_flags():
    return {"--temperature": NUMBER, "--max-tokens": NUMBER, "--extra-body": st.one_of(JUNK, st.sampled_from(
        ['{"a": ' + "[" * 3000 + "]" * 3000 + "}", '{"top_p": NaN}', '{"top_p": 1e999}', "[]"])),
        "--timeout": NUMBER, "--max-retries": NUMBER, "--history-tokens": NUMBER, "--base-url": JUNK}


def argv_for(command: str, junk: dict[str, str]) -> st.SearchStrategy[list[str]]:
    db = fresh_db(junk)
    files, out = paths(junk), paths(junk, write=True)
    common = {
        "bench": (st.tuples(st.just(["bench", "--agent"]), small("random").map(lambda a: [a]),
                            st.just(["--vs"]), small("random").map(lambda a: [a]), st.just(["--db"]), db.map(lambda d: [d]),
                            st.just(["--games"]), small("1", "2").map(lambda g: [g])),
                  {**game_flags(junk), **endpoint_flags(), "--concurrency": small("1", "4"), "--seed": NUMBER,
                   "--run": JUNK, "--pack": paths(junk, junk["pack"], "starter"), "--deck": files,
                   "--bank": files, "--rules": small("1", "0-1"), "--seeds": small("1"), "--round-robin": None,
                   "--prompt-style": JUNK, "--timeout-per-game": NUMBER, "--extra-body": JUNK}),
        "report": (st.tuples(st.just(["report", "--db"]), paths(junk, junk["store"]).map(lambda d: [d])),
                   {"--game": small("tcg", "connect4"), "--run": JUNK, "--format": small("table", "json", "csv", "md"),
                    "--table": JUNK, "--plot": out, "--no-humans": None}),
        "baseline": (st.one_of(
            st.tuples(st.just(["baseline", "export"]), out.map(lambda f: [f]), st.just(["--db", junk["store"]])),
            st.tuples(st.just(["baseline", "import"]), st.lists(files, min_size=1, max_size=3), st.just(["--db"]),
                      db.map(lambda d: [d]))), {}),
        "games": (st.just((["games"],)), {"--lang": small("en", "ar"), "--rtl": small("app", "off")}),
        "analyze": (st.just((["analyze"],)),
                    {**game_flags(junk), "--agent": small("random", "ab:2", "perfect"), "--seed": NUMBER,
                     "--json": None, "--run": JUNK, "--game-id": JUNK, "--evaluator": small("perfect", "ab:2"),
                     "--workers": NUMBER, "--db": paths(junk, junk["store"], write=True)}),
        "cards": (st.just((["cards"],)), {"--pack": paths(junk, junk["pack"], "starter"), "--lang": small("en", "ar"),
                                          "--rtl": small("app", "terminal", "off")}),
        "rules": (st.just((["rules"],)), {**game_flags(junk), "--pack": paths(junk, junk["pack"]),
                                          "--rtl": small("off")}),
        "eleusis": (st.one_of(
            st.tuples(st.just(["eleusis", "judge", "--rule"]), paths(junk, "3", junk["rule"]).map(lambda r: [r]),
                      st.just(["--guess"]), paths(junk, junk["rule"]).map(lambda g: [g])),
            st.just((["eleusis", "rules"],))),
            {"--mainline": JUNK, "--seed": NUMBER, "--json": None}),
        "duel": (st.one_of(
            st.tuples(st.just(["duel", "check"]), paths(junk).map(lambda f: [f]),
                      st.just(["--timeout"]), small("1").map(lambda t: [t])),
            st.tuples(st.just(["duel", "mine", "--db", junk["store"], "--out"]), out.map(lambda f: [f]))),
            {"--sandbox": small("local", "docker"), "--workers": NUMBER, "--run": JUNK}),
        "grid": (st.tuples(st.just(["grid", "import"]), paths(junk).map(lambda f: [f]), st.just(["--db"]),
                           db.map(lambda d: [d])), {"--run": JUNK}),
        "deck": (st.tuples(st.just(["deck", "make", "--out"]), out.map(lambda f: [f])),
                 {"--pack": paths(junk, junk["pack"]), "--count": NUMBER, "--lang": small("en", "en,ar"),
                  "--playouts": NUMBER, "--games": NUMBER, "--field": NUMBER, "--seed": NUMBER,
                  "--max-candidates": NUMBER, "--workers": NUMBER}),
        "perf": (st.tuples(st.just(["perf", "--only"]), JUNK.map(lambda o: [o])),
                 {"--workers": NUMBER, "--seed": NUMBER, "--quick": None, "--json": None}),
        "play": (st.tuples(st.just(["play", "--db"]), db.map(lambda d: [d])),
                 {**game_flags(junk), **endpoint_flags(), "--vs": small("random"), "--name": JUNK, "--seat": NUMBER,
                  "--seed": NUMBER, "--pause": NUMBER, "--pack": paths(junk, junk["pack"]), "--deck": files,
                  "--campaign-games": NUMBER, "--resume": None}),
        "watch": (st.tuples(st.just(["watch", "--p1"]), small("random").map(lambda p: [p]), st.just(["--p2"]),
                            small("random").map(lambda p: [p]), st.just(["--db"]), db.map(lambda d: [d])),
                  {**game_flags(junk), **endpoint_flags(), "--seed": NUMBER, "--pause": NUMBER}),
    }
    base, options = common[command]
    return st.tuples(base, flags(options)).map(lambda parts: [a for part in parts[0] for a in part] + parts[1])


DECK = Path(__file__).resolve().parent / "deck" / "manabench"
BUDGETS = ["9" * 400, "9" * 400 + "usd", "$" + "9" * 400, "1.5-tokens", "0.5-tokens", "1e400usd", "0usd", "nan usd",
           "inf usd", "1k-tokens", "2M-tokens", "$0.000001", "5usd", "1.5k-tokens", "10-tokens"]


def hostile_argv_for(command: str, junk: dict[str, str], hostile: dict[str, list[str]]) -> st.SearchStrategy[list[str]]:
    """The newer surfaces (models, --budget, the importers, replay) fed their hostile inputs and junk."""
    db, files, out = fresh_db(junk), paths(junk), paths(junk, write=True)
    one = lambda strategy: strategy.map(lambda v: [v])       # noqa: E731
    common = {
        "models": (st.tuples(st.just(["models", "--models"]), one(paths(junk, *hostile["models"])),
                             st.lists(JUNK, max_size=2)),
                   {"--no-check": None, "--timeout": small("0.5", "1")}),
        "budget": (st.tuples(st.just(["bench", "--agent"]), one(small("random", "random,mc:2")),
                             st.just(["--vs", "random", "--games"]), one(small("1", "2")), st.just(["--db"]), one(db),
                             st.just(["--budget"]), one(st.one_of(st.sampled_from(BUDGETS), JUNK))),
                   {"--budget": st.one_of(st.sampled_from(BUDGETS), JUNK), "--concurrency": small("1", "4")}),
        "duel_import": (st.tuples(st.just(["duel", "import"]), one(paths(junk, *hostile["duels"])),
                                  st.just(["--db"]), one(db)), {"--run": JUNK}),
        "deck_import": (st.tuples(st.just(["deck", "import"]),
                                  one(paths(junk, str(DECK / "questions.json"))), st.just(["--cards"]),
                                  one(paths(junk, *hostile["cards"], str(DECK / "cards.json"))), st.just(["--out"]),
                                  one(st.one_of(out, st.sampled_from(hostile["cards"])))),
                        {"--seed": NUMBER}),
        "baseline_import": (st.tuples(st.just(["baseline", "import"]),
                                      st.lists(paths(junk, *hostile["baseline"]), min_size=1, max_size=3),
                                      st.just(["--db"]), one(db)), {}),
        "replay": (st.tuples(st.just(["replay"]), one(st.one_of(
            JUNK, st.sampled_from(["a" * 100_000, "a" * 40_000, "0" * 37, "-", "%", "_", "0123"]),
            st.text("0123456789abcdef-", max_size=40))), st.just(["--db"]), one(paths(junk, junk["store"]))),
                   {"--lang": small("en", "ar"), "--rtl": small("app", "off")}),
    }
    base, options = common[command]
    return st.tuples(base, flags(options)).map(lambda parts: [a for part in parts[0] for a in part] + parts[1])


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` as a terminal sees it: UTF-8 out (strict), err (backslashreplace), junk on stdin."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", write_through=True)
    stdin = io.TextIOWrapper(io.BytesIO(b'{"code": 1}\n\x1b[2J\xff\n'), encoding="utf-8")

    def hang(*_):
        raise Hang(f"no answer in {HANG_SECONDS} s")
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(HANG_SECONDS)
    saved_stdin, sys.stdin = sys.stdin, stdin
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:          # argparse: usage errors (2) and --help (0)
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = saved_stdin
    return code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8")


COMMANDS = ("bench", "report", "baseline", "games", "analyze", "cards", "rules", "eleusis", "duel", "grid", "deck",
            "perf", "play", "watch")


def clear_answer(argv: list[str]) -> None:
    """The property: exit 0, 1 or 2, no traceback, no raw control byte, no key, and a 2 is one line."""
    code, out, err = run_cli(argv)
    shown = repr(argv)[:400]
    assert code in (0, 1, 2), (shown, code, err[-500:])
    assert "Traceback" not in out + err, (shown, err[-2000:])
    raw = {c for c in out + err if c in CONTROL}
    assert not raw, (shown, raw, (out + err)[:500])
    assert "SECRET" not in out + err, (shown, (out + err)[-500:])
    if code == 2:
        lines = err.splitlines()
        assert lines and lines[-1].startswith("tcgtui") and "error" in lines[-1], (shown, err[-500:])


SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


@pytest.mark.parametrize("command", COMMANDS)
def test_junk_in_gets_a_clear_answer_out(command, junk, quiet):
    @SETTINGS
    @given(argv=argv_for(command, junk))
    def check(argv):
        clear_answer(argv)
    check()


def every_hostile_input(command: str, junk: dict[str, str], hostile: dict[str, list[str]]) -> list[list[str]]:
    """Each of a surface's hostile inputs once, before the drawn ones."""
    db = str(Path(junk["root"]) / "every.sqlite3")
    return {
        "models": [["models", "--models", f, *extra] for f in hostile["models"] for extra in ([], ["--no-check"])],
        "budget": [["bench", "--agent", "random", "--vs", "random", "--games", "1", "--db", db, "--budget", b]
                   for b in BUDGETS],
        "duel_import": [["duel", "import", f, "--db", db] for f in hostile["duels"]],
        "deck_import": [["deck", "import", str(DECK / "questions.json"), "--cards", f, "--out",
                         str(Path(junk["root"]) / "set.jsonl")] for f in hostile["cards"]]
        + [["deck", "import", str(DECK / "questions.json"), "--cards", hostile["cards"][0], "--out", hostile["cards"][0]]],
        "baseline_import": [["baseline", "import", f, "--db", db] for f in hostile["baseline"]],
        "replay": [["replay", i, "--db", junk["store"]] for i in ("a" * 100_000, "a" * 40_000, "0" * 37, "%", "_")],
    }[command]


@pytest.mark.parametrize("command", ["models", "budget", "duel_import", "deck_import", "baseline_import", "replay"])
def test_the_newer_surfaces_give_a_clear_answer_to_hostile_input(command, junk, hostile, quiet):
    for argv in every_hostile_input(command, junk, hostile):
        clear_answer(argv)

    @SETTINGS
    @given(argv=hostile_argv_for(command, junk, hostile))
    def check(argv):
        clear_answer(argv)
    check()
