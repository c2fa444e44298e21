"""The released LLM prompt under --protocol seed, read from a checkout at run time.

``tests/fixtures/seed_checkout`` is written for these tests in the shape of the released
source (AdaMLLab/tcg-bench src/agents.py, game.py, community_engine.py, main.py), with
wording of its own: tcgtui carries none of the released text.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tcgtui.engine import registry
from tcgtui.engine.tcg.seed.prompt import SeedPrompter, SeedWording, WordingError
from tcgtui.engine.tcg.seed.rules import BENCHMARK, SeedState
from tcgtui.errors import UserError
from tcgtui.match import run_match
from tcgtui.opponents.base import SeatContext
from tcgtui.errors import OptionError
from tcgtui.opponents.llm.testserver import ChatServer, Reply
from tcgtui.opponents.registry import make_agent
from tcgtui.games.tcg.packs import load_pack
from tcgtui.upstream import load as load_upstream
from tests.llm_support import llm_agent

CHECKOUT = Path(__file__).resolve().parent / "fixtures" / "seed_checkout"
PACK = load_pack("community")


def wording() -> SeedWording:
    return SeedWording.read(lambda path: (CHECKOUT / path).read_text(encoding="utf-8"))


def game(upstream: str | None = str(CHECKOUT), loop: str = "benchmark"):
    params = {"pack": PACK, "protocol": "seed", "seed_loop": loop}
    if upstream is not None:
        params["upstream"] = load_upstream("--upstream", upstream)
    return registry.get("tcg").game(params)


def test_the_prompt_is_the_checkouts_baseline_prompt_with_the_pool_once_and_the_rules_always():
    state = SeedState.new(PACK, BENCHMARK, 42)
    p = SeedPrompter(wording(), "en", 0)
    assert p.system() == {"role": "system", "content": "SYSTEM-EN: name one card between the tags."}
    first = p.turn(state.observation(0), [])["content"]
    assert first.startswith("EN me=10 them=10\nEN mine=[] theirs=[]\n"
                            "EN hand=['Reset Hand', 'Spell Echo', 'Shield Boost', 'Direct Strike']\n\nPOOL-EN:\n"
                            "Stone Golem <Champion> 1/4: effect 0\n")
    assert "Revenge Strike <Trick> when trigger 10: effect 10\n" in first
    assert "Draw Power <Spell>: effect 5\n" in first
    assert first.endswith("\nRULES-EN:\nRULE-EN one.\nRULE-EN two.\n")
    second = p.turn(state.observation(0), [])["content"]
    assert "POOL-EN" not in second and second.endswith("RULE-EN two.\n")
    ar = SeedPrompter(wording(), "ar", 0).turn(state.observation(0), [])["content"]
    assert ar.startswith("AR me=10 them=10\nAR hand=['Reset Hand AR', 'Spell Echo AR', 'Shield Boost AR', "
                         "'Direct Strike AR']\n\nPOOL-AR:\nStone Golem AR <C-AR> 1/4: effect 0\n")


@pytest.mark.parametrize("reply,mode,card,path", [
    ("<BEGIN_MOVE>direct strike<END_MOVE>", "strict", "direct_strike", "tags_found"),
    ("Shield Boost, then <BEGIN_MOVE>Fireball<END_MOVE>", "strict", "reset_hand", "fallback_first_card"),
    ("Shield Boost, then <BEGIN_MOVE>Fireball<END_MOVE>", "soft", "shield_boost", "exact_text_match"),
    ("Direct Strike or Spell Echo? Spell Echo.", "soft", "spell_echo", "exact_text_match"),
    ("it is the echo, surely", "soft", "spell_echo", "partial_text_match"),
    ("a boost for the shield", "soft", "shield_boost", "partial_text_match"),
    ("nothing I know", "soft", "reset_hand", "fallback_first_card"),
])
def test_replies_are_read_as_the_released_code_reads_them(reply, mode, card, path):
    """Tags, else (soft) the card named last, else one whose longer word comes last, else the first card."""
    state = SeedState.new(PACK, BENCHMARK, 42)
    p = SeedPrompter(wording(), "en", 0)
    p.parse_mode = mode
    parsed = p.parse(reply, state.observation(0))
    assert (parsed.move, parsed.path, parsed.error) == (card, path, None)


def test_a_checkout_of_another_shape_is_one_line(tmp_path):
    for name in ("agents.py", "game.py", "community_engine.py", "main.py"):
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / "src" / name).write_text((CHECKOUT / "src" / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "src" / "agents.py").write_text("class Other:\n    pass\n", encoding="utf-8")
    with pytest.raises(WordingError, match="src/agents.py has no class LLMAgent"):
        game(str(tmp_path))
    (tmp_path / "src" / "agents.py").write_text((CHECKOUT / "src" / "agents.py").read_text(encoding="utf-8"),
                                                encoding="utf-8")
    (tmp_path / "src" / "main.py").unlink()
    with pytest.raises(UserError, match="has no src/main.py; expected a checkout of AdaMLLab/tcg-bench"):
        game(str(tmp_path))


def test_an_llm_under_the_seed_protocol_needs_the_checkout():
    agent = make_agent("llm:fake-model", base_url="http://127.0.0.1:9")
    with pytest.raises(OptionError, match="give --upstream DIR"):
        agent.start(SeatContext(0, 1, "en", game(None)))


def test_a_model_plays_a_whole_game_through_the_released_prompt():
    """One conversation per game, one answer per turn: even a reply naming no card plays
    (the first card in hand), so the model is never asked again."""
    replies = iter(["<BEGIN_MOVE>Direct Strike<END_MOVE>", "no idea"] * 100)
    with ChatServer(policy=lambda request: Reply(next(replies))) as server:
        agent = llm_agent(server, parse="soft")

        async def play():
            try:
                return await run_match(game(), 42, (agent, make_agent("rollout:1")))
            finally:
                await agent.aclose()
        result = asyncio.run(play())
        requests = [r.json for r in server.requests]
    assert result.outcome is not None
    llm = [d for d in result.decisions if d.seat == 0]
    assert len(requests) == len(llm)                      # never re-asked
    assert {d.info["parse_path"] for d in llm} <= {"tags_found", "fallback_first_card", "exact_text_match"}
    assert all(d.info["prompt_version"].startswith("seed-en-") for d in llm)
    first, later = requests[0]["messages"], requests[-1]["messages"]
    assert first[0]["content"].startswith("SYSTEM-EN") and "POOL-EN" in first[1]["content"]
    assert len(requests) >= 2
    assert [m["role"] for m in later[:3]] == ["system", "user", "assistant"]
    assert "POOL-EN" not in later[-1]["content"] and "RULES-EN" in later[-1]["content"]


def seed_game(**params):
    return registry.get("tcg").game({"pack": PACK, "protocol": "seed", "seed_loop": "benchmark",
                                     "upstream": load_upstream("--upstream", str(CHECKOUT)), **params})


def test_the_other_prompt_strategies_are_the_checkouts():
    """--prompt_strategy minimal: the state line alone, never the pool or the rules;
    chain_of_thought: its own state lines, then the pool once and the rules always."""
    state = SeedState.new(PACK, BENCHMARK, 42)
    hand = "['Reset Hand', 'Spell Echo', 'Shield Boost', 'Direct Strike']"
    minimal = SeedPrompter(wording(), "en", 0, "minimal")
    assert minimal.turn(state.observation(0), [])["content"] == f"MIN-EN 10 10 {hand}"
    assert minimal.turn(state.observation(0), [])["content"] == f"MIN-EN 10 10 {hand}"
    cot = SeedPrompter(wording(), "en", 0, "chain_of_thought")
    first = cot.turn(state.observation(0), [])["content"]
    assert first.startswith(f"COT-EN 10 [] {hand}\n\nPOOL-EN:\n") and first.endswith("RULE-EN two.\n")
    assert "POOL-EN" not in cot.turn(state.observation(0), [])["content"]
    versions = {SeedPrompter(wording(), "en", 0, s).version for s in ("baseline", "minimal", "chain_of_thought")}
    assert len(versions) == 3 and SeedPrompter(wording(), "en", 0).version in versions
    assert SeedPrompter(wording(), "ar", 0, "minimal").turn(state.observation(0), [])["content"] == "MIN-AR 10"


@pytest.mark.parametrize("mode,model,suffix", [
    ("no_think", "Qwen/Qwen3-8B", " THINK-OFF"), ("think", "qwen3-32b", " THINK-ON"),
    ("no_think", "llama-3.3-70b", ""), ("none", "Qwen/Qwen3-8B", "")])
def test_the_qwen3_suffix_follows_the_model_name_as_the_released_code_does(mode, model, suffix):
    p = SeedPrompter(wording(), "en", 0, qwen=mode)
    p.model = model
    assert p.system()["content"] == "SYSTEM-EN: name one card between the tags." + suffix


def test_a_strategy_or_suffix_the_checkout_lacks_or_another_protocol_is_one_line(tmp_path):
    source = (CHECKOUT / "src" / "agents.py").read_text(encoding="utf-8")
    bare = source.replace('self.prompt_strategy == "chain_of_thought"', 'self.prompt_strategy == "deep"')
    bare = bare.replace("qwen_think", "other_flag")
    w = SeedWording.read(lambda path: bare if path == "src/agents.py" else (CHECKOUT / path).read_text("utf-8"))
    with pytest.raises(WordingError, match="src/agents.py has no prompt strategy 'chain_of_thought'"):
        SeedPrompter(w, "en", 0, "chain_of_thought")
    with pytest.raises(WordingError, match="no Qwen3 suffix for 'no_think'"):
        SeedPrompter(w, "en", 0, qwen="no_think")
    with pytest.raises(ValueError, match="seed_prompt=minimal sets the released prompt: it plays under "
                                         "--protocol seed only"):
        registry.get("tcg").game({"pack": PACK, "seed_prompt": "minimal"})


def test_a_qwen3_model_plays_the_minimal_prompt_with_its_suffix():
    with ChatServer(policy=lambda request: Reply("<BEGIN_MOVE>Direct Strike<END_MOVE>")) as server:
        agent = make_agent("llm:Qwen3-8B", base_url=server.base_url, backoff_base=0.001, backoff_max=0.01)

        async def play():
            try:
                return await run_match(seed_game(seed_prompt="minimal", seed_qwen="no_think"), 42,
                                       (agent, make_agent("rollout:1")))
            finally:
                await agent.aclose()
        result = asyncio.run(play())
        requests = [r.json for r in server.requests]
    assert result.outcome is not None and requests
    assert all(r["messages"][0]["content"].endswith(" THINK-OFF") for r in requests)
    assert all(m["content"].startswith("MIN-EN ") for r in requests for m in r["messages"] if m["role"] == "user")
    llm = [d for d in result.decisions if d.seat == 0]
    assert {d.info["prompt_version"] for d in llm} == {SeedPrompter(wording(), "en", 0, "minimal", "no_think").version}
    assert seed_game(seed_prompt="minimal").setup()["seed_prompt"] == "minimal"
    assert "seed_prompt" not in seed_game().setup()          # the default: a setup as stored before
