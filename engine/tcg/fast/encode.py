"""Between the reference objects and the fast path's arrays.

``encode_observation`` is what search uses: it reads a ``TcgObservation`` only,
so nothing a seat may not see can reach a playout.  ``encode_state`` exists for
the one explicit exception (``mc:K:peek``, the public engine's omniscient
opponent) and for tests; ``view`` reads a state array back into plain Python
so the two paths can be compared field by field, and ``decode_state`` turns a
re-dealt array back into a ``TcgState`` to check it against the observation.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from tcgtui.engine.core import Outcome
from tcgtui.engine.tcg.cards import Pack
from tcgtui.engine.tcg.fast import layout as L
from tcgtui.engine.tcg.observation import TcgObservation
from tcgtui.engine.tcg.redeal import InconsistentObservation, seen_cards
from tcgtui.engine.tcg.state import Champion, TcgState


class _Slots:
    """Hands out, per seat, the program's slots (copies) of each card in turn: whole-pack
    decks have one slot per card, so a card's slot is its pack index."""

    def __init__(self, program: L.Program) -> None:
        self.free = [program.slots(0), program.slots(1)]
        self.used = [dict.fromkeys(self.free[0], 0), dict.fromkeys(self.free[1], 0)]

    def take(self, seat: int, card_ids: Any) -> list[int]:
        out = []
        for cid in card_ids:
            k = self.used[seat].get(cid, 0)
            slots = self.free[seat].get(cid, [])
            if k >= len(slots):
                raise InconsistentObservation(f"more copies of {cid!r} than seat {seat + 1}'s deck holds")
            self.used[seat][cid] = k + 1
            out.append(slots[k])
        return out


def _deck_counts(program: L.Program) -> tuple[dict[str, int], tuple[tuple[int, ...], tuple[int, ...]]]:
    """The cards the program knows (id -> index) and each seat's copies of them."""
    index = {cid: j for j, cid in enumerate(dict.fromkeys(program.card_ids))}
    owned = [[0] * len(index), [0] * len(index)]
    for cid, own in zip(program.card_ids, program.owners):
        for p in (0, 1):
            owned[p][index[cid]] += own >> p & 1
    return index, (tuple(owned[0]), tuple(owned[1]))


def _put_champion(a: np.ndarray, at: int, row: list[int]) -> None:
    a[at : at + L.CHW] = row


def encode_state(state: TcgState, program: L.Program) -> np.ndarray:
    """The whole true state (decks in order included) as one array."""
    n = program.n
    if state.pack.hash != program.pack_hash:
        raise ValueError(f"the state is not a game of pack {program.pack_id!r}")
    ids = [c.id for c in state.cards]
    slots = _Slots(program)
    S = np.zeros(L.state_size(n), dtype=np.int64)
    S[L.S_LP : L.S_LP + 2] = state.lp
    S[L.S_TURN], S[L.S_CUR] = state.turn, state.current
    out = state.outcome
    if out is not None:
        S[L.S_OUT] = L.OUT_DRAW if out.winner is None else 1 + out.winner
        S[L.S_REASON] = {v: k for k, v in L.REASONS.items()}[out.reason]
    for p in (0, 1):
        on_board = slots.take(p, [ids[ch.card] for ch in state.boards[p]])
        for base, field, items in (
            (L.SH + p * n, L.S_DECKN, state.decks[p]),
            (L.SH + (2 + p) * n, L.S_HANDN, state.hands[p]),
            (L.SH + (4 + p) * n, L.S_TRICKN, state.tricks[p]),
            (L.SH + (6 + p) * n, L.S_GRAVEN, state.graves[p]),
        ):
            S[base : base + len(items)] = slots.take(p, [ids[i] for i in items])
            S[field + p] = len(items)
        b = L.SH + 8 * n + p * n * L.CHW
        for k, ch in enumerate(state.boards[p]):
            _put_champion(S, b + k * L.CHW, [on_board[k], *ch.to_json()[1:]])
        S[L.S_BOARDN + p] = len(state.boards[p])
    return S


def observed_slots(
    obs: TcgObservation, program: L.Program
) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:
    """Hand, own tricks, both graves and both boards of ``obs`` as program slots, checked
    against the two decks."""
    index, owned = _deck_counts(program)
    seen_cards(obs, index, program.pack_id, owned)
    me, opp = obs.seat, 1 - obs.seat
    slots = _Slots(program)
    hand, my_tricks = slots.take(me, obs.hand), slots.take(me, obs.my_tricks)
    graves: list[list[int]] = [[], []]
    boards: list[list[int]] = [[], []]
    for p in (me, opp):
        graves[p] = slots.take(p, obs.graves[p])
        boards[p] = slots.take(p, [v.card for v in obs.boards[p]])
    return hand, my_tricks, graves, boards


def encode_observation(obs: TcgObservation, program: L.Program) -> np.ndarray:
    """One seat's view as an array; the fast re-deal fills in everything hidden."""
    n = program.n
    hand, my_tricks, graves, boards = observed_slots(obs, program)
    me = obs.seat
    O = np.zeros(L.obs_size(n), dtype=np.int64)
    O[L.O_SEAT], O[L.O_TURN], O[L.O_CUR] = me, obs.turn, obs.current_player
    O[L.O_LP : L.O_LP + 2] = obs.lp
    O[L.O_OPP_HAND], O[L.O_OPP_TRICKS] = obs.opp_hand_size, obs.opp_trick_count
    O[L.O_DECKN : L.O_DECKN + 2] = obs.deck_sizes
    O[L.OH : L.OH + len(hand)] = hand
    O[L.O_HANDN] = len(hand)
    O[L.OH + n : L.OH + n + len(my_tricks)] = my_tricks
    O[L.O_TRICKN] = len(my_tricks)
    for p in (0, 1):
        g = L.OH + (2 + p) * n
        O[g : g + len(graves[p])] = graves[p]
        O[L.O_GRAVEN + p] = len(graves[p])
        b = L.OH + 4 * n + p * n * L.CHW
        for k, (i, v) in enumerate(zip(boards[p], obs.boards[p])):
            blocked = obs.turn if v.blocked_this_turn else 0
            _put_champion(
                O,
                b + k * L.CHW,
                [i, v.perm_power, v.perm_guard, v.temp_power, v.temp_guard, v.summoned_turn, v.frozen_through, blocked],
            )
        O[L.O_BOARDN + p] = len(obs.boards[p])
    return O


def view(S: np.ndarray, n: int) -> dict[str, Any]:
    """A state array as plain lists, in the shape ``state_view`` gives a ``TcgState``."""

    def seq(base: int, field: int, p: int) -> list[int]:
        return [int(x) for x in S[base : base + S[field + p]]]

    out = int(S[L.S_OUT])
    return {
        "lp": [int(S[L.S_LP]), int(S[L.S_LP + 1])],
        "turn": int(S[L.S_TURN]),
        "current": int(S[L.S_CUR]),
        "outcome": None
        if out == L.OUT_NONE
        else {"winner": None if out == L.OUT_DRAW else out - 1, "reason": L.REASONS[int(S[L.S_REASON])]},
        "decks": [seq(L.SH + p * n, L.S_DECKN, p) for p in (0, 1)],
        "hands": [seq(L.SH + (2 + p) * n, L.S_HANDN, p) for p in (0, 1)],
        "tricks": [seq(L.SH + (4 + p) * n, L.S_TRICKN, p) for p in (0, 1)],
        "graves": [seq(L.SH + (6 + p) * n, L.S_GRAVEN, p) for p in (0, 1)],
        "boards": [
            [[int(x) for x in S[L.SH + 8 * n + p * n * L.CHW + k * L.CHW :][: L.CHW]] for k in range(S[L.S_BOARDN + p])]
            for p in (0, 1)
        ],
    }


def state_view(state: TcgState) -> dict[str, Any]:
    """A reference state in the same shape as ``view``."""
    out = state.outcome
    return {
        "lp": list(state.lp),
        "turn": state.turn,
        "current": state.current,
        "outcome": None if out is None else out.to_json(),
        "decks": [list(d) for d in state.decks],
        "hands": [list(h) for h in state.hands],
        "tricks": [list(t) for t in state.tricks],
        "graves": [list(g) for g in state.graves],
        "boards": [[c.to_json() for c in b] for b in state.boards],
    }


def decode_state(S: np.ndarray, pack: Pack) -> TcgState:
    """A reference state from an array (its future shuffles drawn from a fresh RNG)."""
    v = view(S, len(pack.cards))
    s = TcgState.__new__(TcgState)
    s.pack, s.cards, s.rules = pack, pack.cards, pack.rules
    s.lp, s.turn, s.current = v["lp"], v["turn"], v["current"]
    s.decks, s.hands, s.tricks, s.graves = v["decks"], v["hands"], v["tricks"], v["graves"]
    s.boards = [[], []]
    for p in (0, 1):
        for card, power, guard, tpower, tguard, summoned, frozen, blocked in v["boards"][p]:
            ch = Champion(card, power, guard, summoned)
            ch.temp_power, ch.temp_guard, ch.frozen_through, ch.blocked_turn = tpower, tguard, frozen, blocked
            s.boards[p].append(ch)
    out = v["outcome"]
    s._outcome = None if out is None else Outcome(out["winner"], out["reason"])
    s._depth, s._events, s.start_events = 0, [], []
    s.rng = random.Random(0)
    return s
