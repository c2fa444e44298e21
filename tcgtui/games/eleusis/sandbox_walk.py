"""The Eleusis seed's judging walk, as the code of one sandbox check (sent as text, never imported).

``mystery(request)`` takes one JSON text: the secret rule's and the guess's code
(function bodies over the seed's card API, as its translator writes them and its
``rules.json`` holds them), the starting mainline, and the walk's size and seed.
It runs the seed's whole verdict here, inside the check: each rule made into a
function ``evaluate_rule(card, mainline)`` whose only names are a short list of
builtins and ``Card``; then, from one ``random.Random(seed)``, ``simulations``
walks of up to ``turns`` steps from the starting mainline, each step asking both
rules about the 52 cards rank by rank (hearts, diamonds, clubs, spades within a
rank), the first answer that differs ending the verdict, an exception in either
rule counting as a difference once the step's other cards are asked, a step
with no card accepted ending its walk, and a card the rules accept drawn after
every step.

Returns True when the rules never differ.  Otherwise it raises ``Differs`` whose
message is a short JSON object saying where (the host reads it from the check's
error detail).  Code that cannot become a function differs at once (``where``
``compile``).  This program holds no boundary: the sandbox around it does, and
the guess can forge only its own verdict.
"""

import dataclasses
import enum
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


class Differs(Exception):
    """The rules differ (or one failed); the message says where, as JSON."""


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


def _differs(**where):
    raise Differs(json.dumps(where, ensure_ascii=True))


def mystery(request):
    req = json.loads(request)
    try:
        truth = rule_function(req["truth"])
    except Exception as exc:
        _differs(where="compile", rule="secret", error=_clip(exc))
    try:
        guess = rule_function(req["guess"])
    except Exception as exc:
        _differs(where="compile", rule="guess", error=_clip(exc))
    suits = {s.value[0][0].upper(): s for s in Suit}
    cards = [Card(rank, suit) for rank in range(1, 14) for suit in Suit]
    start = [Card(rank, suits[suit]) for rank, suit in req["mainline"]]
    rng = random.Random(req["seed"])
    for walk in range(req["simulations"]):
        line = list(start)
        for step in range(req["turns"]):
            accepted, failed = [], None
            for card in cards:
                which = "secret"
                try:
                    said = bool(truth(card, line))
                    which = "guess"
                    answer = bool(guess(card, line))
                except Exception as exc:
                    if failed is None:
                        failed = dict(card=[card.rank, card.suit.suit_name], rule=which, error=_clip(exc))
                    continue
                if said != answer:
                    _differs(where="walk", walk=walk + 1, step=step + 1, card=[card.rank, card.suit.suit_name],
                             secret=said)
                if said:
                    accepted.append(card)
            if failed is not None:
                _differs(where="walk", walk=walk + 1, step=step + 1, **failed)
            if not accepted:
                break
            line.append(rng.choice(accepted))
    return True
