"""``llm:MODEL``: a language model plays through any OpenAI-compatible Chat Completions endpoint.

Each decision sends the conversation (rules and cards first, recent turns,
this turn's state), reads the move between ``<BEGIN_MOVE>`` and ``<END_MOVE>``
(``soft`` parsing also takes the last card named), re-prompts with the reason
after an invalid move up to ``invalid_retries`` times, then plays a random
legal card from the agent's seeded RNG or forfeits.  An endpoint that stays
down raises ``AgentError``: the game is errored, never lost.

``Decision.info`` (stored by bench, read by report) holds, for every decision:

- ``prompt_version``: ``v<N>-<lang>-<hash of the templates>``; ``model``: the model name sent.
- ``latency_s``: wall time of the whole decision, retries and re-prompts included.
- ``prompt_tokens``, ``completion_tokens``, ``reasoning_tokens``: summed over the
  requests that got a reply, from ``usage``; ``tokens_estimated`` is true when
  some reply had no ``usage`` and its counts were estimated from text;
  ``reasoning_estimated`` when ``usage`` gave no reasoning count but reasoning text came.
- ``retries``: endpoint faults retried; ``faults``: their kinds (``http_429``, ``timeout``...).
- ``invalid``: attempts that gave no legal move; ``fallback``: None, "random" or "forfeit".
- ``parse_path``: how the played move was read: "tags", "last_name", or "none" (fallback).
- ``attempts``: one per reply: ``reply`` (the answer, reasoning removed), ``reasoning``,
  ``move`` (card id or None), ``parse_path``, ``error`` (None, or no_tags, no_name,
  unknown, ambiguous, not_in_hand, empty), ``latency_s``, ``finish_reason``; texts over
  64k characters keep their head and tail, with ``reply_chars``/``reasoning_chars`` the full length.
- ``messages``: the whole conversation of the decision, only with ``log_prompts=True``.

Options (``make_agent("llm:MODEL", **options)``): the endpoint settings of
``opponents.llm.endpoint``, plus ``on_stream(kind, text)`` (kind "attempt",
"reasoning" or "answer"), ``log_prompts`` and ``sleep`` (the backoff's sleep).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from tcgtui.engine.core import Event
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.opponents.base import Agent, Decision, SeatContext, agent_rng
from tcgtui.opponents.llm.client import ChatClient, Completion, Sleep, StreamHook
from tcgtui.opponents.llm.endpoint import EndpointSettings, settings_from_options
from tcgtui.opponents.llm.parse import NONE, CardMatcher, parse_answer, split_reasoning
from tcgtui.opponents.llm.prompts import (Message, PromptBuilder, TurnLog, estimate_tokens, fit_history,
                                   message_tokens)
from tcgtui.opponents.spec import AgentSpec

RECORD_CHARS = 64_000      # per text field of an attempt in the record
HISTORY_REPLY_CHARS = 2_000  # of a past answer kept in the conversation (its end holds the move)


def clip(text: str, limit: int = RECORD_CHARS) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "…" + text[-half:]


def _usage_counts(done: Completion, sent: list[Message], answer: str, reasoning: str
                  ) -> tuple[int, int, int, bool, bool]:
    """(prompt, completion, reasoning tokens, estimated, reasoning estimated) for one reply."""
    usage = done.usage
    if usage is None:
        think = estimate_tokens(reasoning)
        return (sum(message_tokens(m) for m in sent), estimate_tokens(answer) + think, think, True, False)
    details = usage.get("completion_tokens_details") or {}
    think = details.get("reasoning_tokens") if isinstance(details, dict) else None
    think = think if think is not None else usage.get("reasoning_tokens")
    guessed = think is None and bool(reasoning)
    if think is None:
        think = estimate_tokens(reasoning) if reasoning else 0
    return (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0), int(think),
            False, guessed)


class LLMAgent(Agent):
    """One model in one seat of one game at a time; start() begins a fresh conversation.

    Concurrent games need one agent each (``make_agent`` per game): the
    conversation is per game, while the HTTP client is reused across games.
    """

    def __init__(self, settings: EndpointSettings, *, on_stream: StreamHook | None = None,
                 log_prompts: bool = False, sleep: Sleep = asyncio.sleep) -> None:
        self.settings = settings
        self.spec = f"llm:{settings.model}"
        self.on_stream = on_stream
        self.log_prompts = log_prompts
        self.client = ChatClient(settings, agent_rng(0, 0, "llm-backoff"), sleep)
        self._matchers: dict[str, CardMatcher] = {}

    def __repr__(self) -> str:
        return f"LLMAgent({self.spec!r}, {self.settings.public()['base_url']!r})"

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.builder = PromptBuilder(ctx.pack, ctx.lang, ctx.seat)
        if ctx.pack.hash not in self._matchers:
            self._matchers[ctx.pack.hash] = CardMatcher(ctx.pack)
        self.matcher = self._matchers[ctx.pack.hash]
        self.system = self.builder.system()
        self.history: list[TurnLog] = []
        self.fallback_card: str | None = None
        self.client.rng = agent_rng(ctx.game_seed, ctx.seat, "llm-backoff")

    def describe(self) -> dict[str, Any]:
        out = {"spec": self.spec, **self.settings.public()}
        if hasattr(self, "builder"):
            out["prompt_version"] = self.builder.version
        return out

    async def aclose(self) -> None:
        await self.client.aclose()

    async def decide(self, obs: TcgObservation, events: list[Event]) -> Decision:
        started = time.perf_counter()
        s = self.settings
        current = [self.builder.turn(obs, events, self.fallback_card)]
        self.fallback_card = None
        messages = fit_history(self.system, self.history, current, s.history_tokens)
        attempts: list[dict[str, Any]] = []
        totals = {"prompt_tokens": 0, "completion_tokens": 0, "reasoning_tokens": 0}
        estimated = reasoning_estimated = False
        faults: list[str] = []
        move: str | None = None
        path = NONE
        for attempt in range(s.invalid_retries + 1):
            done = await self.client.complete(messages, self.on_stream, first_request=len(attempts) +
                                              len(faults) + 1)
            faults.extend(done.faults)
            answer, think = split_reasoning(done.content)
            reasoning = "\n".join(r for r in (done.reasoning.strip(), think) if r)
            counts = _usage_counts(done, messages, answer, reasoning)
            for key, value in zip(totals, counts):
                totals[key] += value
            estimated |= counts[3]
            reasoning_estimated |= counts[4]
            parsed = parse_answer(answer, self.matcher, s.parse)
            error = parsed.error
            if parsed.card is not None and parsed.card not in obs.legal_moves:
                error = "not_in_hand"
            attempts.append({"reply": clip(answer), "reasoning": clip(reasoning), "move": parsed.card,
                             "parse_path": parsed.path, "error": error,
                             "latency_s": round(done.latency_s, 6), "finish_reason": done.finish_reason,
                             **({"reply_chars": len(answer)} if len(answer) > RECORD_CHARS else {}),
                             **({"reasoning_chars": len(reasoning)} if len(reasoning) > RECORD_CHARS else {})})
            reply: Message = {"role": "assistant", "content": clip(answer, HISTORY_REPLY_CHARS)}
            messages.append(reply)
            current.append(reply)
            if error is None:
                move, path = parsed.card, parsed.path
                break
            left = s.invalid_retries - attempt
            if left > 0:
                why = self.builder.reason(error, parsed.text, parsed.card)
                nudge = self.builder.invalid(why, obs, left)
                messages.append(nudge)
                current.append(nudge)
        fallback = None
        if move is None:
            fallback = s.fallback
            if fallback == "random":
                move = self.rng.choice(list(obs.legal_moves))
                self.fallback_card = move
        self.history.append(TurnLog(current, sum(message_tokens(m) for m in current)))
        info: dict[str, Any] = {
            "prompt_version": self.builder.version, "model": s.model,
            "latency_s": round(time.perf_counter() - started, 6), **totals,
            "tokens_estimated": estimated, "reasoning_estimated": reasoning_estimated,
            "retries": len(faults), "faults": faults,
            "invalid": sum(1 for a in attempts if a["error"] is not None),
            "fallback": fallback, "parse_path": path, "attempts": attempts,
        }
        if self.log_prompts:
            info["messages"] = messages
        if move is None:
            return Decision("", info, forfeit=True)
        return Decision(move, info)


def build(spec: AgentSpec, options: dict[str, Any]) -> LLMAgent:
    """The registry's builder: settings from options and the environment, validated."""
    settings = settings_from_options(spec.model, options)
    on_stream: Callable[[str, str], None] | None = options.get("on_stream")
    return LLMAgent(settings, on_stream=on_stream, log_prompts=bool(options.get("log_prompts")),
                    sleep=options.get("sleep") or asyncio.sleep)
