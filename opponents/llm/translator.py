"""A seed's own translating models (Eleusis under ``--protocol seed``): words become code.

What to ask and what to keep is the game's (``engine.prompting.Compiler``, from its prompter's
``SeedTranslation.compiler``: Eleusis's ``seed_compile`` module, read from ``--upstream``);
this module imports no game.  The models are ``--translator``'s, the first one
primary and the rest its fallbacks, each a models.toml entry or ``llm:MODEL`` at the seed's
temperature (0.7; ``--judge-temperature`` sets it).  The retries follow the seed's
coordinator: each model up to ``max_retries`` + 1 requests, all models in turn, at
most ``max_total_attempts`` requests in all (then the words have no code), another
cycle after a doubling pause when every model failed below that bound.  A request
fails when the endpoint fails (after tcgtui's own retries of it), the reply was cut
at its token limit, or what the compiler keeps of it is not code it accepts.  A
translation that succeeded is kept per words for the translator's life.

Every request, its reply and the code kept of it travel with the translation
(``Translation.to_json``), so a record can show how a guess got its code.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from tcgtui import locales
from tcgtui.engine.prompting import Compiler, SourceMissing
from tcgtui.errors import UserError
from tcgtui.opponents.base import agent_rng
from tcgtui.opponents.llm.client import ChatClient, Sleep
from tcgtui.opponents.llm.endpoint import EndpointSettings
from tcgtui.opponents.llm.followup import judge_settings
from tcgtui.opponents.llm.spend import BudgetSpent

OK, NOT_CODE, TRUNCATED, ENDPOINT = "ok", "not_code", "truncated", "endpoint"
SUCCESS, RETRY_SUCCESS, EXHAUSTED = "success", "retry_success", "exhausted"
REPLY_KEPT = 4000  # characters of a reply a record keeps


@dataclass(frozen=True)
class Attempt:
    """One request: the model asked, what it said, the code kept of it, and how it went."""

    model: str
    outcome: str
    reply: str = ""
    code: str = ""
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "outcome": self.outcome,
            "reply": self.reply[:REPLY_KEPT],
            "code": self.code,
            "error": self.error,
        }


@dataclass(frozen=True)
class Translation:
    """The code for the words (None: none, and the guess is wrong), and how it was reached."""

    words: str
    code: str | None
    status: str
    model: str | None
    attempts: tuple[Attempt, ...] = ()
    sleep_cycles: int = 0
    cached: bool = False
    prompt_chars: int = 0
    limits: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "words": self.words,
            "code": self.code,
            "status": self.status,
            "model": self.model,
            "attempts": [a.to_json() for a in self.attempts],
            "sleep_cycles": self.sleep_cycles,
            "cached": self.cached,
            "prompt_chars": self.prompt_chars,
            "limits": self.limits,
        }


class SeedTranslator:
    """The seed's rule compiler over tcgtui's endpoints (see the module's docstring)."""

    def __init__(
        self,
        compiler: Compiler,
        models: list[EndpointSettings],
        max_retries: int | None = None,
        max_total_attempts: int | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if not models:
            raise ValueError("a translator needs at least one model")
        self.compiler = compiler
        self.models = models
        self.clients = [ChatClient(s, agent_rng(0, i, "llm-translator"), sleep) for i, s in enumerate(models)]
        self.max_retries = compiler.max_retries if max_retries is None else max_retries
        self.max_total_attempts = compiler.max_total_attempts if max_total_attempts is None else max_total_attempts
        self.sleep = sleep
        self._kept: dict[str, Translation] = {}

    async def translate(self, words: str) -> Translation:
        kept = self._kept.get(words)
        if kept is not None:
            return replace(kept, cached=True)
        prompt = self.compiler.prompt(words)
        attempts: list[Attempt] = []
        cycle = 0

        def done(code: str | None, status: str, model: str | None) -> Translation:
            return Translation(
                words,
                code,
                status,
                model,
                tuple(attempts),
                cycle,
                False,
                len(prompt),
                {"max_retries": self.max_retries, "max_total_attempts": self.max_total_attempts},
            )

        while True:
            for index, (settings, client) in enumerate(zip(self.models, self.clients)):
                for retry in range(self.max_retries + 1):
                    if len(attempts) >= self.max_total_attempts:
                        return done(None, EXHAUSTED, None)  # not kept: asked again next time
                    attempt = await self._ask(settings.model, client, prompt)
                    attempts.append(attempt)
                    if attempt.outcome == OK:
                        first = retry == 0 and index == 0 and cycle == 0
                        found = done(attempt.code, SUCCESS if first else RETRY_SUCCESS, settings.model)
                        self._kept[words] = found
                        return found
            if len(attempts) >= self.max_total_attempts:
                found = done(None, EXHAUSTED, None)
                self._kept[words] = found
                return found
            cycle += 1
            wait_first, wait_most = self.compiler.backoff
            await self.sleep(min(wait_first * 2 ** (cycle - 1), wait_most))

    async def _ask(self, model: str, client: ChatClient, prompt: str) -> Attempt:
        try:
            reply = await client.complete([{"role": "user", "content": prompt}], None)
        except BudgetSpent:
            raise  # not the endpoint's failure: the sweep's budget is reached
        except Exception as exc:  # the endpoint failed after its retries: one failed request, as the seed counts it
            return Attempt(model, ENDPOINT, error=str(exc)[:300])
        if reply.finish_reason == "length":
            return Attempt(model, TRUNCATED, reply.content)
        code = self.compiler.extract(reply.content)
        return Attempt(model, OK if self.compiler.accepts(code) else NOT_CODE, reply.content, code)

    async def aclose(self) -> None:
        for client in self.clients:
            await client.aclose()


def translator_models(options: dict[str, Any]) -> list[EndpointSettings]:
    """``--translator llm:A,llm:B``: each a models.toml entry or a model at the endpoint, at the seed's temperature."""
    given = str(options.get("translator") or "").strip()
    if not given:
        raise UserError(locales.load().t("llm_options.translator_needed"))
    out = []
    for spec in (s.strip() for s in given.split(",")):
        kind, _, model = spec.partition(":")
        if kind != "llm" or not model.strip():
            raise UserError(locales.load().t("llm_options.translator_bad", value=spec))
        settings = judge_settings({**options, "judge": spec}, "seed")
        assert settings is not None
        out.append(settings)
    return out


def seed_translator(
    options: dict[str, Any], compiler: Callable[[], Compiler], sleep: Sleep = asyncio.sleep
) -> SeedTranslator:
    """The translator a seed's protocol needs, or one line naming what is missing: ``compiler`` is the
    prompter's (``SeedTranslation.compiler``), SourceMissing without the seed's file (no ``--upstream``)."""
    try:
        made = compiler()
    except SourceMissing as exc:
        raise UserError(locales.load().t("llm_options.translator_upstream", file=exc.file)) from None
    except ValueError as exc:  # the checkout's file is not in the shape the game reads
        raise UserError(str(exc)) from None
    models = translator_models(options)
    return SeedTranslator(made, models, sleep=sleep)
