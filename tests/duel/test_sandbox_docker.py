"""The optional Docker backend: used only where a daemon answers; elsewhere a check refuses to run
(the game errors) rather than being scored for want of Docker."""

from __future__ import annotations

import pytest

from tcgtui.cli import main
from tcgtui.sandbox import ERROR, TRUE, Limits, Sandbox
from tcgtui.sandbox.docker import DockerMissing, docker_available
from tcgtui.store import Store

HAVE_DOCKER = docker_available()


@pytest.mark.skipif(HAVE_DOCKER, reason="a docker daemon answers here")
def test_without_a_daemon_a_docker_check_refuses_to_run_and_the_duel_errors(tmp_path, capsys):
    with pytest.raises(DockerMissing, match="no docker daemon"):
        Sandbox("docker").check_sync("def mystery(x):\n    return True\n", "1")
    db = tmp_path / "d.sqlite3"
    assert main(["bench", "--game", "duel", "--sandbox", "docker", "--agent", "puzzler", "--vs", "puzzler",
                 "--games", "1", "--param", "rounds=2", "--db", str(db)]) == 0
    with Store(db) as store:
        rows = list(store.conn.execute("SELECT status, error FROM games"))
    assert len(rows) == 1 and rows[0][0] == "errored" and "no docker daemon" in rows[0][1]


@pytest.mark.skipif(not HAVE_DOCKER, reason="no docker daemon here")
def test_with_a_daemon_checks_run_in_a_container():
    sandbox = Sandbox("docker", Limits(timeout=60))
    assert sandbox.check_sync("def mystery(x):\n    return x == 3\n", "3").result == TRUE
    assert sandbox.check_sync("import socket\ndef mystery(x):\n    return bool(socket.create_connection(('127.0.0.1', 9), 1))\n", "0").result == ERROR


def test_the_backend_is_a_setting_of_the_duel_kept_in_its_record():
    from tcgtui.engine import registry
    game = registry.get("duel").game({"sandbox": "docker"})
    assert game.setup()["sandbox"] == "docker"
    state = game.new_state(0)
    state.apply('{"code":"def mystery(x):\\n    return True\\n","explanation":"","solution":"1"}')
    assert state.pending().backend == "docker"
