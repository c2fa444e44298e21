"""Every game declares its app side once (``tcgtui.app_side.AppSide``), and what its flags promise:
a ladder where ``GameInfo.campaign`` is set, a referee service where it names one the arena has not,
a loader for each file kind of its parameters; every role's module has its Protocol's shape, so a
misspelt ``LOADERS`` fails here.  ``tests/test_plugin_game.py`` runs ``check`` on the test-only game."""

from __future__ import annotations

import types
import typing

import pytest

from tcgtui import app_side, referee
from tcgtui.app_side import NONE, ROLES, AppSide, Resources, Role, app_for
from tcgtui.arena import file_loaders
from tcgtui.engine import registry
from tcgtui.tui.games import NoScreen, screen_for
from tcgtui.tui.games.base import GameScreen

GAMES = [s.id for s in registry.games()]
# the shipped games no person plays on a screen of their own (reached by the bench only)
SCREENLESS = {"duel-bank"}


def role_protocol(name: str) -> type:
    """The Protocol a role field promises: ``Role[P] | None`` -> P."""
    hint = typing.get_type_hints(AppSide)[name]
    role = next(a for a in typing.get_args(hint) if typing.get_origin(a) is Role)
    return typing.get_args(role)[0]


def check(game_id: str) -> AppSide:
    """The game's declaration holds what its spec's flags promise; each role has its shape."""
    spec, side = registry.get(game_id), app_for(game_id)
    assert side is not NONE, f"{game_id}: no AppSide registered"
    for name, role in side.roles().items():
        module = role.load()
        assert isinstance(module, role_protocol(name)), f"{game_id}: {role.module} is not a {name} role"
    if spec.info.campaign:
        assert side.campaign is not None, f"{game_id}: GameInfo.campaign without a campaign role"
    service = spec.referee.service
    if service and service not in referee.SERVICES:
        assert side.referee is not None and service in side.referee.load().SERVICES
        assert service in side.referee.load().READY
    kinds = {p.kind for p in spec.info.params if p.kind}
    assert kinds <= set(file_loaders(game_id)), f"{game_id}: no loader for {kinds - set(file_loaders(game_id))}"
    if side.screen:
        assert issubclass(screen_for(game_id), GameScreen)
    return side


@pytest.mark.parametrize("game_id", GAMES)
def test_every_shipped_game_declares_its_app_side(game_id: str) -> None:
    side = check(game_id)
    assert bool(side.screen) == (game_id not in SCREENLESS)


def test_every_role_field_names_a_protocol() -> None:
    assert set(ROLES) == {f for f in typing.get_type_hints(AppSide) if f != "screen"}
    for name in ROLES:
        assert typing.get_args(role_protocol(name)) == () and getattr(role_protocol(name), "_is_protocol")


def test_a_misspelt_attribute_fails_the_shape() -> None:
    good = types.ModuleType("good")
    good.LOADERS, good.BY_PATH = {}, ()              # type: ignore[attr-defined]
    bad = types.ModuleType("bad")
    bad.LOADER, bad.BY_PATH = {}, ()                 # type: ignore[attr-defined]
    assert isinstance(good, Resources) and not isinstance(bad, Resources)


def test_a_campaign_flag_without_a_ladder_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_side, "_APPS", {**app_side._APPS, "tcg": AppSide(screen=app_for("tcg").screen)})
    with pytest.raises(AssertionError, match="campaign"):
        check("tcg")


def test_an_unknown_game_has_none_and_no_screen() -> None:
    assert app_for("no-such-game") is NONE
    with pytest.raises(NoScreen):
        screen_for("no-such-game")


def test_a_second_declaration_for_a_game_is_refused() -> None:
    app_for("tcg")
    with pytest.raises(ValueError, match="two app sides"):
        app_side.register_app("tcg", AppSide())
