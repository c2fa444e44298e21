"""The core carries games other than the card game: a tiny Nim proves it stays generic,
and a third language is added with files only."""

from __future__ import annotations

import json
import shutil

import pytest

from tcgtui import locales
from tcgtui.engine.core import Event, Game, GameRecord, GameState, IllegalMove, Match, Outcome, replay
from tcgtui.engine.tcg.describe import card_text, rules_sentences
from tests.test_engine_properties import play_random


class NimState(GameState[int]):
    """Take 1-3 stones; whoever takes the last one wins."""

    def __init__(self, stones: int, player: int = 0) -> None:
        self.stones, self.player, self._outcome = stones, player, None

    @property
    def current_player(self) -> int:
        return -1 if self._outcome else self.player

    def legal_moves(self) -> list[int]:
        return [] if self._outcome else [n for n in (1, 2, 3) if n <= self.stones]

    def apply(self, move: int) -> list[Event]:
        if move not in self.legal_moves():
            raise IllegalMove(str(move))
        self.stones -= move
        events = [Event("take", self.player, {"n": move})]
        if self.stones == 0:
            self._outcome = Outcome(self.player, "last_stone")
        self.player = 1 - self.player
        return events

    def clone(self) -> NimState:
        other = NimState(self.stones, self.player)
        other._outcome = self._outcome
        return other

    def is_terminal(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def observation(self, seat: int) -> dict:
        return {"stones": self.stones, "to_move": self.player}

    def to_json(self) -> dict:
        return {"stones": self.stones, "player": self.player}


class Nim(Game[int]):
    name = "nim"

    def new_state(self, seed: int) -> NimState:
        return NimState(10 + seed % 7)

    def setup(self) -> dict:
        return {}

    def move_to_text(self, move: int) -> str:
        return str(move)

    def move_from_text(self, text: str) -> int:
        return int(text)


def test_match_record_and_replay_work_for_another_game():
    match = Match(Nim(), 3)
    while not match.state.is_terminal():
        match.play(match.state.legal_moves()[-1])
    record = GameRecord.from_json(json.loads(json.dumps(match.record().to_json())))
    assert record.game == "nim" and record.outcome["reason"] == "last_stone"
    again = replay(Nim(), record)
    assert again.state.to_json() == match.state.to_json() and again.state.winner == match.state.winner
    with pytest.raises(ValueError, match="not 'nim'"):
        replay(Nim(), GameRecord("tcg", 1, {}))


def test_a_third_language_is_files_only(tmp_path, monkeypatch, community):
    """Copy English to a new code with its own plural rule: cards and rules render in it."""
    shutil.copytree(locales.ROOT / "en", tmp_path / "zz")
    (tmp_path / "zz" / "meta.toml").write_text('name = "Zed"\ndirection = "ltr"\n[plural]\none = "1"\n',
                                              encoding="utf-8")
    cards = tmp_path / "zz" / "tcg" / "cards.toml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Cannot attack.", "Zed cannot attack."),
                     encoding="utf-8")
    monkeypatch.setenv(locales.EXTRA_ENV, str(tmp_path))
    locales.load.cache_clear()
    try:
        assert "zz" in locales.available()
        zz = locales.load("zz")
        assert card_text(community.card("stone_golem"), zz) == "Zed cannot attack."
        assert len(rules_sentences(zz, community)) == len(rules_sentences(locales.load("en"), community))
    finally:
        locales.load.cache_clear()


def test_records_of_card_games_carry_pack_identity(community):
    from tcgtui.engine.tcg import TcgGame
    record = play_random(TcgGame(community), 9).record()
    assert record.setup["pack"] == "community" and record.setup["pack_hash"] == community.hash
