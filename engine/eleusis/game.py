"""Eleusis as a ``Game``: parameters in (which secret rule, which guess format), rounds out.

The secret rule is a library rule by number, a person's code (the dealer), or
``DRAWN``: a library rule drawn from each deal's seed, so a person meets a new
rule every deal and a record still names it (``deal_setup``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from tcgtui.engine.core import Game
from tcgtui.engine.eleusis import bench, seed_compile, seed_deals, seed_prompter
from tcgtui.engine.eleusis.cards import parse_card, shoe
from tcgtui.engine.eleusis.library import COUNT, compiled, library
from tcgtui.engine.eleusis.moves import parse_play, parse_walk
from tcgtui.engine.eleusis.observation import EleusisObservation
from tcgtui.engine.eleusis.rulelang import Rule, RuleError, compile_rule
from tcgtui.engine.eleusis.seed_prompter import SeedWording
from tcgtui.engine.eleusis.state import MAX_TURNS, TURNS_HIGH, EleusisState
from tcgtui.engine.protocols import SEED, TCGTUI

FORMATS = ("text", "code")
DRAWN = -1  # the ``rule`` parameter's default: a library rule drawn from the deal's seed
# Where a game's rule came from (``rule_from``, recorded with every deal): drawn from its seed, a
# person's own code, or else the rule set the run was given ("5", a sweep's "0-25").
FROM_DRAWN, FROM_CODE = "drawn", "code"


def rule_source(rule: int | None, rule_code: str) -> str:
    """Where a game's rule came from when its run gave no rule set: a person's code, drawn, or the number."""
    return FROM_CODE if rule_code else FROM_DRAWN if rule == DRAWN else str(rule)


def drawn_rule(seed: int) -> int:
    """The library rule a drawn-rule deal of ``seed`` plays (its own stream: the deck order is untouched)."""
    return random.Random(f"eleusis-rule:{seed}").randrange(COUNT)


def consistent(rule: Rule, plays: Any, start: Any = ()) -> bool:
    """Whether ``rule`` would have given every verdict of ``plays`` ((card, accepted) pairs, in order),
    the mainline starting with ``start``."""
    mainline = list(start)
    for card, accepted in plays:
        try:
            says = rule.accepts(card, mainline)
        except RuleError:
            says = False
        if says != accepted:
            return False
        if accepted:
            mainline.append(card)
    return True


class EleusisGame(Game[str]):
    name = "eleusis"

    rule: Rule | None  # None in the players' copy (public), and when drawn per deal
    rule_number: int | None  # None in the players' copy; DRAWN: drawn per deal

    def __init__(
        self,
        rule: int = DRAWN,
        guess_format: str = "text",
        rule_code: str = "",
        protocol: str = TCGTUI,
        seed_round: int = 0,
        seed_base: int = seed_deals.BASE,
        seed_rules: seed_deals.SeedRules | None = None,
        seed_deal: int = -1,
        upstream: dict[str, str] | None = None,
        seed_wording: SeedWording | None = None,
        max_turns: int = MAX_TURNS,
        translator: str = "",
        compile_source: str | None = None,
        rule_from: str = "",
    ) -> None:
        """``protocol`` seed: the seed's deals (round ``seed_round`` of its base seed ``seed_base``, from the
        rule's code in ``seed_rules``, the user's checkout, or the deck seed ``seed_deal`` a record keeps);
        ``seed_wording``: the seed's scientist prompt from that checkout (language-model players need it).
        ``max_turns``: a round's length (the seed's 30 by default; fewer make a short round, scored
        ``max_turns + 1 - n - 2k``, so its scores are not comparable with 30-turn rounds').
        ``translator`` (``--translator llm:A,llm:B``, seed only): the seed's translating models turn a guess in
        words into Python, and the referee judges it by the seed's walk in the sandbox against the secret
        rule's Python from ``seed_rules``; ``compile_source``: the checkout's compile prompt file.
        ``rule_from``: where the rule came from, as a record holds it ("" works it out from ``rule``;
        a sweep gives its rule set): the played rule alone cannot tell a drawn game from a fixed one."""
        if guess_format not in FORMATS:
            raise ValueError(f"guess_format={guess_format!r}: expected one of {', '.join(FORMATS)}")
        if not 1 <= int(max_turns) <= TURNS_HIGH:
            raise ValueError(f"max_turns={max_turns}: expected a number of turns from 1 to {TURNS_HIGH}")
        if protocol == SEED and int(max_turns) != MAX_TURNS:
            raise ValueError(
                f"--protocol seed plays the seed's rounds of {MAX_TURNS} turns; it takes no max_turns={max_turns}"
            )
        self.max_turns = int(max_turns)
        self.rule_number = int(rule)
        self.rule_code = rule_code
        self.guess_format = guess_format
        if rule_code:
            try:
                self.rule = compile_rule(rule_code)
            except RuleError as exc:
                raise ValueError(f"rule_code: {exc}") from None
        elif self.rule_number == DRAWN:
            self.rule = None
        else:
            if not 0 <= self.rule_number < COUNT:
                raise ValueError(f"rule={rule}: expected a rule number from 0 to {COUNT - 1}, or {DRAWN} (drawn)")
            self.rule = compiled(self.rule_number)
        self.rule_from = self._rule_from(str(rule_from or ""))
        self.protocol = protocol
        self.seed_round, self.seed_base, self.seed_deal = int(seed_round), int(seed_base), int(seed_deal)
        self.seed_rules = seed_rules
        self.upstream = dict(upstream or {})
        self.seed_wording = seed_wording
        self.translator, self.compile_source = str(translator or "").strip(), compile_source
        if self.translator and protocol != SEED:
            raise ValueError(
                "--translator: the seed's translating models play only under --protocol seed "
                "(tcgtui's own protocol translates with --judge)"
            )
        if self.translator and guess_format != "text":
            raise ValueError(
                "--translator: the seed's translator turns guesses in words into code; it takes no --guess-format code"
            )
        if self.translator and rule_code:
            raise ValueError(
                "--translator: the seed's walk needs the secret rule as the seed writes it; "
                "give a rule number, not rule_code"
            )
        if protocol == SEED and self.seed_deal < 0 and not rule_code:
            if seed_rules is None:
                raise ValueError(
                    f"--protocol seed deals from the seed's {seed_deals.RULES_FILE}: give --upstream, "
                    f"a checkout of {seed_deals.REPOSITORY}"
                )
            if len(seed_rules.codes) < COUNT:
                raise ValueError(
                    f"--upstream: {seed_deals.RULES_FILE} has {len(seed_rules.codes)} rules; "
                    f"expected the seed's {COUNT}"
                )

    def _rule_from(self, given: str) -> str:
        """``given`` checked against the rule (a record of a drawn deal holds the rule it drew), or worked out."""
        if not given:
            return rule_source(self.rule_number, self.rule_code)
        if given in (FROM_DRAWN, FROM_CODE):
            if (given == FROM_CODE) != bool(self.rule_code):
                raise ValueError(f"rule_from={given}: expected {FROM_CODE} exactly when the game has a rule_code")
            return given
        try:
            rules = bench.parse_rules(given)
        except bench.RoundsError:
            rules = []
        if self.rule_code or self.rule_number not in rules:
            raise ValueError(
                f"rule_from={given!r}: expected {FROM_DRAWN}, {FROM_CODE}, or rule numbers that hold the rule played"
            )
        return bench.rule_set_text(rules)

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> EleusisGame:
        upstream: Any = params.get("upstream")  # duck-typed: the engine imports no app module
        rules, described, wording, compile_source = None, None, None, None
        if params.get("protocol") == SEED and hasattr(upstream, "text"):  # the user's checkout (tcgtui.upstream)
            try:
                rules = seed_deals.parse_rules(upstream.text(seed_deals.RULES_FILE, seed_deals.REPOSITORY))
            except ValueError as exc:
                raise ValueError(f"--upstream: {seed_deals.RULES_FILE}: {exc}") from None
            described = upstream.describe()
            if all(upstream.has(path) for path in seed_prompter.FILES):  # a rules-only folder still deals
                wording = seed_prompter.SeedWording.read(lambda path: upstream.text(path, seed_prompter.REPOSITORY))
            if upstream.has(seed_compile.COMPILE_FILE):  # the seed's translator's prompt
                compile_source = upstream.text(seed_compile.COMPILE_FILE, seed_prompter.REPOSITORY)
        elif isinstance(upstream, dict):  # a record's description of it
            described = upstream
        return cls(
            params.get("rule", DRAWN),
            params.get("guess_format", "text") or "text",
            params.get("rule_code", "") or "",
            str(params.get("protocol") or TCGTUI),
            int(params.get("seed_round", 0)),
            int(params.get("seed_base", seed_deals.BASE)),
            rules,
            int(params.get("seed_deal", -1)),
            described,
            wording,
            int(params.get("max_turns", MAX_TURNS)),
            str(params.get("translator") or ""),
            compile_source,
            str(params.get("rule_from") or ""),
        )

    def deck_seed(self, seed: int) -> int | None:
        """The seed's deck seed for the deal of ``seed`` (None under tcgtui's protocol: its own deal)."""
        if self.protocol != SEED:
            return None
        if self.seed_deal >= 0:
            return self.seed_deal
        if self.rule_code:
            return seed_deals.round_seed(self.rule_code, self.seed_round, self.seed_base)
        number = self.rule_number_of(seed)
        assert number is not None and self.seed_rules is not None
        return seed_deals.round_seed(self.seed_rules.codes[number], self.seed_round, self.seed_base)

    def new_state(self, seed: int) -> EleusisState:
        return EleusisState(
            self.rule_of(seed),
            seed,
            self.guess_format,
            self.max_turns,
            protocol=self.protocol,
            deck_seed=self.deck_seed(seed),
            truth_code=self.truth_code(seed),
        )

    def truth_code(self, seed: int) -> str | None:
        """Under ``--translator``, the secret rule's Python from the seed's rules (None: guesses are judged
        in the rule language).  A game rebuilt from a record without the checkout has none: its verdicts
        are its moves, and a guess still to judge is wrong (the walk of no rule fails)."""
        if not self.translator:
            return None
        number = self.rule_number_of(seed)
        if self.seed_rules is None or number is None:
            return ""
        return self.seed_rules.codes[number]

    def rule_number_of(self, seed: int) -> int | None:
        """The library rule the deal of ``seed`` plays (None for a person's code, or in the players' copy)."""
        if self.rule_code or self.rule_number is None:
            return None
        return drawn_rule(seed) if self.rule_number == DRAWN else self.rule_number

    def rule_of(self, seed: int) -> Rule:
        """The secret rule of the deal of ``seed``; the players' copy has none to deal with."""
        if self.rule is not None:
            return self.rule
        number = self.rule_number_of(seed)
        if number is None:
            raise ValueError("the players' copy of the game has no rule to deal with (EleusisGame.public)")
        return compiled(number)

    def public(self) -> EleusisGame:
        """The game as the scientist may know it: the guess format and the turns, never the rule."""
        copy = EleusisGame.__new__(EleusisGame)
        copy.rule_number, copy.rule_code, copy.rule = None, "", None
        copy.rule_from = ""
        copy.guess_format, copy.max_turns = self.guess_format, self.max_turns
        copy.protocol, copy.seed_round, copy.seed_base, copy.seed_deal = self.protocol, 0, seed_deals.BASE, -1
        copy.seed_rules, copy.upstream = None, {}
        copy.seed_wording = self.seed_wording  # the seed's prompt is no secret
        copy.translator, copy.compile_source = self.translator, self.compile_source
        return copy

    def setup(self) -> dict[str, Any]:
        if self.rule_number is None:  # the players' copy
            public = {"guess_format": self.guess_format, "max_turns": self.max_turns, "protocol": self.protocol}
            return {**public, "translator": self.translator} if self.translator else public
        setup = {
            "rule": self.rule_number,
            "rule_code": self.rule_code,
            "guess_format": self.guess_format,
            "max_turns": self.max_turns,
            "protocol": self.protocol,
        }
        if self.protocol == SEED:
            setup.update(seed_round=self.seed_round, seed_base=self.seed_base, upstream=self.upstream)
        if self.translator:
            setup["translator"] = self.translator
        return setup

    def deal_setup(self, seed: int) -> dict[str, Any]:
        """The setup with a drawn rule's number in place of ``DRAWN``: records and reports name the rule
        played, and rebuilding the game from this setup deals the very same round.  ``rule_from`` says
        how it was chosen (reports keep a drawn run apart from a fixed one by it); the run's identity,
        ``setup()``, leaves it out, so a run started before it was recorded resumes unchanged."""
        setup = self.setup()
        if self.rule_number is not None:  # never in the players' copy ("5" names the rule)
            setup["rule_from"] = self.rule_from
        number = self.rule_number_of(seed)  # None for a person's code: nothing was drawn
        if setup.get("rule") == DRAWN and number is not None:
            setup["rule"] = number
        if self.protocol == SEED:
            setup["seed_deal"] = self.deck_seed(seed)  # a replay deals it again without the checkout
        return setup

    def move_to_text(self, move: str) -> str:
        walk = parse_walk(move)  # the referee's verdict on a guess (--translator)
        return walk.text() if walk is not None else parse_play(move).text()

    def move_from_text(self, text: str) -> str:
        return self.move_to_text(text)

    def resample(self, obs: EleusisObservation, rng: Any) -> EleusisState:
        """Same board and hand; a deck dealt from the unseen cards and a library rule that fits the plays."""
        seen = Counter(parse_card(c) for c in obs.hand)
        for card, rejected in obs.board:
            if card is not None:
                seen[parse_card(card)] += 1
            seen.update(parse_card(x) for x in rejected)
        pool = list((Counter(shoe()) - seen).elements())
        rng.shuffle(pool)
        plays = [(parse_card(c), a) for c, a in obs.plays]
        start = [parse_card(obs.board[0][0])] if obs.board and obs.board[0][0] is not None else []
        fits = [r.rule for r in library() if consistent(r.rule, plays, start)]
        rule = rng.choice(fits) if fits else rng.choice(library()).rule
        return EleusisState.from_observation(obs, rule, pool[: obs.deck_left], rng.randrange(2**31))
