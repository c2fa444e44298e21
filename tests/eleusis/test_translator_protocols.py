"""The prompter features the ``llm:`` agent checks by type (``engine.prompting``): a prompter that declares
one is recognised and one without it is not; and the agent's refusals and follow-ups read them as before."""

from __future__ import annotations

from typing import Any

import pytest

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.eleusis.cards import parse_card
from tcgtui.engine.eleusis.moves import Play, parse_play
from tcgtui.engine.prompting import JudgeFollowUp, SeedRetries, SeedTranslation
from tcgtui.errors import OptionError
from tcgtui.opponents.base import SeatContext
from tcgtui.opponents.llm.followup import FollowUp, judge_settings
from tcgtui.opponents.llm.testserver import ChatServer, game_policy
from tcgtui.upstream import load
from tests.eleusis.test_seed_translated_games import fixture_checkout
from tests.llm_support import llm_agent, run


class Translated:
    """Declares the seed's translation: its flags, its models and its methods."""

    seed_translation = True
    translator_missing = False
    translator = "llm:t"

    def compiler(self) -> Any:
        return None

    def seed_words(self, move: Any) -> str | None:
        return "words"

    def with_code(self, move: Any, code: str | None) -> Any:
        return (move, code)


class FlagsOnly:
    """The flags the agent once looked up by name, without the methods they promised."""

    seed_translation = True
    translator_missing = True
    needs_follow_up = True


class Completed:
    needs_follow_up = False

    def follow_up(self, move: Any) -> list[dict[str, Any]] | None:
        return None

    def complete(self, move: Any, reply: str) -> Any:
        return move


def eleusis(tmp_path=None, **params: Any):
    if params.get("protocol") == "seed":
        params["upstream"] = load("--upstream", str(fixture_checkout(tmp_path)))
    return registry.get("eleusis").game({"rule": 7, **params})


def prompter(game):
    return registry.get(game.name).prompter(game.public(), locales.load("en"), 0, None)


def test_a_declared_feature_is_recognised_and_a_missing_one_is_not(tmp_path):
    assert isinstance(Translated(), SeedTranslation) and not isinstance(Translated(), JudgeFollowUp)
    assert isinstance(Completed(), JudgeFollowUp) and not isinstance(Completed(), SeedTranslation)
    assert not isinstance(FlagsOnly(), SeedTranslation) and not isinstance(FlagsOnly(), JudgeFollowUp)
    words = prompter(eleusis(guess_format="text"))                 # tcgtui's Eleusis: --judge translates
    assert isinstance(words, JudgeFollowUp) and words.needs_follow_up
    assert not isinstance(words, SeedTranslation) and not isinstance(words, SeedRetries)
    assert not prompter(eleusis(guess_format="code")).needs_follow_up
    seed = prompter(eleusis(tmp_path, protocol="seed", guess_format="text", translator="llm:t"))
    assert isinstance(seed, SeedTranslation) and isinstance(seed, SeedRetries) and isinstance(seed, JudgeFollowUp)
    assert seed.seed_translation and not seed.translator_missing and not seed.needs_follow_up
    assert seed.translator == "llm:t" and seed.compiler().accepts("return True")
    grid = prompter(registry.get("tictactoe").game({}))
    assert not isinstance(grid, (JudgeFollowUp, SeedTranslation, SeedRetries))


def test_the_seeds_words_and_code_through_the_protocol(tmp_path):
    seed = prompter(eleusis(tmp_path, protocol="seed", guess_format="text", translator="llm:t"))
    assert isinstance(seed, SeedTranslation)
    card = parse_card("2H")
    guess = Play(card, guess=True, rule="only red cards").text()
    assert seed.seed_words(guess) == "only red cards"
    assert seed.seed_words(Play(card, rule="only red cards").text()) is None          # a tentative rule: kept
    assert parse_play(seed.with_code(guess, "return True")).code == "return True"
    assert parse_play(seed.with_code(guess, None)).code == ""          # no code: the walk counts it wrong


@pytest.mark.parametrize("judge", [None, "llm:judge"])
def test_words_without_the_seeds_translator_are_refused_even_with_a_judge(judge, tmp_path):
    """Under --protocol seed a guess in words needs --translator; --judge does not stand in for it."""
    game = eleusis(tmp_path, protocol="seed", guess_format="text")
    assert prompter(game).translator_missing
    with ChatServer(policy=game_policy("eleusis")) as server:
        agent = llm_agent(server, **({"judge": judge} if judge else {}))
        with pytest.raises(OptionError) as refused:
            agent.start(SeatContext(0, 0, "en", game.public()))
        assert agent.seed_translator is None
        run(agent.aclose())
        assert server.requests == []
    assert str(refused.value) == locales.load().t("llm_options.translator_needed")


def test_the_seeds_translator_is_made_only_where_the_game_names_one(tmp_path):
    with ChatServer(policy=game_policy("eleusis")) as server:
        named = llm_agent(server)
        named.start(SeatContext(0, 0, "en", eleusis(tmp_path / "a", protocol="seed", guess_format="text",
                                                    translator="llm:translator").public()))
        code = llm_agent(server)
        code.start(SeatContext(0, 0, "en", eleusis(tmp_path / "b", protocol="seed", guess_format="code").public()))
        assert named.seed_translator is not None and code.seed_translator is None
        run(named.aclose())
        run(code.aclose())


def test_a_prompter_without_the_follow_up_is_never_sent_to_the_judge():
    with ChatServer(policy=game_policy("eleusis")) as server:
        judge = FollowUp(judge_settings({"judge": "llm:judge", "base_url": server.base_url}))
        try:
            assert run(judge.complete(prompter(registry.get("tictactoe").game({})), "b2")) == ("b2", None)
            assert run(judge.complete(FlagsOnly(), "x")) == ("x", None)
        finally:
            run(judge.aclose())
        assert server.requests == []
