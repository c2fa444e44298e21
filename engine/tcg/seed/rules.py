"""The card game as TCG-Bench's released code plays it (``--protocol seed``), quirks included.

Written from a reading of that code's behaviour (AdaMLLab/tcg-bench: src/game.py,
src/community_engine.py, src/main.py, src/random_baseline.py); none of it is
copied.  What differs from tcgtui's own rules (engine/tcg/state.py), each on purpose:

* cards are mutable objects, one per card per player, and behave by their id;
  a card the released search picks that is no longer in hand still takes effect
  (``STALE``), and under the benchmark loop the search's card never leaves its
  hand (``KEPT``, because that loop hands the search a pickled copy);
* decks are drawn from the front after one shuffle each, seeded as ``random.seed(seed)``;
* spell targets (Shield Boost, Sacrifice Ritual) are picked at random;
* Revenge Strike's 2 damage skips every damage trigger and can take LP below 0;
* combat attacks once per eligible champion (Twin Blade Fighter's second attack
  never comes), a 0-power champion attacks too, Frost Mage freezes its blockers
  before the fight;
* the two game loops differ (``Loop``): see there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tcgtui.engine.core import Event, GameState, IllegalMove, Outcome
from tcgtui.engine.tcg.cards import CHAMPION, SPELL, Pack
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation

STARTING_LP, OPENING_HAND, TURN_CAP = 10, 3, 50
KEPT, STALE = "+kept", "+stale"  # move suffixes only the released search produces (see module doc)

# The community pack's ids, by what the released code does with them.
GOLEM, SCOUT, HEALBOT, TWIN, FROST = (
    "stone_golem",
    "swift_scout",
    "healbot_assistant",
    "twin_blade_fighter",
    "frost_mage",
)
DRAW2, STRIKE, SHIELD, RESET, SACRIFICE = (
    "draw_power",
    "direct_strike",
    "shield_boost",
    "reset_hand",
    "sacrifice_ritual",
)
REVENGE, EMERGENCY, DOUBLE, ECHO, STAND = (
    "revenge_strike",
    "emergency_summon",
    "double_block",
    "spell_echo",
    "final_stand",
)
CARD_IDS = (
    GOLEM,
    SCOUT,
    HEALBOT,
    TWIN,
    FROST,
    DRAW2,
    STRIKE,
    SHIELD,
    RESET,
    SACRIFICE,
    REVENGE,
    EMERGENCY,
    DOUBLE,
    ECHO,
    STAND,
)


@dataclass(frozen=True)
class Loop:
    """Which of the released code's two game loops runs the game.

    ``benchmark`` (src/main.py, the LLM runs): no combat in a turn in which the
    player cast a spell; the game stops as soon as a player is at 0 LP; the
    higher LP wins, at 0 LP or at the turn cap, and equal LP (or both at 0) is a
    draw.  ``baseline`` (src/random_baseline.py, the published random baseline):
    combat every turn; end-of-turn effects run even after a knock-out (a
    Healbot can lift its owner off 0); player 1 at 0 LP loses first, and a game
    that reaches the cap is a draw whatever the LP.
    """

    name: str
    combat_after_spell: bool
    stop_at_knockout: bool
    draw_at_cap: bool
    kept_by_search: bool  # the search's chosen card stays in hand (a pickled copy takes effect)
    tree_across_turns: bool  # MCTSAgent keeps its tree between decisions of a game


BENCHMARK = Loop(
    "benchmark",
    combat_after_spell=False,
    stop_at_knockout=True,
    draw_at_cap=False,
    kept_by_search=True,
    tree_across_turns=False,
)
BASELINE = Loop(
    "baseline",
    combat_after_spell=True,
    stop_at_knockout=False,
    draw_at_cap=True,
    kept_by_search=False,
    tree_across_turns=True,
)
LOOPS = {BENCHMARK.name: BENCHMARK, BASELINE.name: BASELINE}


class SeedCard:
    """One card object; champions carry what the released code sets on them."""

    __slots__ = (
        "id",
        "kind",
        "power",
        "guard",
        "summon_turn",
        "haste",
        "cannot_attack",
        "heals",
        "attacks_per_turn",
        "attacks_left",
        "freezes",
        "frozen_until",
        "bonus",
        "bonus_until",
        "has_attacked",
        "has_blocked",
    )

    def __init__(self, card_id: str, kind: str, power: int | None, guard: int | None) -> None:
        self.id, self.kind, self.power, self.guard = card_id, kind, power, guard
        self.summon_turn: int | None = None
        self.haste = self.cannot_attack = self.heals = self.freezes = False
        self.attacks_per_turn: int | None = None
        self.attacks_left: int | None = None
        self.frozen_until: int | None = None
        self.bonus: int | None = None
        self.bonus_until: int | None = None
        self.has_attacked = self.has_blocked = False

    def copy(self) -> SeedCard:
        c = SeedCard.__new__(SeedCard)
        for name in SeedCard.__slots__:
            setattr(c, name, getattr(self, name))
        return c


class SeedSide:
    """One player: LP, and lists of card objects (the same object may sit in two lists)."""

    __slots__ = ("lp", "deck", "hand", "board", "discard", "tricks", "spell_played", "own")

    def __init__(self) -> None:
        self.lp = STARTING_LP
        self.deck: list[SeedCard] = []
        self.hand: list[SeedCard] = []
        self.board: list[SeedCard] = []
        self.discard: list[SeedCard] = []
        self.tricks: list[SeedCard] = []
        self.spell_played = False
        self.own: dict[str, SeedCard] = {}  # each card of the deal, wherever it is now (or nowhere)

    def draw(self) -> SeedCard | None:
        if not self.deck:
            return None
        card = self.deck.pop(0)
        self.hand.append(card)
        return card

    def copy(self) -> SeedSide:
        """As the released code clones: every list entry copied on its own."""
        s = SeedSide.__new__(SeedSide)
        s.lp, s.spell_played = self.lp, self.spell_played
        s.deck = [c.copy() for c in self.deck]
        s.hand = [c.copy() for c in self.hand]
        s.board = [c.copy() for c in self.board]
        s.discard = [c.copy() for c in self.discard]
        s.tricks = [c.copy() for c in self.tricks]
        s.own = {}
        for c in s.deck + s.hand + s.board + s.discard + s.tricks:
            s.own.setdefault(c.id, c)
        for cid, c in self.own.items():
            s.own.setdefault(cid, c.copy())
        return s


def strip_move(move: str) -> tuple[str, str]:
    """``card+kept`` -> (card, "+kept"); a plain card id -> (card, "")."""
    for suffix in (KEPT, STALE):
        if move.endswith(suffix):
            return move[: -len(suffix)], suffix
    return move, ""


class SeedState(GameState[str]):
    """The true state under the seed protocol; ``rng`` is the one stream its randomness draws on."""

    def __init__(self, pack: Pack, loop: Loop, rng: random.Random) -> None:
        self.pack, self.loop, self.rng = pack, loop, rng
        self.sides = [SeedSide(), SeedSide()]
        self.turn = 1
        self.current = 0
        self.played_turns = 0
        self._outcome: Outcome | None = None
        self._events: list[Event] = []
        self.start_events: list[Event] = []
        self.quiet = False  # a search's copy keeps no events

    @classmethod
    def new(cls, pack: Pack, loop: Loop, seed: int) -> SeedState:
        """Both decks are the whole pool, shuffled in turn from ``random.seed(seed)``; each player draws 3."""
        s = cls(pack, loop, random.Random(seed))
        for side in s.sides:
            side.deck = [s._make(card.id) for card in pack.cards]
            side.own = {c.id: c for c in side.deck}
        for side in s.sides:
            s.rng.shuffle(side.deck)
        for _ in range(OPENING_HAND):
            for side in s.sides:
                side.draw()
        s._begin_turn()
        s.start_events, s._events = s._events, []
        return s

    def _make(self, card_id: str) -> SeedCard:
        card = self.pack.card(card_id)
        return SeedCard(
            card.id,
            card.type,
            card.power if card.type == CHAMPION else None,
            card.guard if card.type == CHAMPION else None,
        )

    def clone(self, rng: random.Random | None = None, quiet: bool = False) -> SeedState:
        """A copy as the released code makes one; ``rng``: the stream the copy draws on (a search's own)."""
        s = SeedState.__new__(SeedState)
        s.pack, s.loop = self.pack, self.loop
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        s.rng = rng
        s.sides = [self.sides[0].copy(), self.sides[1].copy()]
        s.turn, s.current, s.played_turns, s._outcome = self.turn, self.current, self.played_turns, self._outcome
        s._events, s.start_events, s.quiet = [], [], quiet
        return s

    # --- the GameState interface ----------------------------------------------------------

    @property
    def lp(self) -> list[int]:
        """Both players' LP, as screens read them from tcgtui's own state."""
        return [self.sides[0].lp, self.sides[1].lp]

    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else self.current

    def legal_moves(self) -> list[str]:
        if self._outcome is not None:
            return []
        return list(dict.fromkeys(c.id for c in self.sides[self.current].hand))

    def validate(self, move: str) -> str | None:
        """The released search's own moves: a kept card must be in hand; a stale one must not."""
        card, suffix = strip_move(move)
        side = self.sides[self.current]
        if self._outcome is not None or card not in side.own:
            return "illegal"
        in_hand = any(c.id == card for c in side.hand)
        if suffix == KEPT and self.loop.kept_by_search and in_hand:
            return None
        if suffix == STALE and not self.loop.kept_by_search and not in_hand:
            return None
        return "illegal" if suffix or not in_hand else None

    def is_terminal(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def apply(self, move: str) -> list[Event]:
        if self.validate(move) is not None:
            raise IllegalMove(f"{move!r} cannot be played by player {self.current + 1} now")
        self._events = []
        card_id, suffix = strip_move(move)
        side = self.sides[self.current]
        if suffix == KEPT:
            card = side.own[card_id].copy()
        elif suffix == STALE:
            card = side.own[card_id]
        else:
            card = next(c for c in side.hand if c.id == card_id)
            side.hand.remove(card)
            if card.kind == SPELL:
                side.discard.append(card)
        if suffix:
            self._emit("play_kept" if suffix == KEPT else "play_stale", self.current, card=card_id)
        self.resolve(self.current, card)
        self._finish_turn()
        while self._outcome is None and not self.sides[self.current].hand:
            self._emit("no_cards", self.current)
            self._finish_turn()
        events, self._events = self._events, []
        return events

    # --- the loop -------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        self._emit("turn", self.current, turn=self.turn)
        self._draw(self.current, 1)

    def _draw(self, p: int, n: int) -> None:
        for _ in range(n):
            card = self.sides[p].draw()
            if card is not None:
                self._emit("draw", p, hidden=("card",), card=card.id)

    def _finish_turn(self) -> None:
        """Combat, end of turn and the loop's checks, then the next player's draw."""
        p, loop = self.current, self.loop
        side = self.sides[p]
        if loop.combat_after_spell or (side.board and not side.spell_played):
            self.combat()
        if loop.stop_at_knockout and min(self.sides[0].lp, self.sides[1].lp) <= 0:
            self._settle()
            return
        self.end_of_turn()
        self.played_turns += 1
        if self.played_turns >= TURN_CAP or self.sides[0].lp <= 0 or self.sides[1].lp <= 0:
            self._settle()
            return
        self._begin_turn()

    def _settle(self) -> None:
        a, b = self.sides[0].lp, self.sides[1].lp
        if self.loop.draw_at_cap:  # src/random_baseline.py's accounting
            winner = 1 if a <= 0 else 0 if b <= 0 else None
        elif a <= 0 and b <= 0:  # src/main.py's
            winner = None
        else:
            winner = 0 if a > b else 1 if b > a else None
        reason = "lp" if min(a, b) <= 0 else "turn_limit"
        self._outcome = Outcome(winner, reason)
        self._emit("game_over", -1 if winner is None else winner, reason=reason, lp=[a, b])

    def end_of_turn(self) -> None:
        """Healbots heal, Twin Blade's attacks reset, Final Stand and freezes wear off; then the turn passes."""
        side = self.sides[self.current]
        for champ in side.board:
            if champ.heals:
                side.lp += 1
                self._emit("heal", self.current, amount=1, lp=side.lp, source=champ.id)
        for champ in side.board:
            if champ.attacks_per_turn is not None:
                champ.attacks_left = champ.attacks_per_turn
        for s in self.sides:
            for champ in s.board:
                if champ.bonus is not None and self.turn >= (champ.bonus_until or 0):
                    champ.power = (champ.power or 0) - champ.bonus
                    champ.bonus = champ.bonus_until = None
                if champ.frozen_until is not None and self.turn >= champ.frozen_until:
                    champ.frozen_until = None
        self._emit("end_turn", self.current, turn=self.turn)
        self.current = 1 - self.current
        self.turn += 1
        nxt = self.sides[self.current]
        nxt.spell_played = False
        for champ in nxt.board:
            champ.has_attacked = champ.has_blocked = False

    # --- cards ------------------------------------------------------------------------------

    def resolve(self, p: int, card: SeedCard) -> None:
        """What a card does when played (the card itself has already left the hand, or not)."""
        side = self.sides[p]
        if card.kind == CHAMPION:
            card.summon_turn = self.turn
            side.board.append(card)
            self._emit("summon", p, card=card.id)
            if card.id == GOLEM:
                card.cannot_attack = True
            elif card.id == SCOUT:
                card.haste = True
            elif card.id == HEALBOT:
                card.heals = True
            elif card.id == TWIN:
                card.attacks_per_turn = card.attacks_left = 2
            elif card.id == FROST:
                card.freezes = True
            return
        if card.kind == SPELL:
            side.spell_played = True
            self._emit("cast", p, card=card.id)
            self._spell(p, card.id, first=True)
            echo = next((t for t in side.tricks if t.id == ECHO), None)
            if echo is not None:
                side.tricks.remove(echo)
                self._emit("trick", p, card=ECHO)
                self._spell(p, card.id, first=False)
            return
        side.tricks.append(card)
        self._emit("set_trick", p, hidden=("card",), card=card.id)

    def _spell(self, p: int, card_id: str, first: bool) -> None:
        side = self.sides[p]
        if card_id == DRAW2:
            self._draw(p, 2)
        elif card_id == STRIKE:
            self.damage(1 - p, 3, card_id)
        elif card_id == SHIELD and side.board:
            target = self.rng.choice(side.board)
            target.guard = (target.guard or 0) + 3
            self._emit(
                "buff",
                p,
                card=target.id,
                stat="guard",
                amount=3,
                until="permanent",
                power=target.power,
                guard=target.guard,
            )
        elif card_id == RESET and first:  # an echoed Reset Hand does nothing
            count = len(side.hand)
            side.deck.extend(side.hand)
            side.hand.clear()
            self.rng.shuffle(side.deck)
            self._emit("shuffle_hand", p, count=count)
            self._draw(p, 3)
        elif card_id == SACRIFICE and side.board:
            victim = self.rng.choice(side.board)
            side.board.remove(victim)
            side.lp += 4
            self._emit("destroy", p, card=victim.id)
            self._emit("heal", p, amount=4, lp=side.lp, source=card_id)

    # --- combat and damage --------------------------------------------------------------------

    def combat(self) -> None:
        p = self.current
        atk_side, dfn_side = self.sides[p], self.sides[1 - p]
        eligible = [
            c
            for c in atk_side.board
            if not c.has_attacked
            and not c.cannot_attack
            and (c.haste or (c.summon_turn is not None and self.turn > c.summon_turn))
        ]
        for atk in eligible:
            if atk.frozen_until is not None and self.turn < atk.frozen_until:
                continue
            if atk.attacks_left is not None:
                if atk.attacks_left <= 0:
                    continue
                atk.attacks_left -= 1
            atk.has_attacked = True
            self._emit("attack", p, card=atk.id, power=atk.power)
            double = self._double_block(1 - p)
            free = [c for c in dfn_side.board if not c.has_blocked]
            if free:
                if double and len(free) >= 2:
                    blockers = sorted(free, key=lambda c: c.guard or 0, reverse=True)[:2]
                else:
                    blockers = [max(free, key=lambda c: c.guard or 0)]
                for b in blockers:
                    b.has_blocked = True
                self._emit("block", 1 - p, attacker=atk.id, blockers=[b.id for b in blockers])
                excess = (atk.power or 0) - sum(b.guard or 0 for b in blockers)
                if atk.freezes:
                    for b in blockers:
                        b.frozen_until = self.turn + 2
                if excess > 0:
                    for b in blockers:
                        if b in dfn_side.board:
                            dfn_side.board.remove(b)
                            self._emit("destroy", 1 - p, card=b.id)
                    self.damage(1 - p, excess, atk.id)
                elif atk in atk_side.board:
                    atk_side.board.remove(atk)
                    self._emit("destroy", p, card=atk.id)
            else:
                self.damage(1 - p, atk.power or 0, atk.id)
            if atk.attacks_left is not None and atk.attacks_left > 0:
                atk.has_attacked = False

    def _double_block(self, q: int) -> bool:
        tricks = self.sides[q].tricks
        trick = next((t for t in tricks if t.id == DOUBLE), None)
        if trick is None:
            return False
        tricks.remove(trick)
        self._emit("trick", q, card=DOUBLE)
        return True

    def damage(self, q: int, amount: int, source: str) -> None:
        """LP never below 0 here; then Revenge Strike, Emergency Summon, Final Stand (in that order)."""
        if amount <= 0:
            return
        side = self.sides[q]
        old = side.lp
        side.lp = max(0, side.lp - amount)
        self._emit("damage", q, amount=amount, lp=side.lp, source=source)
        revenge = next((t for t in side.tricks if t.id == REVENGE), None)
        if revenge is not None:
            side.tricks.remove(revenge)
            other = self.sides[1 - q]
            other.lp -= 2  # no floor, no triggers
            self._emit("trick", q, card=REVENGE)
            self._emit("damage", 1 - q, amount=2, lp=other.lp, source=REVENGE)
        if side.lp < 3 <= old:
            trick = next((t for t in side.tricks if t.id == EMERGENCY), None)
            if trick is not None:
                side.tricks.remove(trick)
                self._emit("trick", q, card=EMERGENCY)
                self._draw(q, 3)
        if side.lp == 1 and old != 1:
            trick = next((t for t in side.tricks if t.id == STAND), None)
            if trick is not None:
                side.tricks.remove(trick)
                self._emit("trick", q, card=STAND)
                for champ in side.board:
                    champ.power = (champ.power or 0) + 2
                    champ.bonus, champ.bonus_until = 2, self.turn + 1

    # --- views --------------------------------------------------------------------------------

    def observation(self, seat: int) -> TcgObservation:
        me, opp = self.sides[seat], self.sides[1 - seat]

        def views(p: int) -> tuple[ChampionView, ...]:
            out = []
            for c in self.sides[p].board:
                printed = self.pack.card(c.id)
                frozen = c.frozen_until is not None and c.frozen_until > self.turn
                ready = (
                    p == self.current
                    and not c.cannot_attack
                    and not c.has_attacked
                    and not frozen
                    and (c.haste or (c.summon_turn is not None and self.turn > c.summon_turn))
                )
                out.append(
                    ChampionView(
                        card=c.id,
                        power=c.power or 0,
                        guard=c.guard or 0,
                        base_power=printed.power,
                        base_guard=printed.guard,
                        perm_power=(c.power or 0) - (c.bonus or 0),
                        perm_guard=c.guard or 0,
                        temp_power=c.bonus or 0,
                        temp_guard=0,
                        summoned_turn=c.summon_turn or 0,
                        frozen=frozen,
                        frozen_through=(c.frozen_until or 1) - 1,
                        can_attack=ready,
                        blocked_this_turn=c.has_blocked,
                    )
                )
            return tuple(out)

        return TcgObservation(
            seat=seat,
            pack_id=self.pack.id,
            turn=self.turn,
            turn_limit=TURN_CAP,
            current_player=self.current_player,
            lp=(self.sides[0].lp, self.sides[1].lp),
            hand=tuple(c.id for c in me.hand),
            my_tricks=tuple(c.id for c in me.tricks),
            opp_hand_size=len(opp.hand),
            opp_trick_count=len(opp.tricks),
            deck_sizes=(len(self.sides[0].deck), len(self.sides[1].deck)),
            boards=(views(0), views(1)),
            graves=(tuple(c.id for c in self.sides[0].discard), tuple(c.id for c in self.sides[1].discard)),
            legal_moves=tuple(self.legal_moves()) if self.current_player == seat else (),
            outcome=self._outcome,
        )

    def to_json(self) -> dict[str, Any]:
        def ids(cards: list[SeedCard]) -> list[str]:
            return [c.id for c in cards]

        return {
            "turn": self.turn,
            "current": self.current,
            "loop": self.loop.name,
            "lp": [s.lp for s in self.sides],
            "decks": [ids(s.deck) for s in self.sides],
            "hands": [ids(s.hand) for s in self.sides],
            "boards": [[[c.id, c.power, c.guard] for c in s.board] for s in self.sides],
            "tricks": [ids(s.tricks) for s in self.sides],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
        }

    def _emit(self, kind: str, player: int, hidden: tuple[str, ...] = (), **data: Any) -> None:
        if not self.quiet:
            self._events.append(Event(kind, player, data, hidden))
