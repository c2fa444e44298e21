"""``tcgtui duel check FILE.jsonl``: verdicts in order as JSON Lines, bad input as one line."""

from __future__ import annotations

import json

import pytest

from tcgtui import locales
from tcgtui.cli import main

EVEN = "def mystery(x):\n    return isinstance(x, int) and x % 2 == 0\n"


def write_rows(tmp_path, rows):
    path = tmp_path / "puzzles.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" if not isinstance(r, str) else r + "\n" for r in rows),
                    encoding="utf-8")
    return str(path)


def test_each_row_gets_its_verdict_in_order(tmp_path, capsys):
    rows = [{"code": EVEN, "value": "4"}, {"code": EVEN, "value": "'4'"}, {"code": EVEN, "value": "3 + 1"},
            {"code": "def mystery(x):\n    while True:\n        pass\n", "value": "0"},
            {"code": "import socket\ndef mystery(x):\n    return socket.socket() is not None\n", "value": "0", "proposer": "kept"}]
    assert main(["duel", "check", write_rows(tmp_path, rows), "--timeout", "1.5"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["result"] for o in out] == ["true", "false", "true", "timeout", "error"]
    assert all(set(o) == {"result", "seconds", "detail"} and o["seconds"] >= 0 for o in out)
    assert out[3]["seconds"] >= 1.5 and "not permitted" in out[4]["detail"]


@pytest.mark.parametrize("line, where", [("not json", "line 2"), ('{"code": "x"}', "line 2"),
                                         ('{"code": 1, "value": "2"}', "line 2"), ('[1, 2]', "line 2")])
def test_a_bad_line_is_one_clear_error_and_nothing_runs(tmp_path, capsys, line, where):
    path = write_rows(tmp_path, [{"code": EVEN, "value": "2"}, line])
    assert main(["duel", "check", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and path in err and where in err and '"code" and "value"' in err


def test_a_missing_file_and_bad_flags_are_one_line(tmp_path, capsys):
    assert main(["duel", "check", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: no such file" in capsys.readouterr().err
    assert main(["duel", "check", "--timeout", "-1", str(tmp_path)]) == 2
    assert "--timeout -1.0" in capsys.readouterr().err
    assert main(["duel", "check", "--workers", "0", str(tmp_path)]) == 2
    assert "--workers: 0 is out of range" in capsys.readouterr().err


def test_without_a_boundary_model_code_does_not_run_unless_unsafe_is_chosen(tmp_path, capsys, monkeypatch):
    """An old kernel (no Landlock, no namespaces) simulated: checks and duel benches refuse in one
    line before any code runs; ``--sandbox unsafe`` runs them and the record says so."""
    from tcgtui.sandbox import layers
    from tcgtui.store import Store
    monkeypatch.setattr(layers, "probe", lambda: layers.Boundary(seccomp=True, root=True))
    bank = write_rows(tmp_path, [{"code": EVEN, "value": "4"}])
    assert main(["duel", "check", bank]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "landlock" in err[0] and "--sandbox unsafe" in err[0]
    assert main(["duel", "check", bank, "--sandbox", "unsafe"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == "true"
    db = tmp_path / "d.sqlite3"
    bench = ["bench", "--game", "duel", "--agent", "puzzler", "--vs", "puzzler", "--games", "1", "--param",
             "rounds=2", "--db", str(db)]
    assert main(bench) == 2 and not db.exists()
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert main([*bench, "--param", "sandbox=unsafe"]) == 0
    with Store(db) as store:
        setups = [json.loads(r[0]) for r in store.conn.execute("SELECT game_params FROM games")]
    assert [s.get("sandbox") for s in setups] == ["unsafe"]


def test_explain_lists_each_layer_and_says_whether_code_runs(capsys):
    assert main(["duel", "check", "--explain"]) == 0
    lines = capsys.readouterr().out.splitlines()
    text = locales.load("en")
    assert lines[-1] == text.t("sandbox.explain.holds")
    for layer in ("namespaces", "tasks", "landlock", "seccomp", "limits"):
        assert any(line.strip().startswith(text.t(f"sandbox.explain.{layer}")) for line in lines), layer
