"""A second model that completes a move: Eleusis's translator turns a rule in words into the rule language.

Shared by the ``llm:`` agent (``--judge llm:MODEL``) and the screen where a
person guesses in plain words: the same prompt (the game's prompter's
``follow_up``), the same settings (the judge's endpoint at temperature 0, or
``--judge-temperature``; under ``--protocol seed`` 0.7, as the seed runs its
translating model) and one cache per process, so the same words always get the same code.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tcgtui import locales
from tcgtui.engine.prompting import JudgeFollowUp, Prompter
from tcgtui.errors import OptionError
from tcgtui.opponents.base import agent_rng
from tcgtui.opponents.llm.client import ChatClient, Sleep
from tcgtui.opponents.llm.endpoint import EndpointSettings, settings_from_options
from tcgtui.opponents.llm.model_registry import cached
from tcgtui.opponents.llm.reasoning import split_reasoning

_ANSWERS: dict[tuple[str, str, float | None, str], str] = {}  # (model, endpoint, temperature, question) -> answer
SEED_TEMPERATURE = 0.7  # the seed's translating model runs at this temperature (its config.yaml)


def judge_temperature(options: dict[str, Any], protocol: str = "tcgtui") -> float:
    """``--judge-temperature`` if given, else 0 (tcgtui: the same words, the same code) or the seed's 0.7."""
    given = options.get("judge_temperature")
    return float(given) if given is not None else SEED_TEMPERATURE if protocol == "seed" else 0.0


def judge_settings(options: dict[str, Any], protocol: str = "tcgtui") -> EndpointSettings | None:
    """``--judge llm:MODEL``: the same endpoint at the judge's temperature, no streaming, no extra body
    (``--judge llm:NAME``: the models.toml entry's endpoint and key)."""
    value = options.get("judge")
    if not value:
        return None
    kind, _, model = str(value).partition(":")
    if kind != "llm" or not model.strip():
        raise OptionError(locales.load().t("llm_options.judge_bad", value=value))
    entry = cached(options.get("models")).get(model.strip())  # a models.toml entry: its endpoint and key
    temperature = judge_temperature(options, protocol)
    if entry is not None:
        options = {**options, **entry.options()}
    return settings_from_options(
        entry.model if entry is not None else model.strip(),
        {**options, "temperature": temperature, "stream": False, "extra_body": {}},
    )


class FollowUp:
    """The judge model, asked at its settings; its answers cached per question for the whole process."""

    def __init__(self, settings: EndpointSettings, sleep: Sleep = asyncio.sleep) -> None:
        self.settings = settings
        self.sleep = sleep
        self.client = ChatClient(settings, agent_rng(0, 0, "llm-judge"), sleep)

    async def complete(self, p: Prompter, move: Any) -> tuple[Any, dict[str, Any] | None]:
        """``move`` completed with the judge's answer, and what to record of it: the judge's
        model, its whole reply (callers clip it) and whether it came from the cache (None: the
        move needed no follow-up)."""
        if not isinstance(p, JudgeFollowUp):  # a game whose moves no second model completes
            return move, None
        messages = p.follow_up(move)
        if messages is None:
            return move, None
        key = (
            self.settings.model,
            self.settings.base_url,
            self.settings.temperature,
            json.dumps(messages, sort_keys=True, ensure_ascii=False),
        )
        cached = key in _ANSWERS
        if not cached:
            done = await self.client.complete(messages, None, first_request=1)
            _ANSWERS[key] = split_reasoning(done.content)[0]
        reply = _ANSWERS[key]
        info = {
            "model": self.settings.model,
            "temperature": self.settings.temperature,
            "reply": reply,
            "cached": cached,
        }
        return p.complete(move, reply), info

    async def aclose(self) -> None:
        await self.client.aclose()
