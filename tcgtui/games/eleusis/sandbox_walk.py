"""The Eleusis seed's judging walk for ONE rule, as the code of one sandbox check (sent as text, never imported).

The seed's verdict compares a guess's rule with the secret one along a walk.  The guess is
code a model wrote, so it never runs beside the secret rule, the walk or the comparison:
each rule walks in a check of its own, with this program, and reports only its own answers;
the host (``seed_judge.py``) compares the reports.  The walk is the seed's: from one
``random.Random(seed)``, ``simulations`` walks of up to ``turns`` steps from the starting
mainline, each step asking the rule about the 52 cards rank by rank (hearts, diamonds,
clubs, spades within a rank), a card it accepts drawn after every step, a step with no card
accepted ending its walk, an exception ending the whole walk once the step's other cards are
asked.  While two rules agree their walks are the same walk, so equal answers mean equal
walks: a rule can match the secret rule's report only by giving the secret rule's answers.

``mystery(request)`` takes one JSON text: the rule's code (a function body over the seed's
card API), the starting mainline, the walk's size and seed, and what to report:

- ``walks``: a digest of every answer (``d``), a short digest of the answers up to the end of
  each walk (``w``, chained, ``digest_chars`` each), and whether an exception ended it (``e``);
- ``steps`` of walk ``walk``: a short digest of each step's answers (``digest_chars`` each);
- ``cards`` of step ``step`` of walk ``walk``: each card's answer (``T``, ``F`` or ``E`` for an
  exception) and the first exception's text among the cards not in ``skip``.

The report is the message of the exception ``Report`` (JSON); code that cannot become a
function reports ``compile``.  This program holds no boundary: the sandbox around it does.
"""

import dataclasses
import enum
import hashlib
import json
import random
import textwrap
import types


class Suit(enum.Enum):
    """The four suits; each member's value is its (name, symbol, colour)."""

    HEARTS = ("hearts", "\u2665", "red")
    DIAMONDS = ("diamonds", "\u2666", "red")
    CLUBS = ("clubs", "\u2663", "black")
    SPADES = ("spades", "\u2660", "black")

    @property
    def suit_name(self):
        return self.value[0]

    @property
    def symbol(self):
        return self.value[1]

    @property
    def color(self):
        return self.value[2]


FACES = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclasses.dataclass(frozen=True)
class Card:
    """A card as the seed's rules see it: ``rank`` 1-13 and ``suit`` (a Suit)."""

    rank: int
    suit: Suit

    @property
    def color(self):
        return self.suit.color

    @property
    def rank_name(self):
        return FACES.get(self.rank, str(self.rank))

    def __str__(self):
        return self.rank_name + self.suit.symbol

    def to_dict(self):
        return {"rank": self.rank, "suit": self.suit.suit_name, "color": self.color, "symbol": str(self)}

    def to_canonical_card_data(self):
        return {"rank": self.rank, "suit": self.suit.suit_name}

    @classmethod
    def from_canonical_card_data(cls, payload):
        if set(payload) != {"rank", "suit"}:
            raise ValueError("a card is exactly a rank and a suit")
        rank, name = payload["rank"], payload["suit"]
        if type(rank) is not int or not 1 <= rank <= 13:
            raise ValueError("rank: expected an integer 1 to 13")
        for suit in Suit:
            if suit.suit_name == name:
                return cls(rank, suit)
        raise ValueError("suit: unknown suit name")


def _quiet_print(*args):
    """The rules' ``print``: each argument made into text (as the seed does), nothing shown."""
    for a in args:
        str(a)


ALLOWED = (bool, int, str, list, tuple, set, dict, range, reversed, sorted, enumerate, zip,
           len, sum, min, max, abs, any, all, round, divmod)


class Report(Exception):
    """What the rule answered, as JSON: the check's only result."""


def rule_function(body):
    """The body as ``evaluate_rule(card, mainline)``; its globals: the allowed builtins and ``Card``
    (not its own name: a rule cannot call itself)."""
    source = "def evaluate_rule(card, mainline):\n" + textwrap.indent(body, "    ") + "\n"
    scratch = {}
    exec(compile(source, "<eleusis-rule>", "exec"), {"__builtins__": {}}, scratch)
    names = {f.__name__: f for f in ALLOWED}
    names["print"] = _quiet_print
    made = scratch["evaluate_rule"]
    return types.FunctionType(made.__code__, {"__builtins__": names, "Card": Card}, made.__name__)


def _clip(exc):
    try:
        return ("%s: %s" % (type(exc).__name__, exc))[:160]
    except BaseException:
        return type(exc).__name__


def _report(**fields):
    raise Report(json.dumps(fields, ensure_ascii=True, separators=(",", ":")))


def _short(digest, size):
    return digest.hexdigest()[:size]


def mystery(request):
    req = json.loads(request)
    try:
        rule = rule_function(req["rule"])
    except Exception as exc:
        _report(compile=_clip(exc))
    suits = {s.value[0][0].upper(): s for s in Suit}
    cards = [Card(rank, suit) for rank in range(1, 14) for suit in Suit]
    start = [Card(rank, suits[suit]) for rank, suit in req["mainline"]]
    phase, size = req["phase"], req["digest_chars"]
    skip = set(req.get("skip", ()))
    rng = random.Random(req["seed"])
    whole = hashlib.sha256()
    walks, steps, text = [], [], ""
    for walk in range(req["simulations"]):
        line = list(start)
        for step in range(req["turns"]):
            answers, accepted, error = [], [], None
            for i, card in enumerate(cards):
                try:
                    said = bool(rule(card, line))
                except Exception as exc:
                    answers.append("E")
                    if error is None and i not in skip:
                        error = _clip(exc)
                    continue
                answers.append("T" if said else "F")
                if said:
                    accepted.append(card)
            text = "".join(answers)
            whole.update(text.encode())
            if phase == "cards" and walk == req["walk"] and step == req["step"]:
                _report(answers=text, error=error)
            steps.append(_short(hashlib.sha256(text.encode()), size))
            if "E" in text or not accepted:
                break
            line.append(rng.choice(accepted))
        if phase == "steps" and walk == req["walk"]:
            _report(steps="".join(steps))
        steps = []
        walks.append(_short(whole, size))
        if "E" in text:
            break
    _report(d=whole.hexdigest()[:32], w="".join(walks), e="E" in text)
