"""Everything numba compiles: the card rules, re-dealing, playouts and the search loops.

The rules here are a second implementation of ``engine/tcg/state.py`` for
speed: an interpreter over a compiled pack, kept step for step with the
reference and tested against it (identical states after every move from the
same deal with a shared random stream, reshuffles included; the same outcome
distribution over random playouts).  Where the reference recurses (a
reaction's damage sets off more reactions), this file runs an explicit frame
stack, because numba cannot cache recursive functions.

Arrays: ``P`` the program (``layout.compile_pack``), ``S`` the state,
``W`` scratch (frames, snapshots, working lists), ``rs`` the random state
(one uint64, SplitMix64).  Every function is ``nogil`` so searches run in
threads without holding the interpreter lock.
"""

from __future__ import annotations

import math
import re
from contextlib import contextmanager

import numpy as np
from numba import njit
from numba.core import types
from numba.core.compiler_lock import global_compiler_lock
from numba.np import arrayobj

from tcgtui.engine.tcg.fast.layout import (
    A_EF_HI,
    A_EF_LO,
    A_N,
    A_WHEN,
    AW,
    C_AB_HI,
    C_AB_LO,
    C_CARD,
    C_EF_HI,
    C_EF_LO,
    C_GUARD,
    C_KW,
    C_OWN,
    C_POWER,
    C_TYPE,
    C_WMASK,
    CH_BLOCKED,
    CH_CARD,
    CH_FROZEN,
    CH_GUARD,
    CH_POWER,
    CH_SUMMONED,
    CH_TGUARD,
    CH_TPOWER,
    CHW,
    CT_CHAMPION,
    CT_SPELL,
    CT_TRICK,
    CW,
    DAMAGE_MASK,
    DO_BLOCK_WITH,
    DO_BUFF,
    DO_CANCEL_ATTACK,
    DO_DAMAGE,
    DO_DESTROY,
    DO_DRAW,
    DO_FREEZE,
    DO_HEAL,
    DO_REPEAT_SPELL,
    DO_SHUFFLE_HAND,
    E_AMOUNT,
    E_DO,
    E_IF_DONE,
    E_STAT,
    E_TARGET,
    E_TO,
    E_UNTIL,
    EW,
    F_ABILITY,
    F_CHAMP,
    F_DONE,
    F_HAS_ATTACK,
    F_HAS_BLOCKERS,
    F_HI,
    F_I,
    F_J,
    F_KIND,
    F_NSNAP,
    F_OWNER,
    F_PHASE,
    F_POS,
    F_SOURCE,
    F_SPELL,
    F_WHEN,
    FW,
    K_REACT,
    K_RESOLVE,
    KW_ATTACKS_TWICE,
    KW_CANNOT_ATTACK,
    KW_HASTE,
    MAX_CHAIN,
    MAX_FRAMES,
    N_PICKS,
    O_BOARDN,
    O_CUR,
    O_DECKN,
    O_GRAVEN,
    O_HANDN,
    O_LP,
    O_OPP_HAND,
    O_OPP_TRICKS,
    O_SEAT,
    O_TRICKN,
    O_TURN,
    OH,
    OUT_DRAW,
    OUT_NONE,
    P_ABILITIES,
    P_EFFECTS,
    P_HAND,
    P_LIMIT,
    P_LP,
    P_N,
    PH,
    PICK_HIGHEST_GUARD,
    PICK_LOWEST_GUARD,
    PICK_LOWEST_POWER,
    PICK_NEWEST,
    PICK_OLDEST,
    REASON_LP,
    REASON_TURN_LIMIT,
    S_ATK_BLOCKS,
    S_ATK_CANCEL,
    S_ATK_CARD,
    S_ATK_OWNER,
    S_BOARDN,
    S_CUR,
    S_DECKN,
    S_DEPTH,
    S_GRAVEN,
    S_HANDN,
    S_LP,
    S_NBLK,
    S_OUT,
    S_REASON,
    S_TRICKN,
    S_TURN,
    SH,
    SIDE_YOUR,
    STAT_POWER,
    T_ATTACKED_DIRECTLY,
    T_CAST,
    T_END,
    T_ENEMY_ATTACKS,
    T_LP_BELOW,
    T_LP_EXACTLY,
    T_ON_SUMMON,
    T_START,
    T_TAKE_DAMAGE,
    T_THIS_BLOCKED,
    TG_ALL_ENEMIES,
    TG_ALL_YOURS,
    TG_ATTACKER,
    TG_BLOCKERS,
    TG_SIDE0,
    TG_THIS,
    TO_OPPONENT,
    UNTIL_PERMANENT,
    obs_size,
    state_size,
    work_size,
)


def jit(signature: str, outline: bool = False):
    """For the inner functions: eager, cached and GIL-free, with explicit types so that
    constant arguments do not spawn one compiled copy per value (numba specialises on
    literals otherwise), and without reference counting (``_nrt=False``): they never
    allocate, and counting references to the arrays on every call cost 40% of the speed.
    They are forced inline into their callers: a call hands over each array as seven words, and
    the calls LLVM had left in (a trigger, an attack, a turn) cost a third of a playout's time
    (forcing them made random games 1.4 times as fast).  The few big functions called from many
    places (``outline``: the frame stack's driver, a whole move, a deal, a re-deal) stay calls,
    so each is compiled once (inlining those too took minutes to compile, for a few percent)."""
    sig = re.sub(r"\bU\b", "u8[::1]", re.sub(r"\bA\b", "i8[::1]", signature))
    compile_ = njit(
        sig,
        cache=True,
        nogil=True,
        no_cpython_wrapper=True,
        no_cfunc_wrapper=True,  # type: ignore[call-overload]
        forceinline=not outline,
        _nrt=False,
    )  # (numba's typed signature leaves out these options)

    def compiled(fn):
        try:
            with _no_wraparound():
                return compile_(fn)
        except (AttributeError, TypeError):  # a numba whose hook differs: Python's indices, slower, same results
            return compile_(fn)

    return compiled


def _plain_index(context, builder, idxty, idx, size):
    return context.cast(builder, idx, idxty, types.intp)


@contextmanager
def _no_wraparound():
    """Compile without Python's negative indices: numba adds ``if i < 0: i += len`` to every
    signed index, three instructions and a register on each of the thousands of reads and
    writes a playout makes (dropping them made random games 1.49 times as fast).  Every index
    here is a non-negative offset (the tests run the kernel with bounds checked, where a
    negative one raises); the patch is numba's own per-index hook, undone once compiled, and held
    under numba's compiler lock so that code another thread compiles meanwhile keeps Python's
    indices."""
    with global_compiler_lock:
        saved = arrayobj.fix_integer_index  # AttributeError: a numba without the hook (the caller falls back)
        arrayobj.fix_integer_index = _plain_index
        try:
            yield
        finally:
            arrayobj.fix_integer_index = saved


entry = njit(cache=True, nogil=True)  # called from Python; may allocate


# --- random numbers: SplitMix64, mirrored in Python by the tests ------------------------------

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_U27, _U30, _U31, _U32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


@jit("u8(U)")
def rng_next(rs):
    z = rs[0] + _GAMMA
    rs[0] = z
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@jit("i8(U, i8)")
def rng_below(rs, bound):
    """A number in [0, bound): the top 32 bits scaled (bias below 1e-8 for card-game bounds)."""
    return np.int64(((rng_next(rs) >> _U32) * np.uint64(bound)) >> _U32)


@jit("void(U, i8, i8, i8)", outline=True)
def rng_seed(rs, seed, a, b):
    """Independent streams per (seed, a, b): one per playout, so any split of work agrees."""
    rs[0] = np.uint64(seed)
    rs[0] = rng_next(rs) ^ np.uint64(a)
    rs[0] = rng_next(rs) ^ np.uint64(b)
    rs[0] = rng_next(rs)


@jit("void(A, i8, i8, U)")
def shuffle(A, lo, count, rs):
    """Fisher-Yates from the end, the order Python's tests mirror."""
    for i in range(count - 1, 0, -1):
        j = rng_below(rs, i + 1)
        t = A[lo + i]
        A[lo + i] = A[lo + j]
        A[lo + j] = t


# --- offsets -----------------------------------------------------------------------------


@jit("i8(i8, i8)")
def o_deck(n, p):
    return SH + p * n


@jit("i8(i8, i8)")
def o_hand(n, p):
    return SH + (2 + p) * n


@jit("i8(i8, i8)")
def o_trick(n, p):
    return SH + (4 + p) * n


@jit("i8(i8, i8)")
def o_grave(n, p):
    return SH + (6 + p) * n


@jit("i8(i8, i8)")
def o_board(n, p):
    return SH + 8 * n + p * n * CHW


@jit("i8(A, i8)")
def card_row(P, c):
    """Card rows start right after the header (``P[P_CARDS]`` is always ``PH``): a constant, not a
    load that every write to the state would force again."""
    return PH + c * CW


@jit("b1(A, i8, i8)")
def owns(P, c, p):
    """Whether slot ``c`` is a copy in seat ``p``'s deck."""
    return (P[card_row(P, c) + C_OWN] >> p) & 1 == 1


@jit("i8(A, i8)")
def ability_row(P, a):
    return P[P_ABILITIES] + a * AW


@jit("i8(A, i8)")
def effect_row(P, e):
    return P[P_EFFECTS] + e * EW


# The sizes of a state and of the scratch array, as layout defines them (one formula each).
state_len = jit("i8(i8)")(state_size)
work_len = jit("i8(i8)")(work_size)
obs_len = jit("i8(i8)")(obs_size)


# scratch offsets (see layout.work_size)
@jit("i8(i8)")
def w_blk(n):
    return 0


@jit("i8(i8)")
def w_atk(n):
    return n


@jit("i8(i8)")
def w_tgt(n):
    return 2 * n


@jit("i8(i8)")
def w_mark(n):
    return 3 * n


@jit("i8(i8)")
def w_pool(n):
    return 4 * n


@jit("i8(i8)")
def w_sp(n):
    return 5 * n


@jit("i8(i8, i8)")
def w_frame(n, k):
    return 5 * n + 1 + k * FW


@jit("i8(i8, i8)")
def w_snap(n, k):
    return 5 * n + 1 + MAX_FRAMES * FW + k * n


# --- small helpers -------------------------------------------------------------------------


@jit("i8(A, i8, i8, i8)")
def find_champion(S, n, p, c):
    b = o_board(n, p)
    for k in range(S[S_BOARDN + p]):
        if S[b + k * CHW + CH_CARD] == c:
            return k
    return -1


@jit("i8(A, i8, i8, i8)")
def find_trick(S, n, p, c):
    t = o_trick(n, p)
    for k in range(S[S_TRICKN + p]):
        if S[t + k] == c:
            return k
    return -1


@jit("i8(A, i8, i8, i8)")
def cur_power(S, n, p, k):
    b = o_board(n, p) + k * CHW
    v = S[b + CH_POWER] + S[b + CH_TPOWER]
    return v if v > 0 else 0


@jit("i8(A, i8, i8, i8)")
def cur_guard(S, n, p, k):
    b = o_board(n, p) + k * CHW
    v = S[b + CH_GUARD] + S[b + CH_TGUARD]
    return v if v > 0 else 0


@jit("b1(A, A, i8, i8, i8)")
def may_attack(P, S, n, p, k):
    b = o_board(n, p) + k * CHW
    kw = P[card_row(P, S[b + CH_CARD]) + C_KW]
    if kw & KW_CANNOT_ATTACK or cur_power(S, n, p, k) <= 0:
        return False
    if S[b + CH_FROZEN] >= S[S_TURN]:
        return False
    return S[b + CH_SUMMONED] != S[S_TURN] or (kw & KW_HASTE) != 0


@jit("void(A, i8, i8)")
def finish(S, winner, reason):
    S[S_OUT] = OUT_DRAW if winner < 0 else 1 + winner
    S[S_REASON] = reason


@jit("void(A, i8, i8, i8)")
def append(S, lo, count_at, value):
    S[lo + S[count_at]] = value
    S[count_at] += 1


@jit("void(A, i8, i8, i8)")
def remove_at(S, lo, count_at, k):
    last = S[count_at] - 1
    for i in range(k, last):
        S[lo + i] = S[lo + i + 1]
    S[lo + last] = 0
    S[count_at] = last


@jit("i8(A, i8, i8, i8)")
def draw(S, n, p, count):
    drawn = 0
    for _ in range(count):
        dn = S[S_DECKN + p]
        if dn == 0:
            break
        c = S[o_deck(n, p) + dn - 1]
        S[o_deck(n, p) + dn - 1] = 0
        S[S_DECKN + p] = dn - 1
        append(S, o_hand(n, p), S_HANDN + p, c)
        drawn += 1
    return drawn


@jit("void(A, i8, i8, i8)")
def destroy(S, n, q, c):
    k = find_champion(S, n, q, c)
    if k < 0:
        return
    b = o_board(n, q)
    last = S[S_BOARDN + q] - 1
    for i in range(k * CHW, last * CHW):
        S[b + i] = S[b + i + CHW]
    for i in range(last * CHW, last * CHW + CHW):
        S[b + i] = 0
    S[S_BOARDN + q] = last
    append(S, o_grave(n, q), S_GRAVEN + q, c)


@jit("b1(i8, i8)")
def listens(when, ab_when):
    if when == T_TAKE_DAMAGE:
        return ab_when == T_TAKE_DAMAGE or ab_when == T_LP_BELOW or ab_when == T_LP_EXACTLY
    return ab_when == when


@jit("b1(A, A, i8, i8)")
def condition(P, S, p, a):
    r = ability_row(P, a)
    w = P[r + A_WHEN]
    if w == T_LP_BELOW:
        return S[S_LP + p] < P[r + A_N]
    if w == T_LP_EXACTLY:
        return S[S_LP + p] == P[r + A_N]
    return True


# --- the frame stack: reactions and effect lists without recursion ---------------------------


@jit("void(A, A, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8)")
def push_resolve(S, W, n, lo, hi, owner, source, champ, has_attack, has_blockers, spell, ability):
    sp = W[w_sp(n)]
    if sp >= MAX_FRAMES:
        raise RuntimeError("reaction chain deeper than the frame stack")
    W[w_sp(n)] = sp + 1
    f = w_frame(n, sp)
    W[f + F_KIND] = K_RESOLVE
    W[f + F_POS] = lo
    W[f + F_HI] = hi
    W[f + F_DONE] = 1
    W[f + F_OWNER] = owner
    W[f + F_SOURCE] = source
    W[f + F_CHAMP] = champ
    W[f + F_HAS_ATTACK] = has_attack
    W[f + F_HAS_BLOCKERS] = has_blockers
    W[f + F_SPELL] = spell
    W[f + F_ABILITY] = ability
    if ability:
        S[S_DEPTH] += 1


@jit("b1(A, A, i8, i8, i8)")
def heard(P, S, n, p, when):
    """Whether ``_react`` has anything to do: the game goes on, the chain is short enough and one of
    seat ``p``'s champions or tricks listens to ``when``.  Checked before the frame is stacked, so a
    trigger nobody listens to costs no call."""
    if S[S_OUT] != OUT_NONE or S[S_DEPTH] >= MAX_CHAIN:
        return False
    want = DAMAGE_MASK if when == T_TAKE_DAMAGE else (1 << when)
    b = o_board(n, p)
    for k in range(S[S_BOARDN + p]):
        if P[card_row(P, S[b + k * CHW]) + C_WMASK] & want:
            return True
    t = o_trick(n, p)
    for k in range(S[S_TRICKN + p]):
        if P[card_row(P, S[t + k]) + C_WMASK] & want:
            return True
    return False


@jit("void(A, A, i8, i8, i8, i8, i8)")
def push_react(S, W, n, p, when, has_attack, spell):
    """``_react``'s frame, once ``heard`` says it has work."""
    sp = W[w_sp(n)]
    if sp >= MAX_FRAMES:
        raise RuntimeError("reaction chain deeper than the frame stack")
    W[w_sp(n)] = sp + 1
    f = w_frame(n, sp)
    W[f + F_KIND] = K_REACT
    W[f + F_OWNER] = p
    W[f + F_WHEN] = when
    W[f + F_HAS_ATTACK] = has_attack
    W[f + F_SPELL] = spell
    W[f + F_PHASE] = 0
    W[f + F_I] = 0
    W[f + F_J] = 0
    snap = w_snap(n, sp)
    b = o_board(n, p)
    bn = S[S_BOARDN + p]
    for k in range(bn):
        W[snap + k] = S[b + k * CHW + CH_CARD]
    W[f + F_NSNAP] = bn


@jit("void(A, A, i8, i8)")
def pop(S, W, n, f):
    if W[f + F_KIND] == K_RESOLVE and W[f + F_ABILITY]:
        S[S_DEPTH] -= 1
    W[w_sp(n)] -= 1


@jit("UniTuple(i8, 2)(A, A, A, i8, i8, i8, i8, i8, i8)")
def targets(P, S, W, n, target, p, champ, has_attack, has_blockers):
    """``_targets``: writes the chosen champions' cards to W[w_tgt]; returns (side, count)."""
    out = w_tgt(n)
    if target == TG_THIS:
        if champ >= 0 and find_champion(S, n, p, champ) >= 0:
            W[out] = champ
            return p, 1
        return p, 0
    if target == TG_ATTACKER:
        if not has_attack:
            return p, 0
        o = S[S_ATK_OWNER]
        if find_champion(S, n, o, S[S_ATK_CARD]) < 0:
            return o, 0
        W[out] = S[S_ATK_CARD]
        return o, 1
    if target == TG_BLOCKERS:
        q = 1 - p
        cnt = 0
        if has_blockers:
            for i in range(S[S_NBLK]):
                c = W[w_blk(n) + i]
                if find_champion(S, n, q, c) >= 0:
                    W[out + cnt] = c
                    cnt += 1
        return q, cnt
    if target == TG_ALL_YOURS or target == TG_ALL_ENEMIES:
        q = p if target == TG_ALL_YOURS else 1 - p
        b = o_board(n, q)
        for k in range(S[S_BOARDN + q]):
            W[out + k] = S[b + k * CHW + CH_CARD]
        return q, S[S_BOARDN + q]
    k = target - TG_SIDE0
    q = p if k // N_PICKS == SIDE_YOUR else 1 - p
    pick = k % N_PICKS
    bn = S[S_BOARDN + q]
    if bn == 0:
        return q, 0
    b = o_board(n, q)
    if pick == PICK_OLDEST:
        best = 0
    elif pick == PICK_NEWEST:
        best = bn - 1
    else:
        guard = pick == PICK_LOWEST_GUARD or pick == PICK_HIGHEST_GUARD
        lowest = pick == PICK_LOWEST_GUARD or pick == PICK_LOWEST_POWER
        best = 0
        bv = cur_guard(S, n, q, 0) if guard else cur_power(S, n, q, 0)
        for i in range(1, bn):
            v = cur_guard(S, n, q, i) if guard else cur_power(S, n, q, i)
            if (v < bv) if lowest else (v > bv):  # strict: the earliest of equals wins
                best = i
                bv = v
    W[out] = S[b + best * CHW + CH_CARD]
    return q, 1


@jit("b1(A, A, A, U, i8, i8, i8, i8, i8, i8)")
def simple_effect(P, S, W, rs, n, r, p, champ, has_attack, has_blockers):
    """Every effect that sets off nothing further; returns whether it did something."""
    do = P[r + E_DO]
    amount = P[r + E_AMOUNT]
    if do == DO_HEAL:
        S[S_LP + p] += amount
        return True
    if do == DO_DRAW:
        return draw(S, n, p, amount) > 0
    if do == DO_SHUFFLE_HAND:
        hn = S[S_HANDN + p]
        h = o_hand(n, p)
        d = o_deck(n, p)
        dn = S[S_DECKN + p]
        for i in range(hn):
            S[d + dn + i] = S[h + i]
            S[h + i] = 0
        S[S_HANDN + p] = 0
        S[S_DECKN + p] = dn + hn
        shuffle(S, d, dn + hn, rs)
        return hn > 0
    if do == DO_BLOCK_WITH:
        if not has_attack:
            return False
        if amount > S[S_ATK_BLOCKS]:
            S[S_ATK_BLOCKS] = amount
        return True
    if do == DO_CANCEL_ATTACK:
        if not has_attack:
            return False
        S[S_ATK_CANCEL] = 1
        return True
    q, cnt = targets(P, S, W, n, P[r + E_TARGET], p, champ, has_attack, has_blockers)
    for i in range(cnt):
        c = W[w_tgt(n) + i]
        if do == DO_DESTROY:
            destroy(S, n, q, c)
            continue
        k = find_champion(S, n, q, c)
        if k < 0:
            continue
        b = o_board(n, q) + k * CHW
        if do == DO_BUFF:
            power = P[r + E_STAT] == STAT_POWER
            if P[r + E_UNTIL] == UNTIL_PERMANENT:
                S[b + (CH_POWER if power else CH_GUARD)] += amount
            else:
                S[b + (CH_TPOWER if power else CH_TGUARD)] += amount
        elif do == DO_FREEZE:
            until = S[S_TURN] + (2 if q == S[S_CUR] else 1)
            if until > S[b + CH_FROZEN]:
                S[b + CH_FROZEN] = until
    return cnt > 0


@jit("void(A, A, A, U, i8, i8)")
def step_resolve(P, S, W, rs, n, f):
    """One effect of ``_resolve``; damage and repeat_spell stack what they set off."""
    if S[S_OUT] != OUT_NONE or W[f + F_POS] >= W[f + F_HI]:
        pop(S, W, n, f)
        return
    e = W[f + F_POS]
    W[f + F_POS] = e + 1
    r = effect_row(P, e)
    if P[r + E_IF_DONE] and W[f + F_DONE] == 0:
        return
    do = P[r + E_DO]
    p = W[f + F_OWNER]
    if do == DO_DAMAGE:
        q = 1 - p if P[r + E_TO] == TO_OPPONENT else p
        amount = P[r + E_AMOUNT]
        if amount <= 0:
            W[f + F_DONE] = 0
            return
        W[f + F_DONE] = 1
        S[S_LP + q] -= amount
        if S[S_LP + q] <= 0:
            finish(S, 1 - q, REASON_LP)
            return
        if heard(P, S, n, q, T_TAKE_DAMAGE):
            push_react(S, W, n, q, T_TAKE_DAMAGE, 0, -1)
        return
    if do == DO_REPEAT_SPELL:
        spell = W[f + F_SPELL]
        if spell < 0:
            W[f + F_DONE] = 0
            return
        W[f + F_DONE] = 1
        cr = card_row(P, spell)
        push_resolve(S, W, n, P[cr + C_EF_LO], P[cr + C_EF_HI], p, spell, -1, 0, 0, spell, 0)
        return
    done = simple_effect(P, S, W, rs, n, r, p, W[f + F_CHAMP], W[f + F_HAS_ATTACK], W[f + F_HAS_BLOCKERS])
    W[f + F_DONE] = 1 if done else 0


@jit("void(A, A, A, U, i8, i8, i8)")
def step_react(P, S, W, rs, n, f, sp):
    """One reaction of ``_react``: champions' abilities in board order, then tricks as set."""
    if S[S_OUT] != OUT_NONE:
        pop(S, W, n, f)
        return
    p = W[f + F_OWNER]
    when = W[f + F_WHEN]
    want = DAMAGE_MASK if when == T_TAKE_DAMAGE else (1 << when)
    snap = w_snap(n, sp)
    if W[f + F_PHASE] == 0:
        i = W[f + F_I]
        j = W[f + F_J]
        while i < W[f + F_NSNAP]:
            c = W[snap + i]
            cr = card_row(P, c)
            a = P[cr + C_AB_LO] + j
            if a >= P[cr + C_AB_HI] or P[cr + C_WMASK] & want == 0:  # done, or deaf to ``when``
                i += 1
                j = 0
                continue
            j += 1
            ar = ability_row(P, a)
            if listens(when, P[ar + A_WHEN]) and condition(P, S, p, a) and find_champion(S, n, p, c) >= 0:
                W[f + F_I] = i
                W[f + F_J] = j
                push_resolve(
                    S, W, n, P[ar + A_EF_LO], P[ar + A_EF_HI], p, c, c, W[f + F_HAS_ATTACK], 0, W[f + F_SPELL], 1
                )
                return
        W[f + F_PHASE] = 1
        t = o_trick(n, p)
        tn = S[S_TRICKN + p]
        for k in range(tn):
            W[snap + k] = S[t + k]
        W[f + F_NSNAP] = tn
        W[f + F_I] = 0
    i = W[f + F_I]
    while i < W[f + F_NSNAP]:
        c = W[snap + i]
        i += 1
        if P[card_row(P, c) + C_WMASK] & want == 0:
            continue
        a = P[card_row(P, c) + C_AB_LO]
        ar = ability_row(P, a)
        if listens(when, P[ar + A_WHEN]) and condition(P, S, p, a):
            k = find_trick(S, n, p, c)
            if k >= 0:
                remove_at(S, o_trick(n, p), S_TRICKN + p, k)
                append(S, o_grave(n, p), S_GRAVEN + p, c)
                W[f + F_I] = i
                push_resolve(
                    S, W, n, P[ar + A_EF_LO], P[ar + A_EF_HI], p, c, -1, W[f + F_HAS_ATTACK], 0, W[f + F_SPELL], 1
                )
                return
    pop(S, W, n, f)


def _drive(P, S, W, rs, n):
    """Run stacked frames until the chain has played out."""
    while W[w_sp(n)] > 0:
        sp = W[w_sp(n)] - 1
        f = w_frame(n, sp)
        if W[f + F_KIND] == K_RESOLVE:
            step_resolve(P, S, W, rs, n, f)
        else:
            step_react(P, S, W, rs, n, f, sp)


drive = jit("void(A, A, A, U, i8)", outline=True)(_drive)
# The same loop inlined where a spell resolves, the one call made on most turns.
drive_spell = jit("void(A, A, A, U, i8)")(_drive)


@jit("void(A, A, A, U, i8, i8, i8, i8, i8)")
def react(P, S, W, rs, n, p, when, has_attack, spell):
    if heard(P, S, n, p, when):
        push_react(S, W, n, p, when, has_attack, spell)
    if W[w_sp(n)] > 0:
        drive(P, S, W, rs, n)


@jit("void(A, A, A, U, i8, i8, i8, i8, i8, i8)")
def run_ability(P, S, W, rs, n, p, c, a, champ, has_blockers):
    if S[S_DEPTH] >= MAX_CHAIN:
        return
    ar = ability_row(P, a)
    push_resolve(S, W, n, P[ar + A_EF_LO], P[ar + A_EF_HI], p, c, champ, 0, has_blockers, -1, 1)
    drive(P, S, W, rs, n)


@jit("void(A, A, A, U, i8, i8, i8)")
def damage(P, S, W, rs, n, q, amount):
    if amount <= 0:
        return
    S[S_LP + q] -= amount
    if S[S_LP + q] <= 0:
        finish(S, 1 - q, REASON_LP)
        return
    react(P, S, W, rs, n, q, T_TAKE_DAMAGE, 0, -1)


# --- turn structure ----------------------------------------------------------------------------


@jit("void(A, A, A, U, i8)")
def next_turn(P, S, W, rs, n):
    S[S_TURN] += 1
    p = 1 - S[S_CUR]
    S[S_CUR] = p
    react(P, S, W, rs, n, p, T_START, 0, -1)
    if S[S_OUT] == OUT_NONE:
        draw(S, n, p, 1)


@jit("void(A, A, A, U, i8, i8)")
def end_turn(P, S, W, rs, n, p):
    react(P, S, W, rs, n, p, T_END, 0, -1)
    if S[S_OUT] != OUT_NONE:
        return
    for q in range(2):
        b = o_board(n, q)
        for k in range(S[S_BOARDN + q]):
            S[b + k * CHW + CH_TPOWER] = 0
            S[b + k * CHW + CH_TGUARD] = 0
    if S[S_TURN] >= P[P_LIMIT]:
        a = S[S_LP]
        d = S[S_LP + 1]
        finish(S, -1 if a == d else (0 if a > d else 1), REASON_TURN_LIMIT)


@jit("void(A, A, A, U, i8, i8, i8)")
def play(P, S, W, rs, n, p, c):
    cr = card_row(P, c)
    kind = P[cr + C_TYPE]
    if kind == CT_CHAMPION:
        b = o_board(n, p) + S[S_BOARDN + p] * CHW
        S[b + CH_CARD] = c
        S[b + CH_POWER] = P[cr + C_POWER]
        S[b + CH_GUARD] = P[cr + C_GUARD]
        S[b + CH_TPOWER] = 0
        S[b + CH_TGUARD] = 0
        S[b + CH_SUMMONED] = S[S_TURN]
        S[b + CH_FROZEN] = 0
        S[b + CH_BLOCKED] = 0
        S[S_BOARDN + p] += 1
        for a in range(P[cr + C_AB_LO], P[cr + C_AB_HI]):
            if P[ability_row(P, a) + A_WHEN] == T_ON_SUMMON:
                run_ability(P, S, W, rs, n, p, c, a, c, 0)
    elif kind == CT_SPELL:
        push_resolve(S, W, n, P[cr + C_EF_LO], P[cr + C_EF_HI], p, c, -1, 0, 0, c, 0)
        drive_spell(P, S, W, rs, n)
        append(S, o_grave(n, p), S_GRAVEN + p, c)
        if S[S_OUT] == OUT_NONE:
            react(P, S, W, rs, n, p, T_CAST, 0, c)
    else:
        append(S, o_trick(n, p), S_TRICKN + p, c)


@jit("b1(A, i8, i8)")
def stopped(S, n, p):
    if S[S_OUT] != OUT_NONE:
        return True
    if find_champion(S, n, p, S[S_ATK_CARD]) < 0:
        return True
    return S[S_ATK_CANCEL] != 0


@jit("void(A, A, A, U, i8, i8, i8)")
def attack(P, S, W, rs, n, p, c):
    q = 1 - p
    S[S_ATK_CARD] = c
    S[S_ATK_OWNER] = p
    S[S_ATK_BLOCKS] = 1
    S[S_ATK_CANCEL] = 0
    S[S_NBLK] = 0
    react(P, S, W, rs, n, q, T_ENEMY_ATTACKS, 1, -1)
    if stopped(S, n, p):
        return
    # free defenders, sorted by guard, highest first, stably (earliest summoned wins ties)
    blk = w_blk(n)
    gd = w_tgt(n)
    b = o_board(n, q)
    cnt = 0
    for k in range(S[S_BOARDN + q]):
        if S[b + k * CHW + CH_BLOCKED] != S[S_TURN]:
            x = S[b + k * CHW + CH_CARD]
            gx = cur_guard(S, n, q, k)
            i = cnt - 1
            while i >= 0 and W[gd + i] < gx:
                W[blk + i + 1] = W[blk + i]
                W[gd + i + 1] = W[gd + i]
                i -= 1
            W[blk + i + 1] = x
            W[gd + i + 1] = gx
            cnt += 1
    nblk = cnt if cnt < S[S_ATK_BLOCKS] else S[S_ATK_BLOCKS]
    S[S_NBLK] = nblk
    if nblk == 0:
        react(P, S, W, rs, n, q, T_ATTACKED_DIRECTLY, 1, -1)
        if stopped(S, n, p):
            return
        damage(P, S, W, rs, n, q, cur_power(S, n, p, find_champion(S, n, p, c)))
        return
    for i in range(nblk):
        k = find_champion(S, n, q, W[blk + i])
        S[b + k * CHW + CH_BLOCKED] = S[S_TURN]
    cr = card_row(P, c)
    for a in range(P[cr + C_AB_LO], P[cr + C_AB_HI]):
        if P[ability_row(P, a) + A_WHEN] == T_THIS_BLOCKED:
            run_ability(P, S, W, rs, n, p, c, a, c, 1)
    if stopped(S, n, p):
        return
    power = cur_power(S, n, p, find_champion(S, n, p, c))
    guard = 0
    for i in range(nblk):
        k = find_champion(S, n, q, W[blk + i])
        if k >= 0:
            guard += cur_guard(S, n, q, k)
    if power > guard:
        for i in range(nblk):
            destroy(S, n, q, W[blk + i])
        if S[S_OUT] == OUT_NONE and power - guard > 0:
            damage(P, S, W, rs, n, q, power - guard)
    else:
        destroy(S, n, p, c)


@jit("void(A, A, A, U, i8, i8)")
def combat(P, S, W, rs, n, p):
    atk = w_atk(n)
    na = 0
    b = o_board(n, p)
    for k in range(S[S_BOARDN + p]):
        if may_attack(P, S, n, p, k):
            W[atk + na] = S[b + k * CHW + CH_CARD]
            na += 1
    for i in range(na):
        c = W[atk + i]
        times = 2 if P[card_row(P, c) + C_KW] & KW_ATTACKS_TWICE else 1
        for _ in range(times):
            if S[S_OUT] != OUT_NONE:
                break
            k = find_champion(S, n, p, c)
            if k < 0 or not may_attack(P, S, n, p, k):
                break
            attack(P, S, W, rs, n, p, c)
        if S[S_OUT] != OUT_NONE:
            return


@jit("void(A, A, A, U, i8, i8, i8)", outline=True)
def played(P, S, W, rs, n, p, c):
    """The rest of a move once card ``c`` has left seat ``p``'s hand: the playouts draw a place
    in the hand, so they skip ``apply_move``'s search for the card."""
    play(P, S, W, rs, n, p, c)
    if S[S_OUT] == OUT_NONE:
        combat(P, S, W, rs, n, p)
    if S[S_OUT] == OUT_NONE:
        end_turn(P, S, W, rs, n, p)
    while S[S_OUT] == OUT_NONE:
        next_turn(P, S, W, rs, n)
        if S[S_OUT] != OUT_NONE or S[S_HANDN + S[S_CUR]] > 0:
            break
        q = S[S_CUR]
        combat(P, S, W, rs, n, q)
        if S[S_OUT] == OUT_NONE:
            end_turn(P, S, W, rs, n, q)


@jit("void(A, A, A, U, i8, i8)")
def apply_move(P, S, W, rs, n, c):
    """``TcgState.apply``: play card ``c`` from the current player's hand (assumed legal)."""
    p = S[S_CUR]
    h = o_hand(n, p)
    for k in range(S[S_HANDN + p]):
        if S[h + k] == c:
            remove_at(S, h, S_HANDN + p, k)
            break
    played(P, S, W, rs, n, p, c)


@jit("void(A, A, A, U, i8)", outline=True)
def deal(P, S, W, rs, n):
    """``TcgState.new`` with this file's random stream."""
    S[:] = 0
    for p in range(2):
        d = o_deck(n, p)
        cnt = 0
        for i in range(n):
            if owns(P, i, p):
                S[d + cnt] = i
                cnt += 1
        S[S_DECKN + p] = cnt
    for p in range(2):
        shuffle(S, o_deck(n, p), S[S_DECKN + p], rs)
    S[S_LP] = P[P_LP]
    S[S_LP + 1] = P[P_LP]
    for p in range(2):
        draw(S, n, p, P[P_HAND])
    S[S_TURN] = 0
    S[S_CUR] = 1
    next_turn(P, S, W, rs, n)


@jit("i8(A, A, A, U, i8)", outline=True)
def playout(P, S, W, rs, n):
    """Uniformly random moves for both players to the end; returns the outcome code."""
    while S[S_OUT] == OUT_NONE:
        p = S[S_CUR]
        hn = S[S_HANDN + p]
        if hn == 0:
            raise RuntimeError("the player to move has no card")
        h = o_hand(n, p)
        k = rng_below(rs, hn)
        c = S[h + k]
        remove_at(S, h, S_HANDN + p, k)
        played(P, S, W, rs, n, p, c)
    return S[S_OUT]


# --- re-dealing: the fast twin of engine.tcg.redeal.determinize -------------------------------


@jit("void(A, A, A, A, U, i8)", outline=True)
def determinize(P, O, S, W, rs, n):
    """Fill ``S`` with a state drawn uniformly from those consistent with observation ``O``.

    Only ``O`` is read: the opponent's hand and tricks and both deck orders are
    drawn from ``rs`` (future shuffles then come from ``rs`` as well).
    """
    S[:] = 0
    me = O[O_SEAT]
    opp = 1 - me
    mark = w_mark(n)
    pool = w_pool(n)
    hand = OH
    my_tricks = OH + n
    for i in range(n):
        W[mark + i] = 0
    for i in range(O[O_HANDN]):
        W[mark + O[hand + i]] = 1
    for i in range(O[O_TRICKN]):
        W[mark + O[my_tricks + i]] = 1
    for p in range(2):
        g = OH + (2 + p) * n
        ob = OH + 4 * n + p * n * CHW
        for i in range(O[O_GRAVEN + p]):
            S[o_grave(n, p) + i] = O[g + i]
            if p == me:
                W[mark + O[g + i]] = 1
        S[S_GRAVEN + p] = O[O_GRAVEN + p]
        b = o_board(n, p)
        for i in range(O[O_BOARDN + p] * CHW):
            S[b + i] = O[ob + i]
        for i in range(O[O_BOARDN + p]):
            if p == me:
                W[mark + O[ob + i * CHW + CH_CARD]] = 1
        S[S_BOARDN + p] = O[O_BOARDN + p]
    d = o_deck(n, me)
    cnt = 0
    for i in range(n):
        if W[mark + i] == 0 and owns(P, i, me):
            S[d + cnt] = i
            cnt += 1
    shuffle(S, d, cnt, rs)
    S[S_DECKN + me] = cnt
    for i in range(O[O_HANDN]):
        S[o_hand(n, me) + i] = O[hand + i]
    S[S_HANDN + me] = O[O_HANDN]
    for i in range(O[O_TRICKN]):
        S[o_trick(n, me) + i] = O[my_tricks + i]
    S[S_TRICKN + me] = O[O_TRICKN]
    # the opponent: face-down tricks from the unseen tricks, then hand and deck from the rest
    for i in range(n):
        W[mark + i] = 0
    for i in range(O[O_GRAVEN + opp]):
        W[mark + S[o_grave(n, opp) + i]] = 1
    for i in range(O[O_BOARDN + opp]):
        W[mark + S[o_board(n, opp) + i * CHW + CH_CARD]] = 1
    tp = 0
    for i in range(n):
        if W[mark + i] == 0 and owns(P, i, opp) and P[card_row(P, i) + C_TYPE] == CT_TRICK:
            W[pool + tp] = i
            tp += 1
    k = O[O_OPP_TRICKS]
    t = o_trick(n, opp)
    for i in range(k):
        j = i + rng_below(rs, tp - i)
        x = W[pool + j]
        W[pool + j] = W[pool + i]
        W[pool + i] = x
        S[t + i] = x
        W[mark + x] = 1
    S[S_TRICKN + opp] = k
    rest = 0
    for i in range(n):
        if W[mark + i] == 0 and owns(P, i, opp):
            W[pool + rest] = i
            rest += 1
    shuffle(W, pool, rest, rs)
    h = O[O_OPP_HAND]
    for i in range(h):
        S[o_hand(n, opp) + i] = W[pool + i]
    S[S_HANDN + opp] = h
    d = o_deck(n, opp)
    for i in range(h, rest):
        S[d + i - h] = W[pool + i]
    S[S_DECKN + opp] = rest - h
    S[S_LP] = O[O_LP]
    S[S_LP + 1] = O[O_LP + 1]
    S[S_TURN] = O[O_TURN]
    S[S_CUR] = O[O_CUR]


# --- entry points called from Python -------------------------------------------------------------


@entry
def step(P, S, W, rs, c):
    """Apply one move (tests drive both paths move by move)."""
    apply_move(P, S, W, rs, P[P_N], c)


@entry
def redeal(P, O, S, W, rs):
    determinize(P, O, S, W, rs, P[P_N])


@entry
def random_games(P, seed, first, count, W, counts):
    """``count`` random games from fresh deals (game g on stream (seed, g)); tallies outcomes."""
    n = P[P_N]
    S = np.zeros(state_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    turns = 0
    for g in range(first, first + count):
        rng_seed(rs, seed, g, 0)
        deal(P, S, W, rs, n)
        counts[playout(P, S, W, rs, n)] += 1
        turns += S[S_TURN]
    return turns


@entry
def playouts_from(P, S0, seed, first, count, W, counts):
    """``count`` random playouts from state ``S0`` (playout j on stream (seed, j)); tallies outcomes."""
    n = P[P_N]
    S = np.empty_like(S0)
    rs = np.zeros(1, dtype=np.uint64)
    for j in range(first, first + count):
        rng_seed(rs, seed, j, 1)
        S[:] = S0
        counts[playout(P, S, W, rs, n)] += 1


# --- search loops ------------------------------------------------------------------------------
# They live here, not with the agents, because numba decides whether a cached
# function is stale from its own file's timestamp only: a loop cached in
# another file would keep running old rules after this file changed.

WIN, DRAW, LOSS = 0, 1, 2
_TREE_STREAM = 0x7EE5  # keeps tree iterations off the playouts' streams


@jit("void(i8[:, ::1], i8, i8, i8)")
def tally(out, m, outcome, seat):
    """Count a playout's ``outcome`` code for move ``m`` as a win, draw or loss of ``seat``."""
    if outcome == OUT_DRAW:
        out[m, DRAW] += 1
    elif outcome == 1 + seat:
        out[m, WIN] += 1
    else:
        out[m, LOSS] += 1


@entry
def mc_playouts(P, base, redeal, seat, moves, first, count, seed, out):
    """For each move, playouts ``first .. first+count-1``: re-deal (or copy), play it, play on."""
    n = P[P_N]
    S = np.zeros(state_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    for m in range(moves.shape[0]):
        c = moves[m]
        for j in range(first, first + count):
            rng_seed(rs, seed, c, j)
            if redeal:
                determinize(P, base, S, W, rs, n)
            else:
                S[:] = base
            apply_move(P, S, W, rs, n, c)
            tally(out, m, playout(P, S, W, rs, n), seat)


@jit("i8(A, A, A, A, U, i8, i8)", outline=True)
def inner_choice(P, S, T, W, rs, n, k):
    """The mover's card by ``k`` random playouts per card in hand from ``S`` as it stands (no
    re-deal: ``S`` is already one), ties broken at random: ``mc:k`` playing inside ``nmc``'s
    playouts.  ``T`` is scratch."""
    p = S[S_CUR]
    h = o_hand(n, p)
    hn = S[S_HANDN + p]
    if hn == 1:
        return S[h]
    best = S[h]
    best_v = -1.0
    for t in range(hn):
        v = 0.0
        for _ in range(k):
            for i in range(S.shape[0]):  # a copy (a slice assignment would need numba's runtime)
                T[i] = S[i]
            apply_move(P, T, W, rs, n, S[h + t])
            o = playout(P, T, W, rs, n)
            v += 1.0 if o == 1 + p else (0.5 if o == OUT_DRAW else 0.0)
        v += 1e-3 * np.float64(rng_next(rs) >> np.uint64(11)) / 9007199254740992.0
        if v > best_v:
            best_v = v
            best = S[h + t]
    return best


@entry
def nmc_playouts(P, base, seat, moves, first, count, seed, inner, out):
    """``nmc``'s playouts ``first .. first+count-1`` of each move: playout j re-deals from stream
    (seed, j), the same re-deal for every move (the cards are compared on the same worlds), plays
    the move, and both sides play on by ``inner_choice`` to the end.  ``out[m]``: wins, draws,
    losses for ``seat``."""
    n = P[P_N]
    S = np.zeros(state_len(n), dtype=np.int64)
    T = np.zeros(state_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    for j in range(first, first + count):
        for m in range(moves.shape[0]):
            rng_seed(rs, seed, 0, j)
            determinize(P, base, S, W, rs, n)
            apply_move(P, S, W, rs, n, moves[m])
            while S[S_OUT] == OUT_NONE:
                apply_move(P, S, W, rs, n, inner_choice(P, S, T, W, rs, n, inner))
            tally(out, m, S[S_OUT], seat)


@jit("void(A, A, i8, i8)", outline=True)
def observe(S, O, n, me):
    """What seat ``me`` sees of state ``S``, as ``encode.encode_observation`` writes it."""
    O[:] = 0
    opp = 1 - me
    O[O_SEAT] = me
    O[O_TURN] = S[S_TURN]
    O[O_CUR] = S[S_CUR]
    O[O_LP] = S[S_LP]
    O[O_LP + 1] = S[S_LP + 1]
    O[O_OPP_HAND] = S[S_HANDN + opp]
    O[O_OPP_TRICKS] = S[S_TRICKN + opp]
    O[O_DECKN] = S[S_DECKN]
    O[O_DECKN + 1] = S[S_DECKN + 1]
    for i in range(S[S_HANDN + me]):
        O[OH + i] = S[o_hand(n, me) + i]
    O[O_HANDN] = S[S_HANDN + me]
    for i in range(S[S_TRICKN + me]):
        O[OH + n + i] = S[o_trick(n, me) + i]
    O[O_TRICKN] = S[S_TRICKN + me]
    for p in range(2):
        for i in range(S[S_GRAVEN + p]):
            O[OH + (2 + p) * n + i] = S[o_grave(n, p) + i]
        O[O_GRAVEN + p] = S[S_GRAVEN + p]
        b = OH + 4 * n + p * n * CHW
        for k in range(S[S_BOARDN + p]):
            for f in range(CHW):
                O[b + k * CHW + f] = S[o_board(n, p) + k * CHW + f]
            if O[b + k * CHW + CH_BLOCKED] != S[S_TURN]:
                O[b + k * CHW + CH_BLOCKED] = 0
        O[O_BOARDN + p] = S[S_BOARDN + p]


@entry
def observation(S, O, n, me):
    """``observe`` for tests (the inner functions cannot be called from Python)."""
    observe(S, O, n, me)


@entry
def mc_games(P, k, seed, first, count, out):
    """``count`` whole games from fresh deals (game g on stream (seed, g)) with flat Monte Carlo
    (``k`` >= 1 re-dealt playouts per card in hand, the ``mc:K`` player) in both seats; game g's
    outcome code goes to ``out[g - first]``.  Copies of one card in hand are one move; the
    first best move is played."""
    n = P[P_N]
    S = np.zeros(state_len(n), dtype=np.int64)
    T = np.zeros(state_len(n), dtype=np.int64)
    O = np.zeros(obs_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    rt = np.zeros(1, dtype=np.uint64)
    for g in range(first, first + count):
        rng_seed(rs, seed, g, 2)
        deal(P, S, W, rs, n)
        while S[S_OUT] == OUT_NONE:
            p = S[S_CUR]
            h = o_hand(n, p)
            hn = S[S_HANDN + p]
            best = S[h]
            if hn > 1:
                observe(S, O, n, p)
                best_value = -1.0
                for t in range(hn):
                    c = S[h + t]
                    seen = False
                    for u in range(t):
                        if P[card_row(P, S[h + u]) + C_CARD] == P[card_row(P, c) + C_CARD]:
                            seen = True
                    if seen:
                        continue
                    value = 0.0
                    for _ in range(k):
                        rt[0] = rng_next(rs)
                        determinize(P, O, T, W, rt, n)
                        apply_move(P, T, W, rt, n, c)
                        o = playout(P, T, W, rt, n)
                        if o == 1 + p:
                            value += 1.0
                        elif o == OUT_DRAW:
                            value += 0.5
                    if value > best_value:
                        best_value = value
                        best = c
            apply_move(P, S, W, rs, n, best)
        out[g - first] = S[S_OUT]


@entry
def find_child(first, sibling, edge, node, key):
    k = first[node]
    while k >= 0 and edge[k] != key:
        k = sibling[k]
    return k


@entry
def ismcts_iterate(P, O, start, count, seed, explore, first, sibling, edge, visits, reward, avail, size):
    """Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012), iterations ``start..``.

    Each iteration re-deals the hidden cards, descends through moves legal in
    that deal by UCB1 with availability counts, adds one node, plays randomly
    to the end and credits each node to the player who made its move.  A
    node's children form a linked list (``first``, ``sibling``) keyed by the
    edge player * n + card, so the tree costs a few numbers per node.
    """
    n = P[P_N]
    S = np.zeros(state_len(n), dtype=np.int64)
    W = np.zeros(work_len(n), dtype=np.int64)
    rs = np.zeros(1, dtype=np.uint64)
    path = np.zeros(P[P_LIMIT] + 2, dtype=np.int64)
    for it in range(start, start + count):
        rng_seed(rs, seed, _TREE_STREAM, it)
        determinize(P, O, S, W, rs, n)
        node = 0
        depth = 0
        while S[S_OUT] == OUT_NONE:
            p = S[S_CUR]
            h = SH + (2 + p) * n
            hn = S[S_HANDN + p]
            untried = 0
            for t in range(hn):
                if find_child(first, sibling, edge, node, p * n + S[h + t]) < 0:
                    untried += 1
            if untried > 0:
                pick = rng_below(rs, untried)
                c = -1
                for t in range(hn):
                    if find_child(first, sibling, edge, node, p * n + S[h + t]) < 0:
                        if pick == 0:
                            c = S[h + t]
                            break
                        pick -= 1
                k = size[0]
                size[0] = k + 1
                edge[k] = p * n + c
                sibling[k] = first[node]
                first[node] = k
                for t in range(hn):
                    known = find_child(first, sibling, edge, node, p * n + S[h + t])
                    if known >= 0:
                        avail[known] += 1.0
                apply_move(P, S, W, rs, n, c)
                path[depth] = k
                depth += 1
                break
            best = -1
            best_card = -1
            best_value = -1.0
            for t in range(hn):
                c = S[h + t]
                k = find_child(first, sibling, edge, node, p * n + c)
                avail[k] += 1.0
                value = reward[k] / visits[k] + explore * math.sqrt(math.log(avail[k]) / visits[k])
                if value > best_value:
                    best = k
                    best_card = c
                    best_value = value
            apply_move(P, S, W, rs, n, best_card)
            node = best
            path[depth] = best
            depth += 1
        o = playout(P, S, W, rs, n)
        visits[0] += 1.0
        for d in range(depth):
            k = path[d]
            visits[k] += 1.0
            mover = edge[k] // n
            if o == 1 + mover:
                reward[k] += 1.0
            elif o == OUT_DRAW:
                reward[k] += 0.5
