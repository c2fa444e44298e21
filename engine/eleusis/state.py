"""A round of Eleusis: the shoe, the hand, the board, the turns, the guesses and the score.

One seat, the scientist.  The secret rule is a compiled rule-language rule; the
deck order depends on the seed alone, so every player of a run meets the same
cards (the starter depends on the rule, drawn from that same deck).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Event, GameState, IllegalMove, Outcome
from tcgtui.engine.eleusis import seed_deals
from tcgtui.engine.eleusis.cards import Card, parse_card, shoe
from tcgtui.engine.eleusis.judge import SEED_WALK, Verdict, accepts, remembered
from tcgtui.engine.eleusis.moves import Walk, parse_play, parse_walk
from tcgtui.engine.eleusis.observation import EleusisObservation
from tcgtui.engine.eleusis.rulelang import Rule, RuleError, compile_rule
from tcgtui.engine.protocols import SEED, TCGTUI

HAND = 12
MAX_TURNS = 30
TURNS_HIGH = 104  # the ``max_turns`` parameter's bound: a round cannot outlast the shoe's cards
PENALTY = 2
SILENT_CONFIDENCE = 5
SOLVED, TURNS, BANKRUPT, NO_CARDS = "solved", "turns", "bankrupt", "no_cards"
REFEREE = -2  # current_player while a guess waits on the referee's walk (``--translator``)


@dataclass(frozen=True)
class WalkRequest:
    """What the referee runs for a guess under ``--translator``: the seed's walk of the guess's Python
    ``code`` against the secret rule's Python ``truth`` from ``mainline`` (tcgtui/games/eleusis/referee.py)."""

    truth: str
    code: str
    mainline: tuple[Card, ...]
    turn: int
    rule: str = ""  # the guess in words, for its event

    def settle(self, account: dict[str, Any]) -> str:
        """The referee's move for the walk's account (``equivalent`` and how it was found)."""
        return Walk(bool(account.get("equivalent")), dict(account)).text()


def deck_order(seed: int) -> list[Card]:
    """The shoe shuffled by the seed alone (paired: every player and rule of a seed meet the same order)."""
    cards = shoe()
    random.Random(f"eleusis-deck:{seed}").shuffle(cards)
    return cards


class EleusisState(GameState[str]):
    num_seats = 1

    def __init__(
        self,
        rule: Rule,
        seed: int,
        guess_format: str = "text",
        max_turns: int = MAX_TURNS,
        deal: bool = True,
        protocol: str = TCGTUI,
        deck_seed: int | None = None,
        truth_code: str | None = None,
    ) -> None:
        """``protocol`` seed: the deck is the seed's for ``deck_seed``, a guess is judged on the mainline
        after the turn's card, and a round runs to its last turn whatever the penalties (no bankruptcy).
        ``truth_code`` (``--translator``): the secret rule's Python from the seed's rules; a guess is then
        the seed's walk in the sandbox, asked of the referee (``pending``), and no silent guess is judged."""
        self.rule = rule
        self.protocol = protocol
        self.deck_seed = deck_seed
        self.truth_code = truth_code
        self.waiting: WalkRequest | None = None
        self.seed = seed
        self.guess_format = guess_format
        self.max_turns = max_turns
        self.deck: list[Card] = []
        self.hand: list[Card] = []
        self.board: list[list[Any]] = []  # [mainline card or None, [rejected cards]]
        self.plays: list[tuple[Card, bool]] = []
        self.failed: list[str] = []
        self.turns = 0
        self.score: int | None = None
        self._outcome: Outcome | None = None
        self.start_events: list[Event] = []
        if deal:
            self._deal()

    def _deal(self) -> None:
        deck = seed_deals.deck(self.deck_seed) if self.deck_seed is not None else deck_order(self.seed)
        self.hand, deck = deck[:HAND], deck[HAND:]
        set_aside = 0
        while deck:
            card = deck.pop(0)
            if accepts(self.rule, card, []):
                self.board.append([card, []])
                break
            set_aside += 1
        self.deck = deck
        starter = self.board[0][0].text() if self.board else None
        self.start_events = [Event("start", 0, {"starter": starter, "set_aside": set_aside})]

    # --- the core API ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else REFEREE if self.waiting is not None else 0

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def mainline(self) -> list[Card]:
        return [card for card, _ in self.board if card is not None]

    def pending(self) -> WalkRequest | None:
        """The guess waiting on the referee's walk, or None."""
        return self.waiting

    def legal_moves(self) -> list[str]:
        if self._outcome is not None or self.waiting is not None:
            return []
        return [c.text() for c in sorted(set(self.hand))]

    def validate(self, move: str) -> str | None:
        if self._outcome is not None:
            return "over"
        if self.waiting is not None:
            return None if parse_walk(move) is not None else "format"
        try:
            play = parse_play(move)
        except IllegalMove:
            return "format"
        return None if play.card in self.hand else "not_in_hand"

    def apply(self, move: str) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("the round is over")
        if self.waiting is not None:
            return self._settle(move)
        play = parse_play(move)
        if play.card not in self.hand:
            raise IllegalMove(f"{play.card.text()} is not in the hand")
        n = self.turns + 1
        mainline = self.mainline()
        accepted = accepts(self.rule, play.card, mainline)
        if self.protocol == SEED and accepted:  # the seed judges a guess after the turn's card is placed
            mainline = mainline + [play.card]
        events: list[Event] = []
        solved = False
        walked = self.truth_code is not None
        if play.guess and walked:
            self.waiting = WalkRequest(self.truth_code or "", play.code or "", tuple(mainline), n, play.rule)
        elif play.guess:
            verdict = self.judge_code(play.code, mainline, n)
            solved = verdict.equivalent
            if not solved:
                self.failed.append(play.rule or play.code or "")
            events.append(
                Event(
                    "guess",
                    0,
                    {"turn": n, "rule": play.rule, "code": play.code, "correct": solved, **_counter(verdict)},
                )
            )
        elif not walked and (play.confidence or 0) >= SILENT_CONFIDENCE and play.code is not None:
            verdict = self.judge_code(play.code, mainline, n)
            events.append(
                Event(
                    "silent",
                    0,
                    {
                        "turn": n,
                        "rule": play.rule,
                        "code": play.code,
                        "confidence": play.confidence,
                        "correct": verdict.equivalent,
                    },
                )
            )
        self.hand.remove(play.card)
        if accepted:
            self.board.append([play.card, []])
        elif self.board:
            self.board[-1][1].append(play.card)
        else:
            self.board.append([None, [play.card]])
        self.plays.append((play.card, accepted))
        if self.deck:
            self.hand.append(self.deck.pop(0))
        self.turns = n
        events.insert(
            0,
            Event(
                "play",
                0,
                {
                    "turn": n,
                    "card": play.card.text(),
                    "accepted": accepted,
                    "rule": play.rule,
                    "confidence": play.confidence,
                    "guess": play.guess,
                },
            ),
        )
        if self.waiting is not None:
            return events  # the turn ends with the referee's verdict
        return events + self._end_of_turn(n, solved)

    def _settle(self, move: str) -> list[Event]:
        """The referee's verdict on the waiting guess: its event, then the turn's end."""
        walk = parse_walk(move)
        if walk is None:
            raise IllegalMove("the referee's move for a waiting guess is its walk's verdict")
        request, self.waiting = self.waiting, None
        assert request is not None
        if not walk.equivalent:
            self.failed.append(request.rule or request.code)
        events = [
            Event(
                "guess",
                0,
                {
                    "turn": request.turn,
                    "rule": request.rule,
                    "code": request.code,
                    "correct": walk.equivalent,
                    "counterexample": None,
                    "walk": walk.account,
                },
            )
        ]
        return events + self._end_of_turn(request.turn, walk.equivalent)

    def _end_of_turn(self, n: int, solved: bool) -> list[Event]:
        wrong = len(self.failed)
        if solved:
            return self._finish(SOLVED, self.max_turns + 1 - n - PENALTY * wrong)
        if n >= self.max_turns:
            return self._finish(TURNS, -PENALTY * wrong)
        if self.protocol != SEED and self.max_turns - n - PENALTY * wrong <= 0:
            return self._finish(BANKRUPT, -PENALTY * wrong)
        if not self.hand:
            return self._finish(NO_CARDS, -PENALTY * wrong)
        return []

    def judge_code(self, code: str | None, mainline: list[Card], turn: int) -> Verdict:
        """The verdict on a guess written in the rule language; a guess that is not a rule is wrong."""
        try:
            guess = compile_rule(code or "")
        except RuleError as exc:
            return Verdict(False, True, None, exc)
        walk = SEED_WALK if self.protocol == SEED else f"{self.seed}:{turn}"  # the seed's walk, or tcgtui's
        return remembered(self.rule, guess, tuple(mainline), walk)

    def _finish(self, reason: str, score: int) -> list[Event]:
        self.score = score
        self._outcome = Outcome(None, reason, (float(score),))
        return [
            Event("game_over", 0, {"reason": reason, "score": score, "turns": self.turns, "wrong": len(self.failed)})
        ]

    def clone(self) -> EleusisState:
        new = EleusisState.__new__(EleusisState)
        new.rule, new.seed, new.guess_format, new.max_turns = self.rule, self.seed, self.guess_format, self.max_turns
        new.protocol, new.deck_seed = self.protocol, self.deck_seed
        new.truth_code, new.waiting = self.truth_code, self.waiting
        new.deck, new.hand = list(self.deck), list(self.hand)
        new.board = [[c, list(r)] for c, r in self.board]
        new.plays, new.failed = list(self.plays), list(self.failed)
        new.turns, new.score, new._outcome = self.turns, self.score, self._outcome
        new.start_events = list(self.start_events)
        return new

    # --- views -----------------------------------------------------------------------------------
    def observation(self, seat: int) -> EleusisObservation:
        return EleusisObservation(
            seat=seat,
            turn=self.turns + 1,
            legal_moves=tuple(self.legal_moves()),
            hand=tuple(c.text() for c in (self.hand if self.protocol == SEED else sorted(self.hand))),
            board=tuple((None if c is None else c.text(), tuple(x.text() for x in r)) for c, r in self.board),
            plays=tuple((c.text(), a) for c, a in self.plays),
            failed_guesses=tuple(self.failed),
            max_turns=self.max_turns,
            deck_left=len(self.deck),
            guess_format=self.guess_format,
            outcome=self._outcome,
            protocol=self.protocol,
            round_seed=self.deck_seed if self.protocol == SEED else None,
        )

    @classmethod
    def from_observation(cls, obs: EleusisObservation, rule: Rule, deck: list[Card], seed: int) -> EleusisState:
        """The seat's view made whole with a rule and a deck it cannot see (``Game.resample``)."""
        state = cls(
            rule, seed, obs.guess_format, obs.max_turns, deal=False, protocol=obs.protocol, deck_seed=obs.round_seed
        )  # a sampled world judges in the rule language, never waits
        state.hand = [parse_card(c) for c in obs.hand]
        state.board = [[None if c is None else parse_card(c), [parse_card(x) for x in r]] for c, r in obs.board]
        state.plays = [(parse_card(c), a) for c, a in obs.plays]
        state.failed = list(obs.failed_guesses)
        state.turns = obs.turn - 1
        state.deck = list(deck)
        state._outcome = obs.outcome
        if obs.outcome is not None and obs.outcome.scores:
            state.score = int(obs.outcome.scores[0])
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule.source,
            "seed": self.seed,
            "guess_format": self.guess_format,
            "protocol": self.protocol,
            "deck_seed": self.deck_seed,
            "deck": [c.text() for c in self.deck],
            "hand": [c.text() for c in self.hand],
            "board": [[None if c is None else c.text(), [x.text() for x in r]] for c, r in self.board],
            "plays": [[c.text(), a] for c, a in self.plays],
            "failed": list(self.failed),
            "turns": self.turns,
            "score": self.score,
            "walked": self.truth_code is not None,
            "waiting": None if self.waiting is None else self.waiting.turn,
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }


def _counter(verdict: Verdict) -> dict[str, Any]:
    out = verdict.to_json()
    data: dict[str, Any] = {"counterexample": out["counterexample"]}
    if verdict.error is not None and verdict.counterexample is None:
        data["error"] = verdict.error.kind
    return data


def verdicts_after(state: EleusisState, move: str) -> list[Any]:
    """Play ``move`` on ``state`` (a copy) and give back the verdicts it took (``judge.kept``): the
    app judges a person's guess in a process of its own with this, the screen answering keys meanwhile."""
    # only a move played apart (a person's guess) needs the judge here
    from tcgtui.engine.eleusis import judge

    state.apply(move)
    return judge.kept()
