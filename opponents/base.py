"""What every player implements, whether a program, a model or a person.

An agent sees only its seat's observation and the events it may see; it never
touches the true state.  ``decide`` is a coroutine so a slow agent (a model on
the network, thousands of playouts) never blocks the caller's event loop: CPU
work goes to a thread or process, and cancelling the awaiting task abandons it.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from tcgtui import locales
from tcgtui.engine.core import Event, Game
from tcgtui.errors import OptionError


def check_number(flag: str, value: float | None, lo: float, hi: float | None = None) -> float | None:
    """A finite number from ``lo`` to ``hi`` (no upper limit when ``hi`` is None), else OptionError."""
    if value is None:
        return None
    finite = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if finite and lo <= value and (hi is None or value <= hi):
        return value
    text = locales.load()
    expected = (
        text.t("limits.range", lo=f"{lo:g}", hi=f"{hi:g}")
        if hi is not None
        else text.t("limits.at_least", lo=f"{lo:g}")
    )
    key = "limits.too_small" if finite and value < lo else "limits.number"
    raise OptionError(text.t(key, flag=flag, value=f"{value:g}" if finite else repr(value), expected=expected))


class AgentError(Exception):
    """The agent could not produce a move for reasons outside the game
    (an endpoint that stays down).  The game ends as errored, never as a loss."""


def game_of(ctx: SeatContext, spec: str) -> Game:
    """The game a searching player plays: a runner that starts one without it is at fault."""
    if ctx.game is None:
        raise AgentError(f"{spec} needs the game, and this runner did not hand it over")
    return ctx.game


def refuse_other_rules(spec: str, game: Game) -> None:
    """tcgtui's search plays tcgtui's rules: a protocol with rules of its own (``Game.tcgtui_search``
    false) is refused in one line rather than searched under the wrong rules."""
    if not getattr(game, "tcgtui_search", True):
        raise OptionError(locales.load().t("arena.search_other_rules", spec=spec))


class _ModelRecord(TypedDict):
    """The keys every model decision records (``ModelDecisionInfo``)."""

    prompt_version: str
    model: str
    latency_s: float
    prompt_tokens: int
    completion_tokens: int
    reasoning_tokens: int
    tokens_estimated: bool  # the server gave no usage: counted from the text
    reasoning_estimated: bool
    retries: int  # requests that failed and were sent again
    faults: list[str]  # why each of those failed
    invalid: int  # replies that named no legal move
    fallback: str | None  # how a move was chosen when no reply named one (None: a reply did)
    parse_path: str  # how the reply was read (tcgtui.opponents.llm.parse)
    attempts: list[dict[str, Any]]  # each reply: its text, reasoning, error
    history_turns: int  # earlier turns sent with the prompt
    overflow_retries: int  # times the history was halved to fit the context


class ModelDecisionInfo(_ModelRecord, total=False):
    """What a language model's decision records (``opponents/llm/agent.py`` builds it), kept as the
    decision's ``info_json``; the store copies six of its keys into columns of their own
    (``tcgtui/store/facts.py``'s ``DETAILS``).  The order is the stored JSON's: these last, when there."""

    budget_stopped: bool  # the sweep's budget stopped it after some replies
    follow_up: dict[str, Any]  # a second model's answer completing the move
    messages: list[dict[str, Any]]  # the conversation, with --log-prompts only


@dataclass
class Decision:
    """A chosen move and what the agent wants recorded about choosing it (a model's:
    ``ModelDecisionInfo``; other players record a few keys of their own)."""

    move: str
    info: Mapping[str, Any] = field(default_factory=dict)
    forfeit: bool = False  # the agent gives up (e.g. an LLM past its invalid-move budget)
    # An unusable reply in a game whose rules count invalid moves (GameInfo.invalid == "rules"):
    # its kind (e.g. "format", "taken") and the raw text; the match loop hands both to the game.
    invalid: str | None = None
    raw: str = ""


@dataclass(frozen=True)
class SeatContext:
    """What an agent is told when a game starts: its seat, the game (rules and
    setup, never the state) and the language it is addressed in."""

    seat: int
    game_seed: int
    lang: str = "en"
    game: Game | None = None  # the game, without its secrets (Game.public)
    options: dict[str, Any] = field(default_factory=dict)  # game-level settings for players (prompt style)


def agent_rng(game_seed: int, seat: int, salt: str = "agent") -> random.Random:
    """An agent's own RNG, fixed by the game seed and seat so games replay exactly."""
    return random.Random(f"{salt}:{game_seed}:{seat}")


class Agent(ABC):
    spec: str = ""
    # The one sanctioned exception to "observations only": an omniscient agent
    # (mc:K:peek, the public engine's cheat, kept for comparison) is handed a
    # clone of the true state through ``see_state`` just before each decision.
    omniscient: bool = False

    def start(self, ctx: SeatContext) -> None:
        """Called once per game before the first decision."""
        self.ctx = ctx
        self.rng = agent_rng(ctx.game_seed, ctx.seat)

    def begin_turn(self, turn: int) -> None:
        """Reseed from (game seed, seat, turn) before each decision: a decision then
        depends only on its position, so a game resumed mid-way goes on exactly as
        an uninterrupted one would."""
        self.rng = agent_rng(self.ctx.game_seed, self.ctx.seat, f"turn{turn}")

    @abstractmethod
    async def decide(self, obs: Any, events: list[Event]) -> Decision:
        """Pick one of ``obs.legal_moves``; ``events`` is what happened since its last move."""

    def see_state(self, state: Any) -> None:
        """Only called when ``omniscient`` is set: a clone of the true state."""

    def describe(self) -> dict[str, Any]:
        """Everything a record needs to say which player this was."""
        return {"spec": self.spec}

    async def aclose(self) -> None:
        """Release connections or workers."""
