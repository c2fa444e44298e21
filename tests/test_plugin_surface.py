"""The declared plug-in surface holds: every flag a game's parameter declares becomes one flag with its
text in every language, variants point at a game and a parameter that exist, every shipped game gives
the test server its fake replies, and two games may share a flag only if they declare it alike."""

from __future__ import annotations

import argparse
import random

import pytest

from tcgtui import locales
from tcgtui.arena import add_game_arguments, flag_params
from tcgtui.engine import registry
from tcgtui.engine.registry import GameInfo, GameSpec, Param


def test_every_declared_flag_is_one_flag_with_its_help_in_every_language():
    parser = argparse.ArgumentParser()
    add_game_arguments(parser, locales.load())
    made = {a.option_strings[0]: a for a in parser._actions if a.option_strings}
    declared = [p for s in registry.games() for p in s.info.params if p.flag]
    assert declared and len({p.flag for p in declared}) == len(flag_params())
    for p in declared:
        action = made[p.flag]
        assert action.dest == p.name and action.default is None
        assert action.metavar == (p.metavar or None)
        assert list(action.choices or ()) == ([] if p.metavar else list(p.choices))
        for code in locales.available():
            assert locales.load(code).has(p.help_key), (code, p.help_key)


def test_a_flag_two_games_declare_differently_is_refused():
    one = GameSpec(GameInfo("a", seats=1, params=(Param("size", str, "", flag="--size", metavar="N",
                                                        help_key="arena.param"),)), make=lambda p: None)
    two = GameSpec(GameInfo("b", seats=1, params=(Param("size", str, "", flag="--size", metavar="M",
                                                        help_key="arena.param"),)), make=lambda p: None)
    assert [p.metavar for p in flag_params([one, one])] == ["N"]
    with pytest.raises(TypeError, match="--size: b declares it unlike another game"):
        flag_params([one, two])
    with pytest.raises(TypeError, match="a flag is spelt --NAME and needs a help_key"):
        Param("size", str, "", flag="size")


def test_variants_name_a_game_and_a_parameter_of_their_own():
    variants = [s for s in registry.games() if s.info.variant_of is not None]
    assert variants
    for spec in variants:
        parent = registry.get(spec.info.variant_of.game)
        assert parent.info.variant_of is None
        assert spec.info.variant_of.param in {p.name for p in spec.info.params}
        assert spec.info.variant_of.param not in {p.name for p in parent.info.params}


def test_every_shipped_game_gives_the_test_server_fake_replies():
    catalogs = [locales.load(code) for code in locales.available()]
    for spec in registry.games():
        if registry.origin(spec.id) is not None:       # a plug-in's game may give none
            continue
        assert spec.fake_model is not None, spec.id
        reply = spec.fake_model.player(spec.id, catalogs, random.Random(1))
        out = reply("", False)          # a prompt it cannot read still gets a reply, never an exception
        assert isinstance(out if isinstance(out, str) else out[0], str)
