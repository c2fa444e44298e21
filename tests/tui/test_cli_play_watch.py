"""Bad flags to ``play`` and ``watch`` end as one line naming the flag, exit code 2."""

from __future__ import annotations

import pytest

from tcgtui.cli import main


@pytest.mark.parametrize("argv, flag", [
    (["play", "--vs", "nosuch:1"], "--vs"),
    (["play", "--vs", "human"], "--vs"),
    (["play", "--vs", "random", "--lang", "xx"], "--lang"),
    (["play", "--vs", "random", "--rtl", "sideways"], "--rtl"),
    (["play", "--vs", "random", "--seat", "3"], "--seat"),
    (["play", "--vs", "random", "--pause", "-1"], "--pause"),
    (["play", "--vs", "random", "--seed", "-4"], "--seed"),
    (["play", "--vs", "random", "--name", "two words"], "--name"),
    (["play", "--vs", "random", "--pack", "/nonexistent/pack"], "/nonexistent/pack"),
    (["watch", "--p1", "random", "--p2", "human"], "--p2"),
    (["watch", "--p1", "mc:0", "--p2", "random"], "--p1"),
])
def test_bad_input_is_one_line(argv: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and flag in err and "Traceback" not in err


def test_rtl_mode_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TCGTUI_RTL", "upside")
    assert main(["play", "--vs", "random"]) == 2
    assert "TCGTUI_RTL" in capsys.readouterr().err
