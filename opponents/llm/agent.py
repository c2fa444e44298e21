"""``llm:MODEL``: a language model plays any registered game through an OpenAI-compatible endpoint.

The loop is the same for every game; what the model reads and how its reply
is read is the game's ``Prompter`` (``engine.prompting``), got from the
registry with the seat's language and prompt style
(``SeatContext.options["prompt_style"]``, default the game's first style).
Each decision sends the conversation (the prompter's first message, recent
turns within ``history_tokens`` and within the model's context with room for
the reply, this turn's message; only this turn's when the prompter has
``keeps_history = False``), sets any reasoning apart, and
hands the answer to ``Prompter.parse``.  What happens to an unusable reply
depends on the game (``GameInfo.invalid``):

- ``agent`` (the card game): re-prompt with the reason up to ``invalid_retries``
  times within the decision, then play a random legal move from the agent's
  seeded RNG (told to the model next turn) or forfeit.  A prompter that plays a seed's own player
  (``engine.prompting.SeedRetries``: Eleusis under ``--protocol seed``) sets the requests per
  decision, asks again with a fresh prompt and picks its own fallback move, whatever ``fallback`` says.
- ``rules`` (grid games): one request per decision; an unusable reply is
  returned as ``Decision("", info, invalid=<kind>, raw=<reply>)`` for the game's
  rules to count (``GameState.apply_invalid``), and the next decision's prompt
  quotes that reply and the reason (``Prompter.turn(..., retry=(reply, reason))``).

An endpoint that stays down raises ``AgentError``: the game is errored, never lost.

``Decision.info`` (stored by bench, read by report) has the same keys in every game:

- ``prompt_version``: the prompter's version (the card game: ``v<N>-<lang>-<hash of the
  templates>``); ``model``: the model name sent.
- ``latency_s``: wall time of the whole decision, retries and re-prompts included.
- ``prompt_tokens``, ``completion_tokens``, ``reasoning_tokens``: summed over the
  requests that got a reply, from ``usage``; ``tokens_estimated`` is true when
  some reply had no ``usage`` and its counts were estimated from text (an image part
  counts as ``prompts.IMAGE_TOKENS``); ``reasoning_estimated`` when ``usage`` gave no
  reasoning count but reasoning text came.
- ``retries``: endpoint faults retried; ``faults``: their kinds (``http_429``, ``timeout``...).
- ``invalid``: attempts that gave no legal move; ``fallback``: None, "random" or "forfeit"
  (always None where the rules count invalid moves: the kind is ``Decision.invalid``).
- ``parse_path``: how the played move was read (the card game: "tags", "last_name"), or
  "none" (fallback, or an invalid reply the rules count).
- ``attempts``: one per reply: ``reply`` (the answer, reasoning removed), ``reasoning``,
  ``move`` (the move as text, or None), ``parse_path``, ``error`` (None, or the game's kind:
  no_tags, no_name, unknown, ambiguous, not_in_hand, empty for the card game; format,
  out_of_bounds, taken... for grid games), ``latency_s``, ``finish_reason``; texts over
  64k characters keep their head and tail, with ``reply_chars``/``reasoning_chars`` the full length.
- ``history_turns``: earlier turns sent with this one (within ``history_tokens`` and the model's
  context, ``context.py``); ``overflow_retries``: times the server said the prompt did not fit
  its context and the turn was asked again with the older half of the history dropped.
- ``messages``: the whole conversation of the decision, only with ``log_prompts=True``.

Options (``make_agent("llm:MODEL", **options)``): the endpoint settings of
``opponents.llm.endpoint``, plus ``on_stream(kind, text)`` (kind "attempt",
"reasoning" or "answer"), ``log_prompts``, ``sleep`` (the backoff's sleep) and
``models`` (the ``--models`` file, else ``TCGTUI_MODELS``, else the config
directory's): ``llm:NAME`` plays the models.toml entry NAME, whose endpoint and
sampling settings replace the flags' (``tcgtui.opponents.llm.model_registry``).

A player's key (``LLMAgent.spec``, what games and reports are keyed by) is
``llm:NAME@HASH`` for an entry and ``llm:MODEL@HASH`` for a model whose settings
differ from the defaults, HASH being ``settings_hash``: two settings of one model
are never pooled.  ``llm:MODEL`` with default settings keeps its plain key, as
stores made before the registry have it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable
from typing import Any

from tcgtui import locales
from tcgtui.engine import registry
from tcgtui.engine.core import Event
from tcgtui.engine.prompting import NO_PARSE, JudgeFollowUp, Parsed, Prompter, SeedRetries, SeedTranslation
from tcgtui.errors import OptionError
from tcgtui.opponents.base import Agent, Decision, ModelDecisionInfo, SeatContext, agent_rng, game_of
from tcgtui.opponents.llm.client import ChatClient, ContextOverflow, Sleep, StreamHook
from tcgtui.opponents.llm.context import ContextFit
from tcgtui.opponents.llm.endpoint import EndpointSettings, settings_from_options
from tcgtui.opponents.llm.followup import FollowUp, judge_settings, judge_temperature
from tcgtui.opponents.llm.model_registry import cached
from tcgtui.opponents.llm.prompts import Message, TurnLog, conversation, keep_turns, message_tokens
from tcgtui.opponents.llm.reasoning import split_reasoning
from tcgtui.opponents.llm.spend import BudgetSpent
from tcgtui.opponents.llm.translator import SeedTranslator, seed_translator
from tcgtui.opponents.spec import AgentSpec

RECORD_CHARS = 64_000  # per text field of an attempt in the record
HISTORY_REPLY_CHARS = 2_000  # of a past answer kept in the conversation (its end holds the move)
ILLEGAL = "illegal"  # a move the prompter read but the observation does not list


def clip(text: str, limit: int = RECORD_CHARS) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return text[:half] + "…" + text[-half:]


class LLMAgent(Agent):
    """One model in one seat of one game at a time; start() begins a fresh conversation.

    Concurrent games need one agent each (``make_agent`` per game): the
    conversation is per game, while the HTTP client is reused across games.
    """

    def __init__(
        self,
        settings: EndpointSettings,
        *,
        on_stream: StreamHook | None = None,
        log_prompts: bool = False,
        sleep: Sleep = asyncio.sleep,
        judge: EndpointSettings | None = None,
        judge_options: dict[str, Any] | None = None,
    ) -> None:
        self.settings = settings
        self.judge = judge
        self.judge_options = judge_options or {}  # to set the judge's temperature by the game's protocol
        self.translator = FollowUp(judge, sleep) if judge is not None else None
        self.seed_translator: SeedTranslator | None = None  # a seed's own translator, set by start()
        self.spec = player_key(settings, judge)
        self.on_stream = on_stream
        self.log_prompts = log_prompts
        self.client = ChatClient(settings, agent_rng(0, 0, "llm-backoff"), sleep)
        self.fit = ContextFit(
            settings.base_url, settings.model, settings.context_length, settings.max_tokens, self.client.get_json
        )

    def __repr__(self) -> str:
        return f"LLMAgent({self.spec!r}, {self.settings.public()['base_url']!r})"

    def start(self, ctx: SeatContext) -> None:
        super().start(ctx)
        self.game = game = game_of(ctx, self.spec)
        self.prompter, self.style, self.rules_count_invalid = make_prompter(ctx, self.settings.parse)
        if hasattr(self.prompter, "model"):  # a seed's prompt that depends on the model's name (TCG-Bench's Qwen3)
            self.prompter.model = self.settings.model
        self.system = self.prompter.system()
        self.history: list[TurnLog] = []
        self.fallback_move: Any = None
        self.retry: tuple[str, str] | None = None
        self.client.rng = agent_rng(ctx.game_seed, ctx.seat, "llm-backoff")
        protocol = str(getattr(ctx.game, "protocol", "tcgtui"))
        if self.judge is not None and self.judge.temperature != judge_temperature(self.judge_options, protocol):
            self.judge = judge = judge_settings(self.judge_options, protocol)
            assert judge is not None  # the options that made the judge make it again
            self.translator = FollowUp(judge, self.translator.sleep if self.translator else asyncio.sleep)
        p = self.prompter
        if isinstance(p, SeedTranslation) and p.translator_missing:
            raise OptionError(locales.load().t("llm_options.translator_needed"))
        if isinstance(p, JudgeFollowUp) and p.needs_follow_up and self.translator is None:
            raise OptionError(locales.load().t("llm_options.judge_needed", game=game.name))
        # a seed's own translator (translator.py), one for the agent's games: it keeps what it translated
        if isinstance(p, SeedTranslation) and p.seed_translation and self.seed_translator is None:
            self.seed_translator = seed_translator(
                {**self.judge_options, "translator": p.translator}, p.compiler, self.client.sleep
            )

    def describe(self) -> dict[str, Any]:
        s = self.settings
        facts = {k: s.facts.get(k) for k in ("family", "organisation", "parameters_b", "weights")}
        if s.facts.get("mode"):
            facts["mode"] = s.facts["mode"]
        out = {
            "spec": self.spec,
            **s.public(),
            "entry": s.entry,
            "settings_hash": settings_hash(s, self.judge),
            "facts": facts,
            "prices": {k: s.prices.get(k) for k in ("input", "output", "reasoning")},
        }
        if self.judge is not None:
            out["judge"] = self.judge.public()
        if hasattr(self, "prompter"):
            out["prompt_version"] = self.prompter.version
            if len(self.game.spec.info.prompt_styles) > 1:
                out["prompt_style"] = self.style  # only where there is a choice
        return out

    async def aclose(self) -> None:
        await self.client.aclose()
        if self.translator is not None:
            await self.translator.aclose()
        if self.seed_translator is not None:
            await self.seed_translator.aclose()

    async def _follow_up(self, p: Prompter, move: Any) -> tuple[Any, dict[str, Any] | None]:
        """A move some games complete with a second model's answer (Eleusis: free text translated into
        code by the seed's translator, ``SeedTranslation``, else by the ``judge``, ``JudgeFollowUp``;
        ``followup.py``, shared with the screen where a person guesses in words)."""
        if self.seed_translator is not None and isinstance(p, SeedTranslation):
            words = p.seed_words(move)
            if words is not None:  # the seed's translator: its code, and every request it took, go with the move
                found = await self.seed_translator.translate(words) if words.strip() else None
                return p.with_code(move, found.code if found else None), {
                    "seed_translation": found.to_json()
                    if found
                    else {"words": words, "code": None, "status": "no_words"}
                }
        if self.translator is None:
            return move, None
        move, info = await self.translator.complete(p, move)
        if info is not None:
            info["reply"] = clip(info["reply"])
        return move, info

    async def _too_long(self, messages: list[Message], exc: ContextOverflow) -> str:
        """What to say when a prompt without any earlier turn still overflows the context."""
        text = locales.load()
        prompt = exc.prompt_tokens or await self.fit.count(messages)
        size = exc.size or self.fit.n_ctx
        where = f"{self.settings.model} at {self.settings.public()['base_url']}"
        if size is None:
            return text.t("llm_options.context.overflow_unknown", where=where, prompt=prompt)
        return text.t("llm_options.context.overflow", where=where, prompt=prompt, context=size, reply=self.fit.reserve)

    async def check_fits(self, obs: Any) -> None:
        """Refuse, in one line, a game whose first message and first turn cannot fit the model's context
        with room for the reply: every turn of it would overflow.  Call after ``start``.

        Where the server has a tokenizer but does not say its context (llama-cpp-python), one request
        padded to what the game needs, with a one-token reply, asks it: a server that is too small says
        how big it is."""
        await self.fit.learn()
        turn = self.prompter.turn(obs, [], None, None)
        messages = conversation(self.system, [], list(turn) if isinstance(turn, list) else [turn])
        prompt = await self.fit.count(messages)
        need = prompt + self.fit.reserve
        if self.fit.n_ctx is None and self.fit.counted_by == "tokenizer":
            try:
                await self.client.probe(messages + [await self._filler(need - prompt)])
            except ContextOverflow as exc:
                self.fit.overflowed(exc.size)
        if self.fit.n_ctx is not None and need > self.fit.n_ctx:
            raise OptionError(
                locales.load().t(
                    "llm_options.context.too_small",
                    game=self.game.name,
                    lang=self.ctx.lang,
                    need=need,
                    prompt=prompt,
                    reply=self.fit.reserve,
                    context=self.fit.n_ctx,
                    model=self.settings.model,
                    url=self.settings.public()["base_url"],
                )
            )

    async def _filler(self, tokens: int) -> Message:
        """A user message of about ``tokens`` tokens (counted by the server's tokenizer)."""
        unit = " 0"
        per = (
            max(
                1,
                await self.fit.count([{"role": "user", "content": unit * 100}], scaled=False)
                - await self.fit.count([{"role": "user", "content": ""}], scaled=False),
            )
            / 100
        )
        return {"role": "user", "content": unit * max(1, int(tokens / per) + 1)}

    def _move_text(self, move: Any) -> Any:
        if move is None or isinstance(move, str):
            return move
        try:
            return self.game.move_to_text(move)
        except Exception:  # a game that cannot name it: its repr still tells what it was
            return repr(move)

    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        started = time.perf_counter()
        s = self.settings
        p = self.prompter
        turn = p.turn(obs, events, self.fallback_move, self.retry)
        current: list[Message] = list(turn) if isinstance(turn, list) else [turn]
        self.fallback_move = None
        self.retry = None
        history = self.history if p.keeps_history else []
        kept = keep_turns(self.system, history, current, s.history_tokens)
        await self.fit.learn()
        kept = await self.fit.keep(self.system, kept, current)
        attempts: list[dict[str, Any]] = []
        totals = {"prompt_tokens": 0, "completion_tokens": 0, "reasoning_tokens": 0}
        estimated = reasoning_estimated = False
        faults: list[str] = []
        shrunk = 0
        move: Any = None
        path = NO_PARSE
        parsed: Parsed | None = None
        answer = ""
        # A prompter that plays a seed's player (SeedRetries) fixes its requests per turn, may ask again
        # with a fresh prompt rather than in conversation, and picks its own fallback move.
        seed = p if isinstance(p, SeedRetries) else None
        fresh = seed is not None and seed.fresh_retries
        tries = 1 if self.rules_count_invalid else seed.attempts if seed is not None else s.invalid_retries + 1
        budget_stopped = False
        for attempt in range(tries):
            while True:
                messages = conversation(self.system, kept, current)
                try:
                    done = await self.client.complete(
                        messages, self.on_stream, first_request=len(attempts) + len(faults) + shrunk + 1
                    )
                    break
                except BudgetSpent:
                    if not attempts:
                        raise  # nothing spent on this decision: the game stops here
                    budget_stopped = True  # its replies so far are recorded with it (spent is spent)
                    break
                except ContextOverflow as exc:
                    if not kept:
                        raise ContextOverflow(
                            await self._too_long(messages, exc), exc.size, exc.prompt_tokens
                        ) from None
                    self.fit.overflowed(exc.size)
                    kept = await self.fit.keep(self.system, kept[(len(kept) + 1) // 2 :], current)
                    shrunk += 1  # the older half of the history goes, and the turn is asked again
            if budget_stopped:
                break
            faults.extend(done.faults)
            answer, think = split_reasoning(done.content)
            reasoning = "\n".join(r for r in (done.reasoning.strip(), think) if r)
            counts = done.counts
            for key, value in zip(totals, counts):
                totals[key] += value
            estimated |= counts[3]
            reasoning_estimated |= counts[4]
            if not counts[3]:
                self.fit.observe(await self.fit.count(messages, scaled=False), counts[0])
            parsed = p.parse(answer, obs)
            if fresh and done.finish_reason == "length":  # a cut reply is not read, only asked again
                parsed = Parsed(None, parsed.path, "truncated", parsed.text)
            if parsed.error is None and obs.legal_moves and listed(p, parsed.move) not in obs.legal_moves:
                parsed = Parsed(parsed.move, parsed.path, ILLEGAL, parsed.text)
            error = parsed.error
            attempts.append(
                {
                    "reply": clip(answer),
                    "reasoning": clip(reasoning),
                    "move": self._move_text(parsed.move),
                    "parse_path": parsed.path,
                    "error": error,
                    "latency_s": round(done.latency_s, 6),
                    "finish_reason": done.finish_reason,
                    **({"reply_chars": len(answer)} if len(answer) > RECORD_CHARS else {}),
                    **({"reasoning_chars": len(reasoning)} if len(reasoning) > RECORD_CHARS else {}),
                }
            )
            reply: Message = {"role": "assistant", "content": clip(answer, HISTORY_REPLY_CHARS)}
            current.append(reply)
            if error is None:
                move, path = parsed.move, parsed.path
                break
            left = tries - 1 - attempt
            if left > 0 and fresh:
                current = [p.invalid(p.reason(parsed), obs, left)]
            elif left > 0:
                current.append(p.invalid(p.reason(parsed), obs, left))
        fallback = None
        invalid_kind: str | None = None
        if move is None:
            assert parsed is not None and parsed.error is not None
            if self.rules_count_invalid:
                invalid_kind = parsed.error
                self.retry = (answer, p.reason(parsed))
            else:
                fallback = "random" if seed is not None else s.fallback
                if fallback == "random":
                    move = seed.fallback_move(obs) if seed is not None else self.rng.choice(list(obs.legal_moves))
                    self.fallback_move = move
        follow = None
        if move is not None and fallback is None:
            move, follow = await self._follow_up(p, move)
        if p.keeps_history:
            self.history.append(TurnLog(current, sum(message_tokens(m) for m in current)))
        info: ModelDecisionInfo = {
            "prompt_version": p.version,
            "model": s.model,
            "latency_s": round(time.perf_counter() - started, 6),
            "prompt_tokens": totals["prompt_tokens"],
            "completion_tokens": totals["completion_tokens"],
            "reasoning_tokens": totals["reasoning_tokens"],
            "tokens_estimated": estimated,
            "reasoning_estimated": reasoning_estimated,
            "retries": len(faults),
            "faults": faults,
            "invalid": sum(1 for a in attempts if a["error"] is not None),
            "fallback": fallback,
            "parse_path": path,
            "attempts": attempts,
            "history_turns": len(kept),
            "overflow_retries": shrunk,
        }
        if budget_stopped:
            info["budget_stopped"] = True
        if follow is not None:
            info["follow_up"] = follow
        if self.log_prompts:
            info["messages"] = conversation(self.system, kept, current)
        if invalid_kind is not None:
            return Decision("", info, invalid=invalid_kind, raw=answer)
        if move is None:
            return Decision("", info, forfeit=True)
        return Decision(move, info)


def listed(p: Prompter, move: Any) -> Any:
    """The choice of ``obs.legal_moves`` a parsed move makes (games whose moves carry more than the
    listed choice, like an Eleusis card with its tentative rule, say which through ``choice``)."""
    choice = getattr(p, "choice", None)
    return move if choice is None or move is None else choice(move)


def make_prompter(ctx: SeatContext, parse_mode: str | None = None) -> tuple[Prompter, str | None, bool]:
    """``(prompter, style, rules count invalid moves)`` for the game of ``ctx``, in its language.

    The style is ``ctx.options["prompt_style"]``, else the game's first style.
    """
    game = ctx.game
    if game is None:
        raise OptionError("llm: players need the game they play (SeatContext.game)")
    spec = game.spec
    if spec.prompter is None:
        raise OptionError(f"llm: players cannot play {game.name}: it has no prompts")
    styles = spec.info.prompt_styles
    style = ctx.options.get("prompt_style") or (styles[0] if styles else None)
    if styles and style not in styles:
        raise OptionError(
            f"--prompt-style: {style!r} is not a prompt style of {game.name}; expected one of {', '.join(styles)}"
        )
    try:
        prompter = spec.prompter(game, locales.load(ctx.lang), ctx.seat, style)
    except ValueError as exc:  # the game's setup cannot be prompted (a protocol's missing text)
        raise OptionError(str(exc)) from None
    if parse_mode is not None and hasattr(prompter, "parse_mode"):
        prompter.parse_mode = parse_mode
    return prompter, style, spec.info.invalid == registry.RULES


HASHED = re.compile(r"^(.+)@([0-9a-f]{8})$")


def settings_hash(settings: EndpointSettings, judge: EndpointSettings | None = None) -> str:
    """Eight hex digits of what changes the player's results: its settings' and its judge's."""
    if judge is None:
        return settings.settings_hash()
    both = json.dumps([settings.behaviour(), judge.behaviour()], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(both.encode()).hexdigest()[:8]


def player_key(settings: EndpointSettings, judge: EndpointSettings | None = None) -> str:
    """``llm:NAME@HASH`` (an entry), ``llm:MODEL@HASH`` (settings not the defaults) or ``llm:MODEL``."""
    digest = settings_hash(settings, judge)
    plain = settings_hash(
        EndpointSettings(settings.model, ""),
        None if judge is None else EndpointSettings(judge.model, "", temperature=0.0),
    )
    if settings.entry is None and digest == plain:
        return f"llm:{settings.model}"
    return f"llm:{settings.entry or settings.model}@{digest}"


def resolve(spec: AgentSpec, options: dict[str, Any]) -> tuple[EndpointSettings, EndpointSettings | None]:
    """The settings and judge ``llm:NAME`` (an entry), ``llm:MODEL`` or a key ``...@HASH`` stands for.

    A key's hash must still be its settings' (a models.toml edited during a run is refused)."""
    name, wanted = spec.model, None
    if (m := HASHED.match(name)) is not None:
        name, wanted = m.group(1), m.group(2)
    entry = cached(options.get("models")).get(name)
    if entry is not None:
        options = {**options, **entry.options()}
    settings = settings_from_options(entry.model if entry is not None else name, options)
    judge = judge_settings(options)
    if wanted is not None and settings_hash(settings, judge) != wanted:
        raise OptionError(locales.load().t("models.hash_changed", spec=str(spec), now=settings_hash(settings, judge)))
    return settings, judge


def build(spec: AgentSpec, options: dict[str, Any]) -> LLMAgent:
    """The registry's builder: settings from a models.toml entry or the options, and the environment."""
    settings, judge = resolve(spec, options)
    on_stream: Callable[[str, str], None] | None = options.get("on_stream")
    return LLMAgent(
        settings,
        on_stream=on_stream,
        log_prompts=bool(options.get("log_prompts")),
        sleep=options.get("sleep") or asyncio.sleep,
        judge=judge,
        judge_options=options,
    )
