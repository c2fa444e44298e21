"""Re-dealing: build a true state that agrees with one seat's observation.

Search must not peek.  Everything the observer cannot see (the opponent's hand
and face-down tricks, the order of both decks, the game's future shuffles) is
drawn afresh from the searcher's own RNG; everything it can see is copied.
"""

from __future__ import annotations

import random
from collections import Counter

from tcgtui.engine.tcg import cards as C
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.engine.tcg.state import Champion, TcgState


class InconsistentObservation(ValueError):
    """The observation does not fit the pack (wrong pack, or a corrupted view)."""


Indices = list[int]
Owned = tuple[tuple[int, ...], tuple[int, ...]]


def left_over(owned: tuple[int, ...] | None, n: int, seen: list[int]) -> list[int]:
    """Copies per card of a deck (``owned``; None: one each of ``n``) not among ``seen``."""
    left = list(owned) if owned is not None else [1] * n
    for i in seen:
        left[i] -= 1
    return left


def seen_cards(
    obs: TcgObservation, index: dict[str, int], pack_id: str, owned: Owned | None = None
) -> tuple[Indices, Indices, list[Indices], list[Indices]]:
    """The cards ``obs`` shows (hand, own tricks, both graves, both boards) as pack
    indices, after checking that they and the card counts fit the decks (``owned``:
    copies per card and seat; None: one copy each of a pack of ``len(index)``)."""
    if obs.outcome is not None:
        raise InconsistentObservation("the game is over; there is nothing to search")
    try:
        hand = [index[c] for c in obs.hand]
        my_tricks = [index[c] for c in obs.my_tricks]
        graves = [[index[c] for c in g] for g in obs.graves]
        boards = [[index[v.card] for v in b] for b in obs.boards]
    except KeyError as exc:
        raise InconsistentObservation(f"card {exc.args[0]!r} is not in pack {pack_id!r}") from None
    n, me, opp = len(index), obs.seat, 1 - obs.seat
    mine = left_over(owned[me] if owned else None, n, hand + my_tricks + graves[me] + boards[me])
    if min(mine) < 0 or sum(mine) != obs.deck_sizes[me]:
        raise InconsistentObservation("own deck size does not match the pack")
    theirs = left_over(owned[opp] if owned else None, n, graves[opp] + boards[opp])
    if min(theirs) < 0 or sum(theirs) != obs.opp_hand_size + obs.opp_trick_count + obs.deck_sizes[opp]:
        raise InconsistentObservation("opponent card counts do not match the pack")
    return hand, my_tricks, graves, boards


def determinize(obs: TcgObservation, pack: C.Pack, rng: random.Random, owned: Owned | None = None) -> TcgState:
    """A state drawn uniformly from those consistent with ``obs`` (card-count wise);
    ``owned``: copies per card in each seat's deck (None: the whole pack, once)."""
    n = len(pack.cards)
    me, opp = obs.seat, 1 - obs.seat
    hand, my_tricks, graves, on_board = seen_cards(obs, pack.index, pack.id, owned)  # type: ignore[attr-defined]
    mine = left_over(owned[me] if owned else None, n, hand + my_tricks + graves[me] + on_board[me])
    my_deck = [i for i in range(n) for _ in range(mine[i])]
    rng.shuffle(my_deck)

    theirs = left_over(owned[opp] if owned else None, n, graves[opp] + on_board[opp])
    unseen = [i for i in range(n) for _ in range(theirs[i])]
    trick_pool = [i for i in unseen if pack.cards[i].type == C.TRICK]
    if len(trick_pool) < obs.opp_trick_count:
        raise InconsistentObservation("more face-down tricks than unseen trick cards")
    opp_tricks = rng.sample(trick_pool, obs.opp_trick_count)
    taken = Counter(opp_tricks)
    rest = []
    for i in unseen:
        if taken[i]:
            taken[i] -= 1
        else:
            rest.append(i)
    rng.shuffle(rest)
    opp_hand, opp_deck = rest[: obs.opp_hand_size], rest[obs.opp_hand_size :]

    s = TcgState.__new__(TcgState)
    s.pack, s.cards, s.rules = pack, pack.cards, pack.rules
    s.lp = list(obs.lp)
    s.decks, s.hands, s.tricks = [[], []], [[], []], [[], []]
    s.decks[me], s.decks[opp] = my_deck, opp_deck
    s.hands[me], s.hands[opp] = hand, opp_hand
    s.tricks[me], s.tricks[opp] = my_tricks, opp_tricks
    s.graves = [graves[0][:], graves[1][:]]
    s.boards = [[], []]
    for p in (0, 1):
        for i, v in zip(on_board[p], obs.boards[p]):
            ch = Champion(i, v.perm_power, v.perm_guard, v.summoned_turn)
            ch.temp_power, ch.temp_guard = v.temp_power, v.temp_guard
            ch.frozen_through = v.frozen_through
            ch.blocked_turn = obs.turn if v.blocked_this_turn else 0
            s.boards[p].append(ch)
    s.turn, s.current, s._outcome, s._depth = obs.turn, obs.current_player, None, 0
    s.rng = random.Random(rng.getrandbits(64))
    s._events, s.start_events = [], []
    return s
