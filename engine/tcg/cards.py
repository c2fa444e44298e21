"""Cards as data: the vocabulary of effects, triggers, targets and keywords.

A card is composed from these primitives; the rules engine interprets them and
the describer renders them into each language.  Anything a pack names must be
in these tables, so a pack can never ask the engine for behaviour it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CHAMPION, SPELL, TRICK = "champion", "spell", "trick"
CARD_TYPES = (CHAMPION, SPELL, TRICK)

# Keywords a champion may carry.
HASTE = "haste"  # can attack the turn it is summoned
CANNOT_ATTACK = "cannot_attack"
ATTACKS_TWICE = "attacks_twice"
KEYWORDS = (HASTE, CANNOT_ATTACK, ATTACKS_TWICE)

# Triggers: the moment an ability or trick reacts to, from its owner's side.
ON_SUMMON = "on_summon"  # champions only: this champion enters play
START_OF_YOUR_TURN = "start_of_your_turn"
END_OF_YOUR_TURN = "end_of_your_turn"
YOU_TAKE_DAMAGE = "you_take_damage"
YOUR_LP_BELOW = "your_lp_below"  # damage leaves you below n LP (still alive)
YOUR_LP_EXACTLY = "your_lp_exactly"  # damage leaves you at exactly n LP
ENEMY_ATTACKS = "enemy_attacks"  # an enemy champion attacks, before blocks
ATTACKED_DIRECTLY = "attacked_directly"  # an enemy attack finds no blocker
YOU_CAST_SPELL = "you_cast_spell"  # after your spell has taken effect
THIS_BLOCKED = "this_blocked"  # champions only: this champion's attack is blocked
TRIGGERS = (
    ON_SUMMON,
    START_OF_YOUR_TURN,
    END_OF_YOUR_TURN,
    YOU_TAKE_DAMAGE,
    YOUR_LP_BELOW,
    YOUR_LP_EXACTLY,
    ENEMY_ATTACKS,
    ATTACKED_DIRECTLY,
    YOU_CAST_SPELL,
    THIS_BLOCKED,
)
TRIGGERS_WITH_N = (YOUR_LP_BELOW, YOUR_LP_EXACTLY)
CHAMPION_ONLY_TRIGGERS = (ON_SUMMON, THIS_BLOCKED)
DAMAGE_TRIGGERS = (YOU_TAKE_DAMAGE, YOUR_LP_BELOW, YOUR_LP_EXACTLY)
ATTACK_TRIGGERS = (ENEMY_ATTACKS, ATTACKED_DIRECTLY)

# Effects: what a card does.
DAMAGE = "damage"  # amount, to (opponent | you)
HEAL = "heal"  # amount: you gain LP
DRAW = "draw"  # amount: you draw
BUFF = "buff"  # stat, amount, target, until
DESTROY = "destroy"  # target
FREEZE = "freeze"  # target: cannot attack during its owner's next turn
SHUFFLE_HAND = "shuffle_hand"  # your hand goes into your deck, which is shuffled
REPEAT_SPELL = "repeat_spell"  # the spell that set this off takes effect again
BLOCK_WITH = "block_with"  # amount: the current attack is blocked by up to that many
CANCEL_ATTACK = "cancel_attack"  # the current attack stops
EFFECTS = (DAMAGE, HEAL, DRAW, BUFF, DESTROY, FREEZE, SHUFFLE_HAND, REPEAT_SPELL, BLOCK_WITH, CANCEL_ATTACK)

OPPONENT, YOU = "opponent", "you"
PLAYERS = (OPPONENT, YOU)
POWER, GUARD = "power", "guard"
STATS = (POWER, GUARD)
PERMANENT, END_OF_TURN = "permanent", "end_of_turn"
DURATIONS = (PERMANENT, END_OF_TURN)

# Targets: always deterministic.  Ties go to the champion summoned earliest.
THIS, ATTACKER, BLOCKERS = "this", "attacker", "blockers"
SIDES = ("your", "enemy")
PICKS = ("lowest_guard", "highest_guard", "lowest_power", "highest_power", "oldest", "newest")
TARGETS = (THIS, ATTACKER, BLOCKERS, "all_yours", "all_enemies") + tuple(
    f"{side}_{pick}" for side in SIDES for pick in PICKS
)

# Which fields each effect takes, and which it needs.
EFFECT_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    DAMAGE: (("amount", "to"), ("amount",)),
    HEAL: (("amount",), ("amount",)),
    DRAW: (("amount",), ("amount",)),
    BUFF: (("stat", "amount", "target", "until"), ("stat", "amount", "target")),
    DESTROY: (("target",), ("target",)),
    FREEZE: (("target",), ("target",)),
    SHUFFLE_HAND: ((), ()),
    REPEAT_SPELL: ((), ()),
    BLOCK_WITH: (("amount",), ("amount",)),
    CANCEL_ATTACK: ((), ()),
}
AMOUNT_RANGE = {DAMAGE: (1, 20), HEAL: (1, 20), DRAW: (1, 10), BUFF: (-10, 10), BLOCK_WITH: (2, 5)}


@dataclass(frozen=True, slots=True)
class Effect:
    do: str
    amount: int = 0
    to: str = OPPONENT
    stat: str = ""
    target: str = ""
    until: str = PERMANENT
    if_done: bool = False  # only if the previous effect of the same card did something


@dataclass(frozen=True, slots=True)
class Ability:
    """A trigger with its effects: a champion's ability, or a trick's whole text."""

    when: str
    effects: tuple[Effect, ...]
    n: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    type: str
    names: dict[str, str] = field(compare=False, hash=False)
    power: int = 0
    guard: int = 0
    keywords: frozenset[str] = frozenset()
    abilities: tuple[Ability, ...] = ()  # champions
    effects: tuple[Effect, ...] = ()  # spells
    trigger: Ability | None = None  # tricks

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names.get("en") or self.id


@dataclass(frozen=True, slots=True)
class Rules:
    """Numbers a pack may change; the rules text is formatted from them."""

    starting_lp: int = 10
    opening_hand: int = 3
    turn_limit: int = 50
    deck_size: int = 0  # cards in a deck list; 0: as many as the pack has
    max_copies: int = 1  # copies of one card a deck list may hold


MAX_CHAIN = 8  # reactions set off by reactions stop after this many links


@dataclass(frozen=True)
class Pack:
    """A validated card pool: the game data, text per language and its content hash."""

    id: str
    version: int
    cards: tuple[Card, ...]
    rules: Rules
    languages: tuple[str, ...]
    names: dict[str, str]  # the pack's own title per language
    hash: str
    source: str = ""  # where it was loaded from, for messages

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {c.id: i for i, c in enumerate(self.cards)})

    def card(self, card_id: str) -> Card:
        return self.cards[self.index[card_id]]  # type: ignore[attr-defined]

    @property
    def short_hash(self) -> str:
        return self.hash[:12]
