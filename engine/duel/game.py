"""The duel as a ``Game``: parameters in, states and move text out."""

from __future__ import annotations

from typing import Any

from tcgtui.engine.core import Game, IllegalMove
from tcgtui.engine.duel.moves import parse_answer, parse_proposal, parse_time_up, parse_verdict
from tcgtui.engine.duel.seed_wording import REPOSITORY, DuelWording
from tcgtui.engine.duel.state import SEED_TRIES, DuelObservation, DuelState, Round


class DuelGame(Game[str]):
    """``rounds`` rounds (an even number: both players propose equally often), ``attempts``
    tries per reply before an unusable one is scored; ``solve_time`` seconds to solve (0: no limit),
    counted by the solver's screen, which sends the answer written so far or ``TimeUp``.
    ``wording``: under ``--protocol seed``, The Token Games' prompts read from the user's checkout
    (models need it; ``upstream`` is what the record says of that checkout)."""

    name = "duel"

    def __init__(
        self,
        rounds: int = 10,
        attempts: int = 3,
        check_timeout: float = 5.0,
        sandbox: str = "local",
        solve_time: float = 0.0,
        protocol: str = "tcgtui",
        wording: DuelWording | None = None,
        upstream: dict[str, str] | None = None,
    ) -> None:
        if rounds % 2:
            raise ValueError(f"rounds={rounds}: expected an even number (each player proposes as often)")
        self.rounds = rounds
        self.attempts = attempts
        self.check_timeout = float(check_timeout)
        self.sandbox = sandbox
        self.solve_time = float(solve_time)
        self.protocol = protocol
        self.wording = wording
        self.upstream = dict(upstream or {})

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> DuelGame:
        return cls(
            int(params.get("rounds", 10)),
            int(params.get("attempts", 3)),
            float(params.get("check_timeout", 5.0)),
            str(params.get("sandbox", "local")),
            float(params.get("solve_time", 0.0)),
            str(params.get("protocol") or "tcgtui"),
            *seed_wording(params),
        )

    def new_state(self, seed: int) -> DuelState:
        return DuelState(
            self.rounds,
            self.attempts,
            timeout=self.check_timeout,
            backend=self.sandbox,
            solve_time=self.solve_time,
            protocol=self.protocol,
        )

    def setup(self) -> dict[str, Any]:
        setup = {
            "rounds": self.rounds,
            "attempts": self.attempts,
            "check_timeout": self.check_timeout,
            "sandbox": self.sandbox,
            "protocol": self.protocol,
        }
        if self.wording is not None:
            setup.update(upstream=self.upstream, wording=self.wording.digest())
        return {**setup, "solve_time": self.solve_time} if self.solve_time else setup

    def move_to_text(self, move: str) -> str:
        return move

    def move_from_text(self, text: str) -> str:
        for parse in (parse_proposal, parse_answer, parse_time_up, parse_verdict):
            parsed = parse(text)
            if parsed is not None:
                return parsed.text()
        raise IllegalMove(f"{text[:80]!r} is not a duel move (a proposal, an answer or a verdict)")

    def resample(self, obs: DuelObservation, rng: Any) -> DuelState:
        """The state as the seat sees it; what it cannot see (the opponent's explanations and
        samples) stays blank: no player's choice depends on it."""
        seed = self.protocol == "seed"
        state = DuelState(
            obs.rounds,
            self.attempts,
            list(obs.history),
            None,
            obs.phase,
            self.attempts - obs.attempts_left if obs.attempts_left and not seed else 0,
            list(obs.wins),
            list(obs.penalties),
            timeout=self.check_timeout,
            backend=self.sandbox,
            solve_time=self.solve_time,
            protocol=self.protocol,
            reruns=SEED_TRIES - obs.attempts_left if obs.attempts_left and seed else 0,
        )
        if obs.outcome is None:
            number = len(obs.history) + 1
            proposer = (number - 1) % 2
            state.current = Round(number, proposer, code=obs.code)
        return state


def seed_wording(params: dict[str, Any]) -> tuple[DuelWording | None, dict[str, str] | None]:
    """Under ``--protocol seed`` with the user's checkout loaded (``tcgtui.upstream.Upstream``): the
    seed's prompts and what the record says of the checkout; else nothing (a record's stored path
    is not read again: the engine does no I/O)."""
    upstream: Any = params.get("upstream")  # duck-typed: the engine imports no app module
    if params.get("protocol") != "seed" or not hasattr(upstream, "text"):
        return None, None
    return DuelWording.read(lambda path: upstream.text(path, REPOSITORY)), upstream.describe()
