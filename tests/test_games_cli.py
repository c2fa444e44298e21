"""``tcgtui games``: every game with the players a user may name for it."""

from __future__ import annotations

from tcgtui.cli import main
from tcgtui.commands.games import players
from tcgtui.engine import registry
from tcgtui.tui.games import has_screen


def test_human_is_offered_only_for_games_with_a_screen(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    blocks = {block.split(" · ")[0]: block for block in out.split("\n\n")}
    listed = [s for s in registry.games() if s.info.variant_of is None]
    assert set(blocks) == {s.id for s in listed}
    assert any(not has_screen(s.id) for s in registry.games())   # the rule is tested on one such game (the bank)
    for spec in registry.games():
        assert ("human" in players(spec)) == has_screen(spec.id), spec.id
    for spec in listed:
        assert ("human" in blocks[spec.id].replace("\n", " ")) == has_screen(spec.id), spec.id
