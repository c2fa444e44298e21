"""The fast path's data: a pack compiled to one integer program, a game as one integer array.

Cards stay data on the fast path too: ``compile_pack`` turns any validated
``Pack`` (built-in or private) into rows of opcodes that ``kernel.py``
interprets, so no card is ever hard-coded.  Every code below is derived from
the vocabulary tables in ``cards.py``; ``compile_pack`` refuses a pack that
names a primitive the interpreter does not know, so a new primitive cannot be
silently ignored (a test checks that the whole vocabulary is covered).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tcgtui.engine.tcg import cards as C

# --- vocabulary codes ------------------------------------------------------------------

CT_CHAMPION, CT_SPELL, CT_TRICK = (C.CARD_TYPES.index(t) for t in (C.CHAMPION, C.SPELL, C.TRICK))

KW_HASTE = 1 << C.KEYWORDS.index(C.HASTE)
KW_CANNOT_ATTACK = 1 << C.KEYWORDS.index(C.CANNOT_ATTACK)
KW_ATTACKS_TWICE = 1 << C.KEYWORDS.index(C.ATTACKS_TWICE)

T_ON_SUMMON = C.TRIGGERS.index(C.ON_SUMMON)
T_START = C.TRIGGERS.index(C.START_OF_YOUR_TURN)
T_END = C.TRIGGERS.index(C.END_OF_YOUR_TURN)
T_TAKE_DAMAGE = C.TRIGGERS.index(C.YOU_TAKE_DAMAGE)
T_LP_BELOW = C.TRIGGERS.index(C.YOUR_LP_BELOW)
T_LP_EXACTLY = C.TRIGGERS.index(C.YOUR_LP_EXACTLY)
T_ENEMY_ATTACKS = C.TRIGGERS.index(C.ENEMY_ATTACKS)
T_ATTACKED_DIRECTLY = C.TRIGGERS.index(C.ATTACKED_DIRECTLY)
T_CAST = C.TRIGGERS.index(C.YOU_CAST_SPELL)
T_THIS_BLOCKED = C.TRIGGERS.index(C.THIS_BLOCKED)
# Taking damage also wakes the LP-threshold triggers (the reference's DAMAGE_TRIGGERS).
DAMAGE_MASK = sum(1 << C.TRIGGERS.index(t) for t in C.DAMAGE_TRIGGERS)

DO_DAMAGE = C.EFFECTS.index(C.DAMAGE)
DO_HEAL = C.EFFECTS.index(C.HEAL)
DO_DRAW = C.EFFECTS.index(C.DRAW)
DO_BUFF = C.EFFECTS.index(C.BUFF)
DO_DESTROY = C.EFFECTS.index(C.DESTROY)
DO_FREEZE = C.EFFECTS.index(C.FREEZE)
DO_SHUFFLE_HAND = C.EFFECTS.index(C.SHUFFLE_HAND)
DO_REPEAT_SPELL = C.EFFECTS.index(C.REPEAT_SPELL)
DO_BLOCK_WITH = C.EFFECTS.index(C.BLOCK_WITH)
DO_CANCEL_ATTACK = C.EFFECTS.index(C.CANCEL_ATTACK)

# the other value of each pair (you, guard, end of turn) is the else branch
TO_OPPONENT = C.PLAYERS.index(C.OPPONENT)
STAT_POWER = C.STATS.index(C.POWER)
UNTIL_PERMANENT = C.DURATIONS.index(C.PERMANENT)

TG_THIS = C.TARGETS.index(C.THIS)
TG_ATTACKER = C.TARGETS.index(C.ATTACKER)
TG_BLOCKERS = C.TARGETS.index(C.BLOCKERS)
TG_ALL_YOURS = C.TARGETS.index("all_yours")
TG_ALL_ENEMIES = C.TARGETS.index("all_enemies")
TG_SIDE0 = C.TARGETS.index(f"{C.SIDES[0]}_{C.PICKS[0]}")  # then side-major, pick-minor
N_PICKS = len(C.PICKS)
PICK_LOWEST_GUARD = C.PICKS.index("lowest_guard")
PICK_HIGHEST_GUARD = C.PICKS.index("highest_guard")
PICK_LOWEST_POWER = C.PICKS.index("lowest_power")
PICK_OLDEST = C.PICKS.index("oldest")
PICK_NEWEST = C.PICKS.index("newest")
SIDE_YOUR = C.SIDES.index("your")
assert all(
    C.TARGETS[TG_SIDE0 + s * N_PICKS + k] == f"{side}_{pick}"
    for s, side in enumerate(C.SIDES)
    for k, pick in enumerate(C.PICKS)
), "target table layout"

IMPLEMENTED_EFFECTS = frozenset(C.EFFECTS)
IMPLEMENTED_TRIGGERS = frozenset(C.TRIGGERS)
IMPLEMENTED_TARGETS = frozenset(C.TARGETS)
IMPLEMENTED_KEYWORDS = frozenset((C.HASTE, C.CANNOT_ATTACK, C.ATTACKS_TWICE))
MAX_CHAIN = C.MAX_CHAIN

# --- the program: one int64 array per pack -----------------------------------------------

# header
P_N, P_LP, P_HAND, P_LIMIT, P_CARDS, P_ABILITIES, P_EFFECTS = range(7)
PH = 8
# card rows
# A row is one copy of a card (a slot): C_OWN has bit p set when seat p's deck holds that copy,
# C_CARD is the card's index in the pack.  Whole-pack decks: one slot per card, both bits set.
C_TYPE, C_POWER, C_GUARD, C_KW, C_AB_LO, C_AB_HI, C_EF_LO, C_EF_HI, C_WMASK, C_OWN, C_CARD = range(11)
CW = 11
BOTH_SEATS = 3
# ability rows: a champion's ability, or a trick's trigger
A_WHEN, A_N, A_EF_LO, A_EF_HI = range(4)
AW = 4
# effect rows
E_DO, E_AMOUNT, E_TO, E_STAT, E_TARGET, E_UNTIL, E_IF_DONE = range(7)
EW = 7

# --- the state: one int64 array per game ---------------------------------------------------

S_LP = 0  # two entries
S_TURN, S_CUR, S_OUT, S_REASON, S_DEPTH = 2, 3, 4, 5, 6
S_ATK_CARD, S_ATK_OWNER, S_ATK_BLOCKS, S_ATK_CANCEL, S_NBLK = 7, 8, 9, 10, 11
S_DECKN, S_HANDN, S_TRICKN, S_GRAVEN, S_BOARDN = 12, 14, 16, 18, 20  # two entries each
SH = 24
OUT_NONE, OUT_DRAW = 0, 3  # otherwise 1 + winning seat
REASON_LP, REASON_TURN_LIMIT = 1, 2
REASONS = {REASON_LP: "lp", REASON_TURN_LIMIT: "turn_limit"}
# champion slots, in the order of ``Champion.to_json``
CH_CARD, CH_POWER, CH_GUARD, CH_TPOWER, CH_TGUARD, CH_SUMMONED, CH_FROZEN, CH_BLOCKED = range(8)
CHW = 8


def state_size(n: int) -> int:
    """Decks, hands, tricks and graves (n each per player) and two boards of n champions."""
    return SH + 8 * n + 2 * n * CHW


# --- an observation: what the searcher may see, as one int64 array ---------------------------

O_SEAT, O_TURN, O_CUR, O_LP = 0, 1, 2, 3  # O_LP: two entries
O_OPP_HAND, O_OPP_TRICKS, O_DECKN = 5, 6, 7  # O_DECKN: two entries
O_HANDN, O_TRICKN, O_GRAVEN, O_BOARDN = 9, 10, 11, 13  # O_GRAVEN, O_BOARDN: two entries
OH = 16


def obs_size(n: int) -> int:
    return OH + 4 * n + 2 * n * CHW


# --- scratch: the interpreter's frame stack and working lists ---------------------------------

MAX_FRAMES = 64  # chains stop at MAX_CHAIN links; each link stacks at most three frames
F_KIND, F_LO, F_HI, F_POS, F_DONE, F_OWNER, F_SOURCE, F_CHAMP = range(8)
F_HAS_ATTACK, F_HAS_BLOCKERS, F_SPELL, F_ABILITY, F_WHEN, F_PHASE, F_I, F_J, F_NSNAP = range(8, 17)
FW = 17
K_RESOLVE, K_REACT = 0, 1


def work_size(n: int) -> int:
    """Blockers, attackers, targets, two determinizing lists, stack pointer, frames, snapshots."""
    return 5 * n + 1 + MAX_FRAMES * FW + MAX_FRAMES * n


class UnsupportedCard(ValueError):
    """A pack uses a primitive the fast interpreter does not implement."""


@dataclass(frozen=True)
class Program:
    """A pack compiled for the fast path; small and picklable, so it can go to worker processes."""

    code: np.ndarray  # int64: header, card rows, ability rows, effect rows
    pack_id: str
    pack_hash: str
    card_ids: tuple[str, ...]  # per slot (a card id repeats once per copy)
    owners: tuple[int, ...] = ()  # per slot: bit p set when seat p's deck holds it

    def slots(self, seat: int) -> dict[str, list[int]]:
        """Card id -> the slots of that card in ``seat``'s deck, in order."""
        out: dict[str, list[int]] = {}
        for k, cid in enumerate(self.card_ids):
            if self.owners[k] >> seat & 1:
                out.setdefault(cid, []).append(k)
        return out

    @property
    def n(self) -> int:
        return len(self.card_ids)


def _effect_row(eff: C.Effect) -> list[int]:
    if eff.do not in IMPLEMENTED_EFFECTS:
        raise UnsupportedCard(f"effect {eff.do!r}")
    target = -1
    if eff.target:
        if eff.target not in IMPLEMENTED_TARGETS:
            raise UnsupportedCard(f"target {eff.target!r}")
        target = C.TARGETS.index(eff.target)
    return [
        C.EFFECTS.index(eff.do),
        eff.amount,
        C.PLAYERS.index(eff.to),
        C.STATS.index(eff.stat) if eff.stat else -1,
        target,
        C.DURATIONS.index(eff.until),
        int(eff.if_done),
    ]


_CACHE: dict[str, Program] = {}


def slot_plan(pack: C.Pack, owned: tuple[tuple[int, ...], tuple[int, ...]] | None) -> list[tuple[int, int]]:
    """(pack index, owner bits) per slot: as many copies of a card as the larger deck holds."""
    if owned is None:
        return [(i, BOTH_SEATS) for i in range(len(pack.cards))]
    plan = []
    for i in range(len(pack.cards)):
        for copy in range(max(owned[0][i], owned[1][i])):
            plan.append((i, (copy < owned[0][i]) | (copy < owned[1][i]) << 1))
    return plan


def compile_pack(pack: C.Pack, owned: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> Program:
    """The pack (and the two decks, ``owned``: copies per card and seat; None: the whole pack
    once each) as opcodes; cached by content, so each process compiles a setup once."""
    key = pack.hash if owned is None else f"{pack.hash}/{owned}"
    hit = _CACHE.get(key)
    if hit is not None and hit.card_ids == tuple(pack.cards[i].id for i, _ in slot_plan(pack, owned)):
        return hit
    cards: list[list[int]] = []
    abilities: list[list[int]] = []
    effects: list[list[int]] = []

    def add_effects(effs: tuple[C.Effect, ...]) -> tuple[int, int]:
        lo = len(effects)
        effects.extend(_effect_row(e) for e in effs)
        return lo, len(effects)

    def add_ability(ab: C.Ability) -> int:
        if ab.when not in IMPLEMENTED_TRIGGERS:
            raise UnsupportedCard(f"trigger {ab.when!r}")
        lo, hi = add_effects(ab.effects)
        abilities.append([C.TRIGGERS.index(ab.when), ab.n, lo, hi])
        return 1 << C.TRIGGERS.index(ab.when)

    rows: list[list[int]] = []
    for card in pack.cards:
        unknown = set(card.keywords) - IMPLEMENTED_KEYWORDS
        if unknown:
            raise UnsupportedCard(f"keyword {sorted(unknown)[0]!r}")
        kw = sum(1 << C.KEYWORDS.index(k) for k in card.keywords)
        ab_lo, wmask = len(abilities), 0
        if card.type == C.CHAMPION:
            for ab in card.abilities:
                wmask |= add_ability(ab)
        elif card.type == C.TRICK and card.trigger is not None:
            wmask |= add_ability(card.trigger)
        ab_hi = len(abilities)
        ef_lo, ef_hi = add_effects(card.effects) if card.type == C.SPELL else (0, 0)
        rows.append([C.CARD_TYPES.index(card.type), card.power, card.guard, kw, ab_lo, ab_hi, ef_lo, ef_hi, wmask])
    plan = slot_plan(pack, owned)
    cards = [rows[i] + [own, i] for i, own in plan]

    n = len(cards)
    header = [
        n,
        pack.rules.starting_lp,
        pack.rules.opening_hand,
        pack.rules.turn_limit,
        PH,
        PH + n * CW,
        PH + n * CW + len(abilities) * AW,
        0,
    ]
    flat = (
        header
        + [v for row in cards for v in row]
        + [v for row in abilities for v in row]
        + [v for row in effects for v in row]
    )
    program = Program(
        np.array(flat, dtype=np.int64),
        pack.id,
        pack.hash,
        tuple(pack.cards[i].id for i, _ in plan),
        tuple(own for _, own in plan),
    )
    _CACHE[key] = program
    return program
