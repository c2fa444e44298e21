"""What a game gives the LLM player: its text builders and the reader of a reply.

The loop that talks to a model (client, retries, reasoning stripping, token
counts, streaming, history budget, re-prompts, fallback) is the same for
every game and lives in ``opponents.llm``; a game supplies only a
``Prompter``, built from a locale catalog handed in (the engine does no I/O).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

Message = dict[str, Any]  # {"role": ..., "content": str or a list of parts (text, image_url)}
NO_PARSE = "none"  # ``Parsed.path`` when the reply named no move
# What the LLM player does when no move was read (--fallback): a random legal move or a forfeit.  Its
# decisions record which; the store counts each (``tcgtui.store.facts``) and the report reads them.
FALLBACKS = ("random", "forfeit")


@dataclass(frozen=True)
class Parsed:
    """What a reply named: a move (or None), the path that found it, and why not if none.

    ``error`` is an invalid-move kind the game's rules or the player's re-prompt
    understand (e.g. ``format``, ``out_of_bounds``, ``taken`` for grid games;
    ``no_tags``, ``unknown``... for the card game).
    """

    move: Any
    path: str
    error: str | None = None
    text: str = ""  # the part of the reply read as the move, quoted back in feedback


class Prompter(Protocol):
    """Messages for one seat of one game in one language, and the parser of its replies."""

    version: str  # recorded with every decision: a changed word shows up in the records
    keeps_history: bool  # True: one conversation per game; False: each move is a fresh prompt

    def system(self) -> Message | None:
        """The first message (rules and fixed material), or None."""

    def turn(
        self, obs: Any, events: list[Any], fallback: Any = None, retry: tuple[str, str] | None = None
    ) -> Message | list[Message]:
        """The message for one decision.  ``fallback``: the move played for the model last
        time (its replies were unusable); ``retry``: (previous reply, why it was invalid)
        when the game's rules give the same player another go after an invalid move."""

    def parse(self, answer: str, obs: Any) -> Parsed:
        """Read the move from an answer already free of reasoning; ``error`` set if none."""

    def reason(self, parsed: Parsed) -> str:
        """Why ``parsed`` is not a move, in the prompt's language."""

    def invalid(self, reason: str, obs: Any, left: int) -> Message:
        """The re-prompt after an unusable reply, with ``left`` attempts remaining."""


@runtime_checkable
class SeedRetries(Protocol):
    """A prompter that plays a seed's own player (Eleusis under ``--protocol seed``): it fixes the
    requests per decision, asks again with its ``invalid`` message alone (a reply cut at the token
    limit counting as unusable), and picks its own move when every reply was unusable."""

    attempts: int  # requests per decision, whatever --invalid-retries says
    fresh_retries: bool  # True: a retry is a fresh prompt, not a turn of the conversation

    def fallback_move(self, obs: Any) -> str:
        """The move played for the model after ``attempts`` unusable replies."""


@runtime_checkable
class JudgeFollowUp(Protocol):
    """A prompter whose moves a second model may complete (Eleusis: a tentative rule in words, put into
    the rule language by ``--judge``'s model).  The ``llm:`` agent, and the screen where a person guesses
    in words, ask that model ``follow_up``'s messages and hand its answer to ``complete``."""

    needs_follow_up: bool  # True: the moves need it, and a player without --judge is refused

    def follow_up(self, move: Any) -> list[Message] | None:
        """The second model's messages for ``move``, or None when the move is complete as it is."""

    def complete(self, move: Any, reply: str) -> Any:
        """``move`` with the second model's answer put in."""


class SourceMissing(LookupError):
    """A seed's file the game needs was not given (no ``--upstream``); ``file`` names it."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.file = file


class Compiler(Protocol):
    """How a seed's own translator turns words into code (Eleusis's rule compiler): the prompt, what it
    keeps of a reply, whether that is code, and the seed's bounds on its requests.  The player that
    asks the models is opponents/llm/translator.py, which names no game."""

    @property
    def max_retries(self) -> int: ...  # requests to each model in one cycle
    @property
    def max_total_attempts(self) -> int: ...  # requests in all, across models and cycles
    @property
    def backoff(self) -> tuple[float, float]: ...  # seconds before another cycle of every model: first, most

    def prompt(self, words: str) -> str: ...
    def extract(self, reply: str) -> str: ...
    def accepts(self, code: str) -> bool: ...


@runtime_checkable
class SeedTranslation(Protocol):
    """A prompter whose guesses in words go to a seed's own translator (Eleusis under ``--protocol seed``
    with ``--translator``): the agent makes that translator from ``translator`` and ``compiler()``,
    sends it ``seed_words`` and plays ``with_code``'s move, recording every request with the decision."""

    seed_translation: bool  # True: the game names the seed's translator, and the agent makes one
    translator_missing: bool  # True: guesses in words and no translator named: the player is refused
    translator: str  # the translating models (``--translator llm:A,llm:B``)

    def compiler(self) -> Compiler:
        """The seed's compiler; SourceMissing without its file, a ValueError saying what does not read."""

    def seed_words(self, move: Any) -> str | None:
        """The words the translator turns into code for ``move``, or None (nothing to translate)."""

    def with_code(self, move: Any, code: str | None) -> Any:
        """``move`` with the translator's code (None: it wrote none)."""
