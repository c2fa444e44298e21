"""The card game's rules: the reference implementation every other path is tested against.

The turn: draw one card, play exactly one card from hand, then combat (every
turn, spells included), then end-of-turn effects.  A move is the id of a card
in hand, so the branching factor is the hand size (about 3 to 4).  When the
player to move has no cards, the engine plays that turn's draw and combat by
itself, so ``current_player`` always has a choice until the game ends.
"""

from __future__ import annotations

import random
from typing import Any

from tcgtui.engine.core import Event, GameState, IllegalMove, Outcome
from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.observation import ChampionView, TcgObservation


class Champion:
    """A champion on the board: its card and everything that changed about it."""

    __slots__ = (
        "card",
        "power",
        "guard",
        "temp_power",
        "temp_guard",
        "summoned_turn",
        "frozen_through",
        "blocked_turn",
    )

    def __init__(self, card: int, power: int, guard: int, turn: int) -> None:
        self.card = card
        self.power = power
        self.guard = guard
        self.temp_power = 0
        self.temp_guard = 0
        self.summoned_turn = turn
        self.frozen_through = 0  # cannot attack on turns up to and including this one
        self.blocked_turn = 0  # the turn in which it last blocked

    def copy(self) -> Champion:
        c = Champion.__new__(Champion)
        c.card, c.power, c.guard = self.card, self.power, self.guard
        c.temp_power, c.temp_guard = self.temp_power, self.temp_guard
        c.summoned_turn, c.frozen_through, c.blocked_turn = (self.summoned_turn, self.frozen_through, self.blocked_turn)
        return c

    @property
    def cur_power(self) -> int:
        return max(0, self.power + self.temp_power)

    @property
    def cur_guard(self) -> int:
        return max(0, self.guard + self.temp_guard)

    def to_json(self) -> list[int]:
        return [
            self.card,
            self.power,
            self.guard,
            self.temp_power,
            self.temp_guard,
            self.summoned_turn,
            self.frozen_through,
            self.blocked_turn,
        ]


class _Attack:
    """One attack being resolved; reactions may add blockers or stop it."""

    __slots__ = ("attacker", "owner", "block_count", "cancelled")

    def __init__(self, attacker: Champion, owner: int) -> None:
        self.attacker, self.owner = attacker, owner
        self.block_count = 1
        self.cancelled = False


class _Ctx:
    """Where an effect comes from and what it may refer to."""

    __slots__ = ("owner", "source", "champion", "attack", "blockers", "spell")

    def __init__(
        self,
        owner: int,
        source: int,
        champion: Champion | None = None,
        attack: _Attack | None = None,
        blockers: list[Champion] | None = None,
        spell: int = -1,
    ) -> None:
        self.owner, self.source, self.champion = owner, source, champion
        self.attack, self.blockers, self.spell = attack, blockers, spell


class TcgState(GameState[str]):
    """The true state of one game.  Agents never see this object, only observations."""

    __slots__ = (
        "pack",
        "cards",
        "rules",
        "lp",
        "decks",
        "hands",
        "tricks",
        "boards",
        "graves",
        "turn",
        "current",
        "_outcome",
        "rng",
        "_events",
        "_depth",
        "start_events",
    )
    pack: C.Pack
    cards: tuple[C.Card, ...]
    rules: C.Rules
    lp: list[int]
    decks: list[list[int]]  # per seat, pack indices; the end of a list is its top
    hands: list[list[int]]
    tricks: list[list[int]]
    boards: list[list[Champion]]
    graves: list[list[int]]
    turn: int
    current: int
    _outcome: Outcome | None
    rng: random.Random
    _events: list[Event]
    _depth: int
    start_events: list[Event]

    # --- construction -----------------------------------------------------------------

    @classmethod
    def new(cls, pack: C.Pack, seed: int, decks: tuple[list[int], list[int]] | None = None) -> TcgState:
        """A fresh deal; ``decks`` are the two players' cards as pack indices (default: the whole pack)."""
        s = cls.__new__(cls)
        s.pack, s.cards, s.rules = pack, pack.cards, pack.rules
        s.rng = random.Random(seed)
        n = len(pack.cards)
        s.decks = [list(range(n)), list(range(n))] if decks is None else [list(decks[0]), list(decks[1])]
        for deck in s.decks:
            s.rng.shuffle(deck)
        s.lp = [pack.rules.starting_lp] * 2
        s.hands, s.tricks, s.boards, s.graves = [[], []], [[], []], [[], []], [[], []]
        s.turn, s.current, s._outcome, s._depth = 0, 1, None, 0
        s._events = []
        for p in (0, 1):
            s._draw(p, pack.rules.opening_hand)
        s._next_turn()
        s.start_events = s._events
        s._events = []
        return s

    def clone(self) -> TcgState:
        s = TcgState.__new__(TcgState)
        s.pack, s.cards, s.rules = self.pack, self.cards, self.rules
        s.lp = self.lp[:]
        s.decks = [self.decks[0][:], self.decks[1][:]]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.tricks = [self.tricks[0][:], self.tricks[1][:]]
        s.graves = [self.graves[0][:], self.graves[1][:]]
        s.boards = [[c.copy() for c in self.boards[0]], [c.copy() for c in self.boards[1]]]
        s.turn, s.current, s._outcome, s._depth = self.turn, self.current, self._outcome, 0
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s._events = []
        s.start_events = []
        return s

    # --- the GameState interface ----------------------------------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self._outcome is not None else self.current

    def legal_moves(self) -> list[str]:
        if self._outcome is not None:
            return []
        cards = self.cards
        return list(dict.fromkeys(cards[i].id for i in self.hands[self.current]))  # copies: one move

    def is_terminal(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def apply(self, move: str) -> list[Event]:
        if self._outcome is not None:
            raise IllegalMove("the game is over")
        p = self.current
        idx = self.pack.index.get(move)  # type: ignore[attr-defined]
        if idx is None or idx not in self.hands[p]:
            raise IllegalMove(f"{move!r} is not in player {p + 1}'s hand")
        self._events = []
        self.hands[p].remove(idx)
        self._play(p, idx)
        if self._outcome is None:
            self._combat(p)
        if self._outcome is None:
            self._end_turn(p)
        while self._outcome is None:
            self._next_turn()
            if self._outcome is not None or self.hands[self.current]:
                break
            q = self.current
            self._emit("no_cards", q)
            self._combat(q)
            if self._outcome is None:
                self._end_turn(q)
        events, self._events = self._events, []
        return events

    def observation(self, seat: int) -> TcgObservation:
        cards = self.cards
        opp = 1 - seat

        def views(p: int) -> tuple[ChampionView, ...]:
            return tuple(
                ChampionView(
                    card=cards[c.card].id,
                    power=c.cur_power,
                    guard=c.cur_guard,
                    base_power=cards[c.card].power,
                    base_guard=cards[c.card].guard,
                    perm_power=c.power,
                    perm_guard=c.guard,
                    temp_power=c.temp_power,
                    temp_guard=c.temp_guard,
                    summoned_turn=c.summoned_turn,
                    frozen=c.frozen_through >= (self.turn if p == self.current else self.turn + 1),
                    can_attack=self._may_attack(c, p) if p == self.current else False,
                    blocked_this_turn=c.blocked_turn == self.turn,
                    frozen_through=c.frozen_through,
                )
                for c in self.boards[p]
            )

        return TcgObservation(
            seat=seat,
            pack_id=self.pack.id,
            turn=self.turn,
            turn_limit=self.rules.turn_limit,
            current_player=self.current_player,
            lp=(self.lp[0], self.lp[1]),
            hand=tuple(cards[i].id for i in self.hands[seat]),
            my_tricks=tuple(cards[i].id for i in self.tricks[seat]),
            opp_hand_size=len(self.hands[opp]),
            opp_trick_count=len(self.tricks[opp]),
            deck_sizes=(len(self.decks[0]), len(self.decks[1])),
            boards=(views(0), views(1)),
            graves=(tuple(cards[i].id for i in self.graves[0]), tuple(cards[i].id for i in self.graves[1])),
            legal_moves=tuple(self.legal_moves()) if self.current == seat else (),
            outcome=self._outcome,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "current": self.current,
            "lp": self.lp,
            "decks": self.decks,
            "hands": self.hands,
            "tricks": self.tricks,
            "graves": self.graves,
            "boards": [[c.to_json() for c in b] for b in self.boards],
            "outcome": None if self._outcome is None else self._outcome.to_json(),
            "rng": list(self.rng.getstate()[1][:4]),
        }

    # --- helpers ---------------------------------------------------------------------------

    def _emit(self, kind: str, player: int, hidden: tuple[str, ...] = (), **data: Any) -> None:
        self._events.append(Event(kind, player, data, hidden))

    def _id(self, idx: int) -> str:
        return self.cards[idx].id

    def _next_turn_of(self, p: int) -> int:
        """The number of ``p``'s next turn that has not started yet."""
        return self.turn + (2 if p == self.current else 1)

    def _may_attack(self, ch: Champion, p: int) -> bool:
        card = self.cards[ch.card]
        if C.CANNOT_ATTACK in card.keywords or ch.cur_power <= 0:
            return False
        if ch.frozen_through >= self.turn:
            return False
        return ch.summoned_turn != self.turn or C.HASTE in card.keywords

    def _finish(self, winner: int | None, reason: str) -> None:
        self._outcome = Outcome(winner, reason)
        self._emit("game_over", -1 if winner is None else winner, reason=reason, lp=self.lp[:])

    # --- turn structure --------------------------------------------------------------------

    def _next_turn(self) -> None:
        self.turn += 1
        self.current = p = 1 - self.current
        self._emit("turn", p, turn=self.turn)
        self._react(p, C.START_OF_YOUR_TURN, _Ctx(p, -1))
        if self._outcome is None:
            self._draw(p, 1)

    def _end_turn(self, p: int) -> None:
        self._react(p, C.END_OF_YOUR_TURN, _Ctx(p, -1))
        if self._outcome is not None:
            return
        for board in self.boards:
            for ch in board:
                ch.temp_power = ch.temp_guard = 0
        self._emit("end_turn", p, turn=self.turn)
        if self.turn >= self.rules.turn_limit:
            a, b = self.lp
            self._finish(None if a == b else (0 if a > b else 1), "turn_limit")

    def _play(self, p: int, idx: int) -> None:
        card = self.cards[idx]
        if card.type == C.CHAMPION:
            self._emit("summon", p, card=card.id)
            ch = Champion(idx, card.power, card.guard, self.turn)
            self.boards[p].append(ch)
            for ab in card.abilities:
                if ab.when == C.ON_SUMMON:
                    self._run_ability(p, idx, ab, _Ctx(p, idx, champion=ch))
        elif card.type == C.SPELL:
            self._emit("cast", p, card=card.id)
            self._resolve(card.effects, _Ctx(p, idx, spell=idx))
            self.graves[p].append(idx)
            if self._outcome is None:
                self._react(p, C.YOU_CAST_SPELL, _Ctx(p, -1, spell=idx))
        else:
            self.tricks[p].append(idx)
            self._emit("set_trick", p, hidden=("card",), card=card.id)

    def _draw(self, p: int, n: int) -> int:
        deck, hand = self.decks[p], self.hands[p]
        drawn = 0
        for _ in range(n):
            if not deck:
                self._emit("deck_empty", p)
                break
            idx = deck.pop()
            hand.append(idx)
            drawn += 1
            self._emit("draw", p, hidden=("card",), card=self.cards[idx].id)
        return drawn

    # --- combat ----------------------------------------------------------------------------

    def _combat(self, p: int) -> None:
        board = self.boards[p]
        attackers = [ch for ch in board if self._may_attack(ch, p)]
        for ch in attackers:
            times = 2 if C.ATTACKS_TWICE in self.cards[ch.card].keywords else 1
            for _ in range(times):
                if self._outcome is not None or ch not in board or not self._may_attack(ch, p):
                    break
                self._attack(p, ch)
            if self._outcome is not None:
                return

    def _attack(self, p: int, ch: Champion) -> None:
        q = 1 - p
        self._emit("attack", p, card=self._id(ch.card), power=ch.cur_power)
        atk = _Attack(ch, p)
        self._react(q, C.ENEMY_ATTACKS, _Ctx(q, -1, attack=atk))
        if self._stopped(atk, p):
            return
        free = [b for b in self.boards[q] if b.blocked_turn != self.turn]
        free.sort(key=lambda b: -b.cur_guard)  # stable: earliest summoned wins ties
        blockers = free[: atk.block_count]
        if not blockers:
            self._react(q, C.ATTACKED_DIRECTLY, _Ctx(q, -1, attack=atk))
            if self._stopped(atk, p):
                return
            self._damage(q, ch.cur_power, ch.card)
            return
        for b in blockers:
            b.blocked_turn = self.turn
        self._emit("block", q, attacker=self._id(ch.card), blockers=[self._id(b.card) for b in blockers])
        card = self.cards[ch.card]
        for ab in card.abilities:
            if ab.when == C.THIS_BLOCKED:
                self._run_ability(p, ch.card, ab, _Ctx(p, ch.card, champion=ch, blockers=blockers))
        if self._stopped(atk, p):
            return
        power = ch.cur_power
        guard = sum(b.cur_guard for b in blockers if b in self.boards[q])
        if power > guard:
            for b in blockers:
                self._destroy(q, b)
            if self._outcome is None and power - guard > 0:
                self._damage(q, power - guard, ch.card)
        else:
            self._destroy(p, ch)

    def _stopped(self, atk: _Attack, p: int) -> bool:
        if self._outcome is not None:
            return True
        if atk.attacker not in self.boards[p]:
            return True
        if atk.cancelled:
            self._emit("attack_stopped", p, card=self._id(atk.attacker.card))
            return True
        return False

    # --- damage and reactions --------------------------------------------------------------

    def _damage(self, q: int, amount: int, source: int) -> bool:
        if amount <= 0:
            return False
        self.lp[q] -= amount
        self._emit("damage", q, amount=amount, lp=self.lp[q], source=self._id(source) if source >= 0 else None)
        if self.lp[q] <= 0:
            self._finish(1 - q, "lp")
            return True
        self._react(q, C.YOU_TAKE_DAMAGE, _Ctx(q, -1))
        return True

    def _react(self, p: int, when: str, ctx: _Ctx) -> None:
        """Champions' abilities (in board order), then tricks (in the order set)."""
        if self._outcome is not None or self._depth >= C.MAX_CHAIN:
            return
        whens = C.DAMAGE_TRIGGERS if when == C.YOU_TAKE_DAMAGE else (when,)
        for ch in list(self.boards[p]):
            for ab in self.cards[ch.card].abilities:
                if ab.when in whens and self._condition(p, ab) and ch in self.boards[p]:
                    self._run_ability(p, ch.card, ab, _Ctx(p, ch.card, ch, ctx.attack, None, ctx.spell))
                    if self._outcome is not None:
                        return
        for idx in list(self.tricks[p]):
            trigger = self.cards[idx].trigger
            if trigger is not None and trigger.when in whens and self._condition(p, trigger) and idx in self.tricks[p]:
                self.tricks[p].remove(idx)
                self.graves[p].append(idx)
                self._emit("trick", p, card=self._id(idx))
                self._run_ability(p, idx, trigger, _Ctx(p, idx, None, ctx.attack, None, ctx.spell))
                if self._outcome is not None:
                    return

    def _condition(self, p: int, ab: C.Ability) -> bool:
        if ab.when == C.YOUR_LP_BELOW:
            return self.lp[p] < ab.n
        if ab.when == C.YOUR_LP_EXACTLY:
            return self.lp[p] == ab.n
        return True

    def _run_ability(self, p: int, idx: int, ab: C.Ability, ctx: _Ctx) -> None:
        if self._depth >= C.MAX_CHAIN:
            return
        if self.cards[idx].type == C.CHAMPION:
            self._emit("ability", p, card=self._id(idx), when=ab.when)
        self._depth += 1
        try:
            self._resolve(ab.effects, ctx)
        finally:
            self._depth -= 1

    # --- effects ---------------------------------------------------------------------------

    def _resolve(self, effects: tuple[C.Effect, ...], ctx: _Ctx) -> None:
        done = True
        for eff in effects:
            if self._outcome is not None:
                return
            if eff.if_done and not done:
                continue
            done = self._effect(eff, ctx)

    def _targets(self, target: str, ctx: _Ctx) -> list[tuple[int, Champion]]:
        p = ctx.owner
        if target == C.THIS:
            ch = ctx.champion
            return [(p, ch)] if ch is not None and ch in self.boards[p] else []
        if target == C.ATTACKER:
            atk = ctx.attack
            if atk is None or atk.attacker not in self.boards[atk.owner]:
                return []
            return [(atk.owner, atk.attacker)]
        if target == C.BLOCKERS:
            q = 1 - p
            return [(q, b) for b in (ctx.blockers or []) if b in self.boards[q]]
        if target == "all_yours":
            return [(p, c) for c in self.boards[p]]
        if target == "all_enemies":
            return [(1 - p, c) for c in self.boards[1 - p]]
        side, _, pick = target.partition("_")
        q = p if side == "your" else 1 - p
        board = self.boards[q]
        if not board:
            return []
        if pick == "oldest":
            return [(q, board[0])]
        if pick == "newest":
            return [(q, board[-1])]
        order, stat = pick.split("_")
        key = (lambda c: c.cur_guard) if stat == "guard" else (lambda c: c.cur_power)
        best = min(board, key=key) if order == "lowest" else max(board, key=key)
        return [(q, best)]  # min/max return the first of equals: earliest summoned

    def _effect(self, eff: C.Effect, ctx: _Ctx) -> bool:
        p, do = ctx.owner, eff.do
        if do == C.DAMAGE:
            return self._damage(1 - p if eff.to == C.OPPONENT else p, eff.amount, ctx.source)
        if do == C.HEAL:
            self.lp[p] += eff.amount
            self._emit(
                "heal", p, amount=eff.amount, lp=self.lp[p], source=self._id(ctx.source) if ctx.source >= 0 else None
            )
            return True
        if do == C.DRAW:
            return self._draw(p, eff.amount) > 0
        if do == C.SHUFFLE_HAND:
            hand = self.hands[p]
            count = len(hand)
            self.decks[p].extend(hand)
            hand.clear()
            self.rng.shuffle(self.decks[p])
            self._emit("shuffle_hand", p, count=count)
            return count > 0
        if do == C.REPEAT_SPELL:
            if ctx.spell < 0:
                return False
            self._emit("repeat", p, card=self._id(ctx.spell))
            self._resolve(self.cards[ctx.spell].effects, _Ctx(p, ctx.spell, spell=ctx.spell))
            return True
        if do == C.BLOCK_WITH:
            if ctx.attack is None:
                return False
            ctx.attack.block_count = max(ctx.attack.block_count, eff.amount)
            return True
        if do == C.CANCEL_ATTACK:
            if ctx.attack is None:
                return False
            ctx.attack.cancelled = True
            return True
        targets = self._targets(eff.target, ctx)
        for q, ch in targets:
            name = self._id(ch.card)
            if do == C.BUFF:
                if eff.until == C.PERMANENT:
                    if eff.stat == C.POWER:
                        ch.power += eff.amount
                    else:
                        ch.guard += eff.amount
                elif eff.stat == C.POWER:
                    ch.temp_power += eff.amount
                else:
                    ch.temp_guard += eff.amount
                self._emit(
                    "buff",
                    q,
                    card=name,
                    stat=eff.stat,
                    amount=eff.amount,
                    until=eff.until,
                    power=ch.cur_power,
                    guard=ch.cur_guard,
                )
            elif do == C.DESTROY:
                self._destroy(q, ch)
            elif do == C.FREEZE:
                ch.frozen_through = max(ch.frozen_through, self._next_turn_of(q))
                self._emit("freeze", q, card=name, until_turn=ch.frozen_through)
        return bool(targets)

    def _destroy(self, q: int, ch: Champion) -> None:
        board = self.boards[q]
        if ch in board:
            board.remove(ch)
            self.graves[q].append(ch.card)
            self._emit("destroy", q, card=self._id(ch.card))
