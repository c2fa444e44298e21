"""The puzzle bank: a static benchmark beside the live duels.

One seat solves one puzzle of a fixed bank per game (valid puzzles mined from earlier
duels with ``tcgtui duel mine``): game ``i`` of a bench cell gets puzzle ``i`` (the
bank's ``deal_seed`` is the game index, so ``--games`` equal to the bank's size asks
each puzzle once).  The answer is checked by the referee as in a duel; the score is 1
if solved, else 0.  Without a bank file the built-in puzzles are used.

Under ``--protocol seed`` a bank game is one puzzle as The Token Games'
``mine_puzzles.py`` tests it: its solver prompt (read from the user's checkout), one
reply, its first ``SOLUTION:`` line, any true-looking result solved; an unusable reply
is not asked again (the seed counts it an error: not solved).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from tcgtui.engine.core import Event, Game, GameState, IllegalMove, Outcome
from tcgtui.engine.duel.moves import CODE_LIMIT, VALUE_LIMIT, Proposal, parse_answer, parse_verdict
from tcgtui.engine.duel.seed_wording import REPOSITORY, UTILS, Parts, parts_digest, solver_parts
from tcgtui.engine.duel.state import (
    ANSWER,
    EX,
    FAILURE,
    OVER,
    REFEREE,
    SOLVE,
    SUCCESS,
    UNUSABLE,
    Check,
    DuelObservation,
    Round,
)


def puzzles_from_rows(rows: Any) -> tuple[Proposal, ...]:
    """The bank's puzzles from loaded rows (dicts with ``code`` and ``value``); ValueError names a bad row."""
    out = []
    for number, row in enumerate(rows, 1):
        code, value = (row.get("code"), row.get("value")) if isinstance(row, dict) else (None, None)
        if not (
            isinstance(code, str)
            and isinstance(value, str)
            and code.strip()
            and value.strip()
            and len(code) <= CODE_LIMIT
            and len(value) <= VALUE_LIMIT
        ):
            raise ValueError(f'bank row {number}: expected "code" and "value" strings')
        out.append(Proposal(code, value, ""))
    if not out:
        raise ValueError("the bank has no puzzles")
    return tuple(out)


def rounds_from_rows(rows: Any) -> tuple[int | None, ...]:
    """The round of its duel each puzzle was proposed in, where the bank says it: ``round`` as
    ``tcgtui duel mine`` writes it, else ``file_index`` (0-based) as the seed's ``mine_puzzles.py`` does."""
    out: list[int | None] = []
    for row in rows:
        number, index = row.get("round"), row.get("file_index")
        whole = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
        out.append(number if whole(number) and number >= 1 else index + 1 if whole(index) and index >= 0 else None)
    return tuple(out)


@dataclass
class BankState(GameState[str]):
    puzzle: Proposal
    index: int
    attempts: int
    timeout: float = 5.0
    backend: str = "local"
    phase: str = SOLVE
    invalid: int = 0
    value: str | None = None
    outcome_: str = ""
    verdict: Any = None
    num_seats: int = 1
    protocol: str = "tcgtui"  # seed: the reply read as The Token Games reads it, the result judged as it does
    start_events: list[Event] = field(default_factory=list)

    @property
    def current_player(self) -> int:
        return -1 if self.phase == OVER else REFEREE if self.phase == ANSWER else 0

    @property
    def current(self) -> Round:
        """The puzzle as a duel's round (the solver is seat 0): players read ``current.code``."""
        return Round(1, 1, code=self.puzzle.code)

    def legal_moves(self) -> list[str]:
        return []

    def pending(self) -> Check | None:
        if self.phase != ANSWER:
            return None
        return Check(
            self.puzzle.code,
            self.value or "",
            "answer",
            self.timeout,
            self.backend,
            "seed" if self.protocol == "seed" else "strict",
        )

    def validate(self, move: str) -> str | None:
        if self.phase == OVER:
            return "over"
        ok = parse_answer(move) if self.phase == SOLVE else parse_verdict(move)
        return None if ok is not None else "format"

    def apply(self, move: str) -> list[Event]:
        why = self.validate(move)
        if why is not None:
            raise IllegalMove(f"{move[:80]!r} in the {self.phase} phase: {why}")
        if self.phase == SOLVE:
            self.value = parse_answer(move).value  # type: ignore[union-attr]
            self.phase = ANSWER
            return [Event("answered", 0, {"round": 1, "value": self.value})]
        v = parse_verdict(move)
        assert v is not None
        self.verdict = v
        events = [
            Event(
                "checked",
                -1,
                {"round": 1, "purpose": "answer", "result": v.result, "seconds": v.seconds, "detail": v.detail},
            )
        ]
        return events + self._end(SUCCESS if v.result == "true" else FAILURE + (EX if v.exception else ""))

    def apply_invalid(self, kind: str, text: str) -> list[Event]:
        if self.phase != SOLVE:
            raise IllegalMove(f"no player is asked in the {self.phase} phase")
        self.invalid += 1
        left = self.attempts - self.invalid
        events = [Event("invalid", 0, {"kind": kind, "count": self.invalid, "left": max(left, 0)})]
        return events if left > 0 else events + self._end(FAILURE, UNUSABLE)

    def _end(self, outcome: str, cause: str = "") -> list[Event]:
        self.outcome_, self.phase = outcome, OVER
        return [
            Event(
                "solved" if outcome == SUCCESS else "unsolved",
                0,
                {"puzzle": self.index, "outcome": outcome, "cause": cause},
            )
        ]

    def clone(self) -> BankState:
        return replace(self, start_events=list(self.start_events))

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        return Outcome(None, self.outcome_, (1.0 if self.outcome_ == SUCCESS else 0.0,))

    def observation(self, seat: int) -> DuelObservation:
        return DuelObservation(
            seat,
            1,
            (),
            self.phase,
            0,
            self.puzzle.code if self.phase != OVER else "",
            (),
            (0, 0),
            (0, 0),
            self.attempts - self.invalid if self.phase == SOLVE else 0,
            self.outcome,
            self.protocol,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "code": self.puzzle.code,
            "phase": self.phase,
            "invalid": self.invalid,
            "value": self.value,
            "outcome": self.outcome_,
            "verdict": None if self.verdict is None else self.verdict.text(),
        }


class BankGame(Game[str]):
    """``solver_prompt``: under ``--protocol seed``, the seed's solver prompt read from the user's
    checkout (models need it; ``upstream`` is what the record says of that checkout)."""

    name = "duel-bank"

    def __init__(
        self,
        puzzles: tuple[Proposal, ...],
        source: str = "",
        attempts: int = 3,
        check_timeout: float = 5.0,
        sandbox: str = "local",
        protocol: str = "tcgtui",
        solver_prompt: Parts | None = None,
        upstream: dict[str, str] | None = None,
        rounds: tuple[int | None, ...] = (),
    ) -> None:
        self.puzzles = puzzles
        self.rounds = rounds  # each puzzle's round in the duel it came from, where known
        self.source = source
        self.protocol = protocol
        self.attempts = 1 if protocol == "seed" else attempts  # the seed asks each puzzle once
        self.check_timeout = float(check_timeout)
        self.sandbox = sandbox
        self.solver_prompt = solver_prompt
        self.upstream = dict(upstream or {})

    def new_state(self, seed: int) -> BankState:
        index = seed % len(self.puzzles)
        puzzle = self.puzzles[index]
        origin = self.rounds[index] if index < len(self.rounds) else None
        data = {
            "round": 1,
            "puzzle": index,
            "code": puzzle.code,
            "solution": puzzle.solution,
            **({"from_round": origin} if origin is not None else {}),
        }
        return BankState(
            puzzle,
            index,
            self.attempts,
            self.check_timeout,
            self.sandbox,
            protocol=self.protocol,
            start_events=[Event("puzzle", -1, data, ("solution",))],
        )

    def setup(self) -> dict[str, Any]:
        digest = hashlib.sha256("\n".join(p.text() for p in self.puzzles).encode("utf-8")).hexdigest()[:16]
        setup = {
            "bank": self.source,
            "bank_digest": digest,
            "puzzles": len(self.puzzles),
            "attempts": self.attempts,
            "check_timeout": self.check_timeout,
            "sandbox": self.sandbox,
        }
        if self.protocol == "seed":  # tcgtui's bank runs keep the identity they always had
            setup["protocol"] = self.protocol
            if self.solver_prompt is not None:
                setup.update(upstream=self.upstream, wording=parts_digest(self.solver_prompt))
        return setup

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        for parse in (parse_answer, parse_verdict):
            parsed = parse(text)
            if parsed is not None:
                return parsed.text()
        raise IllegalMove(f"{text[:80]!r} is not a bank move (an answer or a verdict)")

    def resample(self, obs: DuelObservation, rng: Any) -> BankState:
        """The state as the solver sees it; the sample solution stays blank."""
        return BankState(
            Proposal(obs.code, "?"),
            -1,
            self.attempts,
            self.check_timeout,
            self.sandbox,
            obs.phase,
            self.attempts - obs.attempts_left if obs.attempts_left else 0,
            protocol=self.protocol,
        )


def deal_seed(run_seed: int, index: int) -> int:
    """Game ``index`` of a cell solves puzzle ``index`` (modulo the bank's size)."""
    return index


def seed_solver_prompt(params: dict[str, Any]) -> tuple[Parts | None, dict[str, str] | None]:
    """Under ``--protocol seed`` with the user's checkout loaded: the solver prompt ``mine_puzzles.py``
    uses (``llm_utils.promptSolvePuzzle``) and what the record says of the checkout; else nothing."""
    upstream: Any = params.get("upstream")  # duck-typed: the engine imports no app module
    if params.get("protocol") != "seed" or not hasattr(upstream, "text"):
        return None, None
    return solver_parts(lambda path: upstream.text(path, REPOSITORY), UTILS), upstream.describe()
