"""Why more playouts stop helping: variants of flat Monte Carlo played against each other in numba.

The measurements behind docs/ladder.md (``scripts/mc_saturation.py`` runs them).
Each variant changes one thing about ``mc:K`` (``kernel.mc_games``): what the
searcher may see (the true state, or both hands but not the deck orders),
which re-deals the moves share, or who plays the playouts (a greedy one-turn
look-ahead, or flat Monte Carlo itself, playing on the playout's world or
re-dealing it as a real player would).  Whole games run here, with no agent,
store or event loop in the way, so a hundred games of ``mc:1000`` take a
minute or two on one core.

This module is not cached by numba (``cache=False``): numba checks a cached
function against its own file only, and the rules it calls live in
``kernel.py``; compiling takes some seconds per run instead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tcgtui.engine.tcg.fast.kernel import (
    apply_move,
    card_row,
    cur_guard,
    cur_power,
    deal,
    determinize,
    inner_choice,
    obs_len,
    observe,
    playout,
    rng_below,
    rng_next,
    rng_seed,
    shuffle,
    state_len,
    work_len,
)
from tcgtui.engine.tcg.fast.layout import (
    C_CARD,
    OUT_DRAW,
    OUT_NONE,
    P_N,
    S_BOARDN,
    S_CUR,
    S_DECKN,
    S_HANDN,
    S_LP,
    S_OUT,
    SH,
)

study = njit(cache=False, nogil=True)

# the variants (``duel``'s ``kinds``)
MC, PEEK, HANDS, HEAVY, NESTED, PAIRED, HALVING, HONEST = range(8)
KINDS = {
    "mc": MC,
    "peek": PEEK,
    "hands": HANDS,
    "heavy": HEAVY,
    "nested": NESTED,
    "paired": PAIRED,
    "halving": HALVING,
    "honest": HONEST,
}
BIG = 1.0e6
_UNIT = 1.0 / 9007199254740992.0  # 2**-53: 53 random bits to a float in [0, 1)


@study
def evaluate(S, n, p):
    """A position from seat ``p``'s side: life, board (power, half the guard) and hand differences."""
    o = S[S_OUT]
    if o != OUT_NONE:
        return 0.0 if o == OUT_DRAW else (BIG if o == 1 + p else -BIG)
    q = 1 - p
    v = float(S[S_LP + p] - S[S_LP + q]) + 0.5 * (S[S_HANDN + p] - S[S_HANDN + q])
    for side in range(2):
        sign = 1.0 if side == p else -1.0
        for k in range(S[S_BOARDN + side]):
            v += sign * (cur_power(S, n, side, k) + 0.5 * cur_guard(S, n, side, k))
    return v


@study
def greedy_card(P, S, T, W, rs, n, eps):
    """With probability ``eps`` a random card, else the one whose turn leaves the best ``evaluate``."""
    p = S[S_CUR]
    h = SH + (2 + p) * n
    hn = S[S_HANDN + p]
    if hn == 1:
        return S[h]
    if eps > 0.0 and (rng_next(rs) >> np.uint64(11)) * _UNIT < eps:
        return S[h + rng_below(rs, hn)]
    best = S[h]
    best_v = -1.0e18
    for t in range(hn):
        T[:] = S
        apply_move(P, T, W, rs, n, S[h + t])
        v = evaluate(T, n, p)
        if v > best_v:
            best_v = v
            best = S[h + t]
    return best


@study
def repeated(P, S, h, t):
    """Whether the card at hand position ``t`` (the hand starting at ``S[h]``) is a copy of an
    earlier one: copies are one move, tried once."""
    for u in range(t):
        if P[card_row(P, S[h + u]) + C_CARD] == P[card_row(P, S[h + t]) + C_CARD]:
            return True
    return False


@study
def honest_choice(P, S, T, O, W, rs, n, k):
    """``mc:k`` inside a playout as a real player is: each of its playouts re-deals what the
    mover's seat cannot see of world ``S`` (``inner_choice`` plays on ``S`` itself, so it knows
    the deck orders and the other hand of the world it is in); a second copy of a card is not
    tried again.  ``T`` and ``O`` are scratch."""
    p = S[S_CUR]
    h = SH + (2 + p) * n
    hn = S[S_HANDN + p]
    if hn == 1:
        return S[h]
    observe(S, O, n, p)
    best = S[h]
    best_v = -1.0
    for t in range(hn):
        c = S[h + t]
        if repeated(P, S, h, t):
            continue
        v = 0.0
        for _ in range(k):
            determinize(P, O, T, W, rs, n)
            apply_move(P, T, W, rs, n, c)
            o = playout(P, T, W, rs, n)
            v += 1.0 if o == 1 + p else (0.5 if o == OUT_DRAW else 0.0)
        v += 1e-3 * np.float64(rng_next(rs) >> np.uint64(11)) * _UNIT
        if v > best_v:
            best_v = v
            best = c
    return best


@study
def halving_choice(P, O, S, T, W, rs, n, k, arg, truth, vals):
    """Nested playouts (``arg`` random playouts per card inside) spread by sequential halving:
    the budget of k playouts per distinct card goes in rounds to the better half of the cards
    still in, and playout j of every card starts from the same re-deal (j counts across rounds)."""
    me = O[0]
    h = SH + (2 + me) * n
    hn = truth[S_HANDN + me]
    alive = np.zeros(hn, dtype=np.int64)
    m = 0
    for t in range(hn):
        vals[t] = -1.0
        if not repeated(P, truth, h, t):
            alive[m] = t
            m += 1
    if m == 1:
        return truth[h + alive[0]]
    total = np.zeros(hn)
    count = np.zeros(hn)
    rounds = 0
    left = m
    while left > 1:
        rounds += 1
        left = (left + 1) // 2
    budget = k * m
    base = np.int64(rng_next(rs) >> np.uint64(1))
    rd = np.zeros(1, dtype=np.uint64)
    done = 0
    left = m
    while True:
        each = max(1, budget // (left * rounds))
        for i in range(left):
            t = alive[i]
            c = truth[h + t]
            for j in range(done, done + each):
                rng_seed(rd, base, 0, j)
                determinize(P, O, S, W, rd, n)
                apply_move(P, S, W, rd, n, c)
                while S[S_OUT] == OUT_NONE:
                    apply_move(P, S, W, rd, n, inner_choice(P, S, T, W, rd, n, arg))
                o = S[S_OUT]
                total[t] += 1.0 if o == 1 + me else (0.5 if o == OUT_DRAW else 0.0)
                count[t] += 1.0
        done += each
        # the better half stays (insertion sort of the survivors by mean, best first)
        for i in range(1, left):
            t = alive[i]
            u = i
            while u > 0 and total[alive[u - 1]] / count[alive[u - 1]] < total[t] / count[t]:
                alive[u] = alive[u - 1]
                u -= 1
            alive[u] = t
        left = (left + 1) // 2
        if left == 1:  # the last round was between two
            break
    for t in range(hn):
        if count[t] > 0:
            vals[t] = total[t] / count[t]
    return truth[h + alive[0]]


@study
def flat_choice(P, O, S, T, O2, W, rs, n, kind, k, arg, eps, truth, vals):
    """One variant's decision for the seat of observation ``O``: k playouts per distinct card.
    ``truth`` is read only by PEEK and HANDS (and for the hand, which ``O`` holds too).
    ``vals[t]`` gets hand position t's mean score (-1 for a second copy of a card); ``O2`` is
    scratch for the players inside HONEST's playouts."""
    if kind == HALVING:
        return halving_choice(P, O, S, T, W, rs, n, k, arg, truth, vals)
    me = O[0]
    h = SH + (2 + me) * n
    hn = truth[S_HANDN + me]
    best = truth[h]
    best_v = -1.0
    paired = np.int64(rng_next(rs) >> np.uint64(1)) if kind == PAIRED else 0
    for t in range(hn):
        c = truth[h + t]
        vals[t] = -1.0
        if repeated(P, truth, h, t):
            continue
        v = 0.0
        for j in range(k):
            if kind == PAIRED:
                rng_seed(rs, paired, 0, j)  # playout j of every card on the same re-deal
            if kind == PEEK or kind == HANDS:
                S[:] = truth
                if kind == HANDS:
                    for q in range(2):
                        shuffle(S, SH + q * n, S[S_DECKN + q], rs)
            else:
                determinize(P, O, S, W, rs, n)
            apply_move(P, S, W, rs, n, c)
            if kind == HEAVY:
                while S[S_OUT] == OUT_NONE:
                    apply_move(P, S, W, rs, n, greedy_card(P, S, T, W, rs, n, eps))
            elif kind == NESTED:
                while S[S_OUT] == OUT_NONE:
                    apply_move(P, S, W, rs, n, inner_choice(P, S, T, W, rs, n, arg))
            elif kind == HONEST:
                while S[S_OUT] == OUT_NONE:
                    apply_move(P, S, W, rs, n, honest_choice(P, S, T, O2, W, rs, n, arg))
            else:
                playout(P, S, W, rs, n)
            o = S[S_OUT]
            v += 1.0 if o == 1 + me else (0.5 if o == OUT_DRAW else 0.0)
        vals[t] = v / k
        if v > best_v:
            best_v = v
            best = c
    return best


@study
def duel(P, kinds, ks, args, epss, seed, first, count, salt, out):
    """Games ``first..`` from deals on streams (seed, g); player 0 sits in seat g % 2.  The searchers
    draw from their own stream (seed + salt, g), so the same deals can be replayed with other
    search noise.  ``out[g - first]``: player 0's score (1, 1/2, 0)."""
    n = P[P_N]
    G = np.zeros(state_len(n), dtype=np.int64)
    S = np.zeros(state_len(n), dtype=np.int64)
    T = np.zeros(state_len(n), dtype=np.int64)
    O = np.zeros(obs_len(n), dtype=np.int64)
    O2 = np.zeros(obs_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    ra = np.zeros(1, dtype=np.uint64)
    vals = np.zeros(n)
    for g in range(first, first + count):
        rng_seed(rs, seed, g, 2)
        rng_seed(ra, seed + salt, g, 3)
        deal(P, G, W, rs, n)
        while G[S_OUT] == OUT_NONE:
            p = G[S_CUR]
            c = G[SH + (2 + p) * n]
            if G[S_HANDN + p] > 1:
                who = 0 if p == g % 2 else 1
                observe(G, O, n, p)
                c = flat_choice(P, O, S, T, O2, W, ra, n, kinds[who], ks[who], args[who], epss[who], G, vals)
            apply_move(P, G, W, rs, n, c)
        o = G[S_OUT]
        out[g - first] = 0.5 if o == OUT_DRAW else (1.0 if o == 1 + g % 2 else 0.0)


@study
def agreement(P, k1, k2, seed, first, count, out):
    """mc:k1 self-play from deals (seed, g); at each decision between two or more distinct cards,
    mc:k1's choice on two independent streams and mc:k2's on a third.  ``out``: decisions, k1
    agreeing with itself, k1 agreeing with k2, and the sum of mc:k2's gap between its best two."""
    n = P[P_N]
    G = np.zeros(state_len(n), dtype=np.int64)
    S = np.zeros(state_len(n), dtype=np.int64)
    T = np.zeros(state_len(n), dtype=np.int64)
    O = np.zeros(obs_len(n), dtype=np.int64)
    O2 = np.zeros(obs_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    ra = np.zeros(1, dtype=np.uint64)
    v1 = np.zeros(n)
    v2 = np.zeros(n)
    for g in range(first, first + count):
        rng_seed(rs, seed, g, 2)
        rng_seed(ra, seed, g, 3)
        deal(P, G, W, rs, n)
        while G[S_OUT] == OUT_NONE:
            p = G[S_CUR]
            observe(G, O, n, p)
            a = flat_choice(P, O, S, T, O2, W, ra, n, MC, k1, 0, 0.0, G, v1)
            distinct = 0
            for t in range(G[S_HANDN + p]):
                distinct += 1 if v1[t] >= 0.0 else 0
            if distinct > 1:
                b = flat_choice(P, O, S, T, O2, W, ra, n, MC, k1, 0, 0.0, G, v2)
                c = flat_choice(P, O, S, T, O2, W, ra, n, MC, k2, 0, 0.0, G, v2)
                top = -1.0
                second = -1.0
                for t in range(G[S_HANDN + p]):
                    if v2[t] > top:
                        second = top
                        top = v2[t]
                    elif v2[t] > second:
                        second = v2[t]
                ca = P[card_row(P, a) + C_CARD]
                out[0] += 1.0
                out[1] += 1.0 if ca == P[card_row(P, b) + C_CARD] else 0.0
                out[2] += 1.0 if ca == P[card_row(P, c) + C_CARD] else 0.0
                out[3] += top - second
            apply_move(P, G, W, rs, n, a)
