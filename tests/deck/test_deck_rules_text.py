"""The card game's rules text says what the engine does with deck lists: the deck-list sentences
stand where "one copy of every card" stands, only in a game with deck lists, so the default
rules, prompts and prompt version are unchanged; a model playing a --deck game reads them."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tcgtui import locales
from tcgtui.cli import main
from tcgtui.engine import registry
from tcgtui.engine.tcg import TcgGame
from tcgtui.engine.tcg.describe import rules_sentences
from tcgtui.engine.tcg.prompter import prompt_version
from tcgtui.opponents.llm.testserver import ChatServer, game_policy
from tests.deck.test_deck_cli import write_deck
from tests.deck.test_deck_lists import copies_pack, two_decks  # noqa: F401  (a fixture)
from tests.scenario import rule


def held(state, p: int) -> list[int]:
    return (state.decks[p] + state.hands[p] + state.tricks[p] + state.graves[p]
            + [c.card for c in state.boards[p]])


@rule("tcg.rules.lists")
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_game_with_deck_lists_says_each_deck_is_a_list_of_the_packs_size_and_copies(copies_pack, lang):
    catalog = locales.load(lang)
    d0, d1 = two_decks(copies_pack, 3)
    game = TcgGame(copies_pack, (d0, d1))
    keys = [k for k, _ in registry.get("tcg").rules_text(game, catalog)]
    assert "setup.decks" not in keys and keys.index("tcg.rules.lists") == keys.index("setup.hands") - 2
    sentence = dict(rules_sentences(catalog, copies_pack, True))["tcg.rules.lists"]
    assert "20" in sentence and "3" in sentence                     # the pack's deck_size and max_copies
    orders = set()
    for seed in range(8):                                           # what the sentence says, the engine does
        state = game.new_state(seed)
        for p, deck in enumerate((d0, d1)):
            assert Counter(held(state, p)) == Counter(deck.cards()) and deck.size == 20
            assert max(Counter(deck.cards()).values()) <= 3
        orders.add(tuple(state.decks[0]))
    assert len(orders) == 8                                         # shuffled per seed


@rule("tcg.rules.own")
def test_each_player_draws_only_from_their_own_differing_list(copies_pack):
    d0, d1 = two_decks(copies_pack, 5)
    assert d0 != d1
    game = TcgGame(copies_pack, (d0, d1))
    for seed in range(4):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal():
            for p, deck in enumerate((d0, d1)):
                assert Counter(held(state, p)) == Counter(deck.cards())
            state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_default_games_keep_their_rules_and_prompt_version(community, lang):
    catalog = locales.load(lang)
    game = TcgGame(community)
    keys = [k for k, _ in registry.get("tcg").rules_text(game, catalog)]
    assert keys == [k for k, _ in catalog.items("rules")] and "setup.decks" in keys
    prompter = registry.get("tcg").prompter(game, catalog, 0)
    assert prompter.version == prompt_version(catalog)
    assert catalog.t("rules.setup.decks") in prompter.system()["content"]


def test_a_model_in_a_deck_list_game_reads_the_deck_list_rules(tmp_path: Path) -> None:
    from tcgtui.games.tcg.packs import load_pack
    frontier = load_pack("frontier")
    ids = [c.id for c in frontier.cards]
    mine = write_deck(tmp_path / "mine.toml", ids[:10] * 2)
    theirs = write_deck(tmp_path / "theirs.toml", ids[20:30] * 2)
    with ChatServer(policy=game_policy("tcg", 1)) as server:
        assert main(["bench", "--agent", "llm:fake-model", "--vs", "random", "--games", "1", "--pack", "frontier",
                     "--deck", mine, "--opp-deck", theirs, "--db", str(tmp_path / "t.sqlite3"),
                     "--base-url", server.base_url, "--concurrency", "1"]) == 0
        system = server.requests[0].json["messages"][0]["content"]
    en = locales.load("en")
    lists = en.t("tcg.rules.lists", deck_size=20, max_copies=frontier.rules.max_copies)
    assert lists in system and en.t("tcg.rules.own") in system
    assert en.t("rules.setup.decks") not in system
