"""A puzzle duel in progress: rounds of propose, check the sample, solve, check the answer.

The engine runs no code.  After a proposal and after an answer the state holds a
pending check (``pending()``: the code and the value to try); nobody may move until
the referee's verdict is applied as a move (OpenSpiel's chance node, with the
outcome supplied from outside).  The record keeps every verdict, so a replay
never runs code again.  The current player meanwhile is ``REFEREE``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tcgtui.engine.core import Event, GameState, IllegalMove, Outcome
from tcgtui.engine.duel.moves import (
    Answer,
    Proposal,
    Verdict,
    parse_answer,
    parse_proposal,
    parse_time_up,
    parse_verdict,
)

REFEREE = -2  # current_player while a check is pending
PROPOSE, SAMPLE, SOLVE, ANSWER, OVER = "propose", "sample", "solve", "answer", "over"
SUCCESS, FAILURE, PUZZLE_WRONG = "success", "failure", "puzzle-wrong"
EX = "-ex"  # suffix when an exception or a timeout caused the outcome
OUTCOMES = (SUCCESS, FAILURE, FAILURE + EX, PUZZLE_WRONG, PUZZLE_WRONG + EX)
UNUSABLE = "unusable"  # cause of a round scored because the attempts ran out
SEED_TRIES = 4  # --protocol seed: a round is played at most this often, then the duel stops
GAVE_UP = "gave_up"  # the outcome's reason when the seed's tries ran out
TIME_UP = "time"  # cause of a failure because the solver's time ran out with no answer


@dataclass(frozen=True)
class Check:
    """What the referee must run: ``mystery(value)`` for this code (``purpose``: sample or answer)."""

    code: str
    value: str
    purpose: str
    timeout: float = 5.0  # seconds the check may take, start-up included (a rule of the game)
    backend: str = "local"  # where the referee runs it: local (an isolated interpreter) or docker
    judge: str = "strict"  # strict: only True solves; seed: any true-looking result (The Token Games)

    def settle(self, result: str, seconds: float, detail: str = "") -> str:
        """The referee's move for this check's verdict."""
        return Verdict(result, seconds, detail).text()


@dataclass(frozen=True)
class Round:
    """One finished (or running) round, as the state keeps it."""

    number: int  # 1-based
    proposer: int
    code: str = ""
    solution: str = ""
    explanation: str = ""
    value: str | None = None  # the solver's answer, if asked
    sample: Verdict | None = None
    answer: Verdict | None = None
    outcome: str = ""
    cause: str = ""  # UNUSABLE when attempts ran out

    @property
    def solver(self) -> int:
        return 1 - self.proposer

    def seen_by(self, seat: int) -> Round:
        """The round as ``seat`` may see it: the opponent's explanation and sample are hidden."""
        return self if seat == self.proposer else replace(self, solution="", explanation="")


@dataclass(frozen=True)
class DuelObservation:
    seat: int
    turn: int  # the round, from 1
    legal_moves: tuple[str, ...]  # always empty: moves are text
    phase: str
    rounds: int
    code: str  # the puzzle to solve (solve phase), else ""
    history: tuple[Round, ...]  # finished rounds, as this seat may see them
    wins: tuple[int, int]
    penalties: tuple[int, int]
    attempts_left: int
    outcome: Outcome | None
    protocol: str = "tcgtui"  # seed: the solver's answer is its first SOLUTION: line, an unusable reply reruns

    @property
    def role(self) -> str:
        return {PROPOSE: "proposer", SOLVE: "solver"}.get(self.phase, "")


@dataclass
class DuelState(GameState[str]):
    rounds: int
    attempts: int
    history: list[Round] = field(default_factory=list)
    current: Round | None = None
    phase: str = PROPOSE
    invalid: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0])
    timeout: float = 5.0
    backend: str = "local"
    solve_time: float = 0.0  # seconds a solver has (0: no limit); the clock is the player's screen
    num_seats: int = 2
    protocol: str = "tcgtui"  # seed: an unusable reply reruns the round (SEED_TRIES), as The Token Games does
    reruns: int = 0  # --protocol seed: reruns of the current round so far
    gave_up: bool = False  # --protocol seed: the round failed SEED_TRIES times and the duel stopped

    def __post_init__(self) -> None:
        if self.current is None and self.phase == PROPOSE:
            self.current = Round(1, 0)

    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return -1
        if self.phase in (SAMPLE, ANSWER):
            return REFEREE
        assert self.current is not None
        return self.current.proposer if self.phase == PROPOSE else self.current.solver

    def legal_moves(self) -> list[str]:
        return []

    def pending(self) -> Check | None:
        judge = "seed" if self.protocol == "seed" else "strict"
        if self.phase not in (SAMPLE, ANSWER):
            return None
        cur = self.current
        assert cur is not None  # a round runs in these phases
        if self.phase == SAMPLE:
            return Check(cur.code, cur.solution, "sample", self.timeout, self.backend, judge)
        return Check(cur.code, cur.value or "", "answer", self.timeout, self.backend, judge)

    def validate(self, move: str) -> str | None:
        if self.phase == OVER:
            return "over"
        if self.phase == SOLVE and parse_time_up(move) is not None:
            return None if self.solve_time > 0 else "no time limit"
        parse = {PROPOSE: parse_proposal, SOLVE: parse_answer}.get(self.phase, parse_verdict)
        return None if parse(move) is not None else "format"

    def apply(self, move: str) -> list[Event]:
        why = self.validate(move)
        if why is not None:
            raise IllegalMove(f"{move[:80]!r} in the {self.phase} phase: {why}")
        cur = self.current
        assert cur is not None
        self.invalid = 0
        if self.phase == PROPOSE:
            p: Proposal = parse_proposal(move)  # type: ignore[assignment]
            self.current = replace(cur, code=p.code, solution=p.solution, explanation=p.explanation)
            self.phase = SAMPLE
            return [
                Event(
                    "proposed",
                    cur.proposer,
                    {"round": cur.number, "code": p.code, "solution": p.solution, "explanation": p.explanation},
                    ("solution", "explanation"),
                )
            ]
        if self.phase == SOLVE and parse_time_up(move) is not None:
            return [Event("time_up", cur.solver, {"round": cur.number})] + self._score(FAILURE, TIME_UP)
        if self.phase == SOLVE:
            a: Answer = parse_answer(move)  # type: ignore[assignment]
            self.current = replace(cur, value=a.value)
            self.phase = ANSWER
            return [Event("answered", cur.solver, {"round": cur.number, "value": a.value})]
        v: Verdict = parse_verdict(move)  # type: ignore[assignment]
        purpose = "sample" if self.phase == SAMPLE else "answer"
        events = [
            Event(
                "checked",
                -1,
                {"round": cur.number, "purpose": purpose, "result": v.result, "seconds": v.seconds, "detail": v.detail},
            )
        ]
        if self.phase == SAMPLE:
            self.current = replace(cur, sample=v)
            if v.result == "true":
                self.phase = SOLVE
                return events
            return events + self._score(PUZZLE_WRONG + (EX if v.exception else ""))
        self.current = replace(cur, answer=v)
        if v.result == "true":
            return events + self._score(SUCCESS)
        return events + self._score(FAILURE + (EX if v.exception else ""))

    def apply_invalid(self, kind: str, text: str) -> list[Event]:
        """An unusable reply: the same player tries again until the attempts run out, then the
        round is scored (an unusable puzzle is puzzle-wrong, an unusable answer a failure).
        Under the seed's protocol the whole round is played again instead, a new puzzle proposed,
        and after SEED_TRIES tries the duel stops there (The Token Games gives the duel up)."""
        if self.phase not in (PROPOSE, SOLVE):
            raise IllegalMove(f"no player is asked in the {self.phase} phase")
        seat = self.current_player
        if self.protocol == "seed":
            return self._rerun(seat, kind)
        self.invalid += 1
        left = self.attempts - self.invalid
        events = [Event("invalid", seat, {"kind": kind, "count": self.invalid, "left": max(left, 0)})]
        if left > 0:
            return events
        return events + self._score(PUZZLE_WRONG if self.phase == PROPOSE else FAILURE, UNUSABLE)

    def _rerun(self, seat: int, kind: str) -> list[Event]:
        cur = self.current
        assert cur is not None
        self.reruns += 1
        left = SEED_TRIES - self.reruns
        events = [Event("invalid", seat, {"kind": kind, "count": self.reruns, "left": max(left, 0), "rerun": True})]
        if left > 0:
            self.current, self.phase = Round(cur.number, cur.proposer), PROPOSE
            return events
        self.current, self.phase, self.gave_up = None, OVER, True
        out = self.outcome
        assert out is not None
        return events + [Event("end", -1, {"scores": list(out.scores or ()), "winner": out.winner, "reason": GAVE_UP})]

    def _score(self, outcome: str, cause: str = "") -> list[Event]:
        assert self.current is not None  # only a running round is scored
        cur = replace(self.current, outcome=outcome, cause=cause)
        if outcome.startswith(FAILURE):
            self.wins[cur.proposer] += 1
        elif outcome.startswith(PUZZLE_WRONG):
            self.penalties[cur.proposer] += 1
        self.history.append(cur)
        self.invalid = self.reruns = 0
        events = [
            Event(
                "scored",
                cur.proposer,
                {
                    "round": cur.number,
                    "outcome": outcome,
                    "cause": cause,
                    "wins": list(self.wins),
                    "penalties": list(self.penalties),
                },
            )
        ]
        if cur.number >= self.rounds:
            self.current, self.phase = None, OVER
            out = self.outcome
            assert out is not None
            return events + [Event("end", -1, {"scores": list(out.scores or ()), "winner": out.winner})]
        self.current, self.phase = Round(cur.number + 1, 1 - cur.proposer), PROPOSE
        return events

    def clone(self) -> DuelState:
        return DuelState(
            self.rounds,
            self.attempts,
            list(self.history),
            self.current,
            self.phase,
            self.invalid,
            list(self.wins),
            list(self.penalties),
            self.timeout,
            self.backend,
            self.solve_time,
            protocol=self.protocol,
            reruns=self.reruns,
            gave_up=self.gave_up,
        )

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> tuple[int, int]:
        """Each seat's net score: rounds won as proposer minus penalties."""
        return (self.wins[0] - self.penalties[0], self.wins[1] - self.penalties[1])

    @property
    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        a, b = self.scores()
        return Outcome(
            None if a == b else (0 if a > b else 1), GAVE_UP if self.gave_up else "rounds", (float(a), float(b))
        )

    def observation(self, seat: int) -> DuelObservation:
        cur = self.current
        return DuelObservation(
            seat,
            cur.number if cur else self.rounds,
            (),
            self.phase,
            self.rounds,
            cur.code if cur is not None and self.phase in (SOLVE, ANSWER) else "",
            tuple(r.seen_by(seat) for r in self.history),
            (self.wins[0], self.wins[1]),
            (self.penalties[0], self.penalties[1]),
            (SEED_TRIES - self.reruns if self.protocol == "seed" else self.attempts - self.invalid)
            if self.phase in (PROPOSE, SOLVE)
            else 0,
            self.outcome,
            self.protocol,
        )

    def to_json(self) -> dict[str, Any]:
        def round_json(r: Round | None) -> dict[str, Any] | None:
            if r is None:
                return None
            return {
                "number": r.number,
                "proposer": r.proposer,
                "code": r.code,
                "solution": r.solution,
                "explanation": r.explanation,
                "value": r.value,
                "outcome": r.outcome,
                "cause": r.cause,
                "sample": None if r.sample is None else r.sample.text(),
                "answer": None if r.answer is None else r.answer.text(),
            }

        return {
            "rounds": self.rounds,
            "attempts": self.attempts,
            "phase": self.phase,
            "invalid": self.invalid,
            "protocol": self.protocol,
            "reruns": self.reruns,
            "gave_up": self.gave_up,
            "wins": list(self.wins),
            "penalties": list(self.penalties),
            "history": [round_json(r) for r in self.history],
            "current": round_json(self.current),
        }
