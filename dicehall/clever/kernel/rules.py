"""The Clever rules compiled with Numba: legal actions and apply for every phase, on the flat game array.

This is a second implementation of :mod:`dicehall.clever.state` (same action codes, same order of legal
actions, same flow), written for speed. ``tests/clever/test_kernel.py`` plays random games through both, action
by action. The kernel trusts its input: legality is checked by the engine, not here.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever import state as E
from dicehall.clever.kernel.layout import (
    ACTIVE,
    ACTOR,
    AFTER,
    AUTO_SINGLE,
    B_BY_SUM,
    B_FIRST,
    B_GROUP_BONUS,
    B_GROUP_MASK,
    B_POINTS,
    B_SLOTS,
    BM,
    CHOICE,
    CIRCLES,
    FALLBACK,
    FIELD,
    FIELD_N,
    FIELD_SEQ,
    FOX,
    G_BONUS,
    G_MIN,
    G_POINTS,
    GC,
    O_BONUS,
    O_MULT,
    OC,
    ORANGE_NUMBER,
    ORDER,
    ORDER_HEAD,
    ORDER_LEN,
    OS,
    OVALS,
    P1G,
    P1U,
    P_BONUS,
    P_RESET,
    PC,
    PHASE,
    PL,
    PLATTER,
    PLUS_USED,
    PS,
    PVALS,
    Q_CAP,
    Q_HEAD,
    Q_LEN,
    QUEUE,
    ROLL_MASK,
    ROLLS,
    ROUND,
    ROUND_BONUS,
    ROUNDS,
    RRG,
    RRU,
    SHEETS,
    SIZE,
    STRIDE,
    TRACK,
    VAL,
    Y_BY_VALUE,
    Y_CELLS,
    Y_COL_MASK,
    Y_COL_POINTS,
    Y_GROUP_BONUS,
    Y_GROUP_MASK,
    Y_PRINTED,
    YM,
    N,
    flat,
    njit,
)
from dicehall.core.game import CHANCE, TERMINAL

# phases and +1 continuations: the engine's own numbers
PH_ROLL, PH_PICK, PH_PLUS = E.PH_ROLL, E.PH_PICK, E.PH_PLUS
PH_PASSIVE_ROLL, PH_PASSIVE_PICK, PH_OVER = E.PH_PASSIVE_ROLL, E.PH_PASSIVE_PICK, E.PH_OVER
AFTER_ACTIVE, AFTER_PASSIVE, AFTER_END = E.AFTER_ACTIVE, E.AFTER_PASSIVE, E.AFTER_END
K_ENTRY, K_PLUS, K_CHOOSE, K_BLACK = A.K_ENTRY, A.K_PLUS, A.K_CHOOSE, A.K_BLACK
REROLL, FORFEIT, STOP, PASS, CHANCE_FLAG = A.REROLL, A.FORFEIT, A.STOP, A.PASS, A.CHANCE_FLAG
YELLOW_X, BLUE_X, GREEN_X, PURPLE_6, BLACK = S.YELLOW_X, S.BLUE_X, S.GREEN_X, S.PURPLE_6, S.BLACK
BONUS_REROLL, BONUS_PLUS, BONUS_FOX = S.REROLL, S.PLUS_ONE, S.FOX
BLACK_SIX = 6
MAX_LEGAL = 64

# steps of the flow after an action (the engine's chain of small methods, as one loop)
ST_CONTINUE, ST_AFTER_PICK, ST_OPEN_PLUS, ST_END_PLUS, ST_NEXT_PASSIVE = 0, 1, 2, 3, 4
ST_SETTLE, ST_END_TURN, ST_NEXT_END_PLUS, ST_START_ROUND = 5, 6, 7, 8


@flat
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@flat
def entries(g: np.ndarray, p: int, dmask: int, kind: int, out: np.ndarray, k: int) -> int:
    """Append every way to enter a die of ``dmask`` on ``p``'s sheet (actions of ``kind``); the new count."""
    s = SHEETS + p * STRIDE
    ym = g[s + YM]
    bm = g[s + BM]
    gc = g[s + GC]
    oc = g[s + OC]
    pc = g[s + PC]
    plast = g[s + PL]
    bslot = B_BY_SUM[g[VAL] + g[VAL + 2]]
    base = kind << 12
    for d in range(6):
        if not (dmask >> d) & 1:
            continue
        val = g[VAL + d]
        code = base | (d << 8)
        if d <= 1:
            for j in range(2):
                cell = Y_BY_VALUE[val, j]
                if cell >= 0 and not (ym >> cell) & 1:
                    out[k] = code | cell
                    k += 1
        if (d == 0 or d == 2) and bslot >= 0 and not (bm >> bslot) & 1:
            out[k] = code | (1 << 5) | bslot
            k += 1
        if (d == 0 or d == 3) and gc < TRACK and val >= G_MIN[gc]:
            out[k] = code | (2 << 5)
            k += 1
        if (d == 0 or d == 4) and oc < TRACK:
            out[k] = code | (3 << 5)
            k += 1
        if (d == 0 or d == 5) and pc < TRACK and (pc == 0 or plast == P_RESET or val > plast):
            out[k] = code | (4 << 5)
            k += 1
    return k


@flat
def has_entry(g: np.ndarray, p: int, dmask: int) -> bool:
    """Whether :func:`entries` would find a way to enter a die of ``dmask`` (the same tests, no list: the turn
    machine only asks whether a step opens, and allocating a list there cost a third of a random game)."""
    s = SHEETS + p * STRIDE
    ym = g[s + YM]
    gc = g[s + GC]
    pc = g[s + PC]
    plast = g[s + PL]
    bslot = B_BY_SUM[g[VAL] + g[VAL + 2]]
    for d in range(6):
        if not (dmask >> d) & 1:
            continue
        val = g[VAL + d]
        if d <= 1:
            for j in range(2):
                cell = Y_BY_VALUE[val, j]
                if cell >= 0 and not (ym >> cell) & 1:
                    return True
        if (d == 0 or d == 2) and bslot >= 0 and not (g[s + BM] >> bslot) & 1:
            return True
        if (d == 0 or d == 3) and gc < TRACK and val >= G_MIN[gc]:
            return True
        if (d == 0 or d == 4) and g[s + OC] < TRACK:
            return True
        if (d == 0 or d == 5) and pc < TRACK and (pc == 0 or plast == P_RESET or val > plast):
            return True
    return False


@flat
def has_passive_entry(g: np.ndarray, p: int) -> bool:
    """Whether :func:`passive_entries` would find any."""
    if has_entry(g, p, g[PLATTER]):
        return True
    return g[N] > 1 and g[FALLBACK] != 0 and has_entry(g, p, g[FIELD])


@flat
def passive_entries(g: np.ndarray, p: int, out: np.ndarray, k: int) -> int:
    n = entries(g, p, g[PLATTER], K_ENTRY, out, k)
    if n == k and g[N] > 1 and g[FALLBACK]:
        n = entries(g, p, g[FIELD], K_ENTRY, out, k)
    return n


@flat
def _option(out: np.ndarray, k: int, code: int, write: bool) -> int:
    if write:
        out[k] = code
    return k + 1


@flat
def bonus_scan(g: np.ndarray, p: int, kind: int, out: np.ndarray, k: int, write: bool) -> tuple[int, int]:
    """Every place ``p`` may put the bonus ``kind``: appended to ``out`` from ``k`` when ``write``, else ``out`` is
    untouched; the new count and the first option (-1: none)."""
    s = SHEETS + p * STRIDE
    ym = g[s + YM]
    bm = g[s + BM]
    base = (K_BLACK if kind == BLACK else K_CHOOSE) << 12
    start = k
    first = -1
    if kind != BLUE_X:
        for c in range(Y_CELLS):
            if not (ym >> c) & 1:
                first = base | c if k == start else first
                k = _option(out, k, base | c, write)
    if kind != YELLOW_X:
        for c in range(B_FIRST, B_SLOTS):
            if not (bm >> c) & 1:
                first = base | (1 << 5) | c if k == start else first
                k = _option(out, k, base | (1 << 5) | c, write)
    if kind == BLACK:
        for area, count in ((2, GC), (3, OC), (4, PC)):
            if g[s + count] < TRACK:
                first = base | (area << 5) if k == start else first
                k = _option(out, k, base | (area << 5), write)
    return k, first


@flat
def current_player(g: np.ndarray) -> int:
    if g[CHOICE]:
        return int(g[QUEUE + g[Q_HEAD]] >> 4)
    ph = g[PHASE]
    if ph in (PH_ROLL, PH_PASSIVE_ROLL):
        return CHANCE
    if ph == PH_PICK:
        return int(g[ACTIVE])
    if ph == PH_OVER:
        return TERMINAL
    return int(g[ACTOR])


@flat
def legal(g: np.ndarray, out: np.ndarray) -> int:
    """Write the decisions of the player to move into ``out`` (the engine's order); their number (0 at chance)."""
    if g[CHOICE]:
        head = g[QUEUE + g[Q_HEAD]]
        return bonus_scan(g, head >> 4, head & 15, out, 0, True)[0]
    ph = g[PHASE]
    if ph == PH_PICK:
        p = g[ACTIVE]
        k = entries(g, p, g[ROLL_MASK], K_ENTRY, out, 0)
        s = SHEETS + p * STRIDE
        if g[s + RRG] - g[s + RRU] > 0:
            out[k] = REROLL
            k += 1
        if k == 0 or (k == 1 and out[0] == REROLL):
            out[k] = FORFEIT
            k += 1
        return k
    if ph == PH_PLUS:
        p = g[ACTOR]
        k = entries(g, p, 63 & ~g[PLUS_USED + p], K_PLUS, out, 0)
        out[k] = STOP
        return k + 1
    if ph == PH_PASSIVE_PICK:
        k = passive_entries(g, g[ACTOR], out, 0)
        out[k] = PASS
        return k + 1
    return 0


@flat
def push(g: np.ndarray, p: int, bonus: int) -> None:
    g[QUEUE + (g[Q_HEAD] + g[Q_LEN]) % Q_CAP] = (p << 4) | bonus
    g[Q_LEN] += 1


@flat
def mark(g: np.ndarray, p: int, area: int, cell: int, val: int) -> None:
    """Cross or write on ``p``'s sheet and queue the bonuses this fires (the engine's order)."""
    s = SHEETS + p * STRIDE
    if area == 0:
        ym = g[s + YM] | (1 << cell)
        g[s + YM] = ym
        for k in range(Y_GROUP_MASK.shape[1]):
            m = Y_GROUP_MASK[cell, k]
            if m and ym & m == m:
                push(g, p, Y_GROUP_BONUS[cell, k])
    elif area == 1:
        bm = g[s + BM] | (1 << cell)
        g[s + BM] = bm
        for k in range(B_GROUP_MASK.shape[1]):
            m = B_GROUP_MASK[cell, k]
            if m and bm & m == m:
                push(g, p, B_GROUP_BONUS[cell, k])
    elif area == 2:
        i = g[s + GC]
        g[s + GC] = i + 1
        if G_BONUS[i]:
            push(g, p, G_BONUS[i])
    elif area == 3:
        i = g[s + OC]
        g[s + OC] = i + 1
        g[s + OVALS + i] = val * O_MULT[i]
        g[s + OS] += val * O_MULT[i]
        if O_BONUS[i]:
            push(g, p, O_BONUS[i])
    else:
        i = g[s + PC]
        g[s + PC] = i + 1
        g[s + PVALS + i] = val
        g[s + PL] = val
        g[s + PS] += val
        if P_BONUS[i]:
            push(g, p, P_BONUS[i])


@flat
def apply_bonus(g: np.ndarray, p: int, bonus: int) -> None:
    """A bonus that needs no choice; one that cannot be applied is lost."""
    s = SHEETS + p * STRIDE
    if bonus == BONUS_REROLL:
        if g[s + RRG] < CIRCLES:
            g[s + RRG] += 1
    elif bonus == BONUS_PLUS:
        if g[s + P1G] < CIRCLES:
            g[s + P1G] += 1
    elif bonus == BONUS_FOX:
        g[s + FOX] += 1
    elif bonus == GREEN_X:
        if g[s + GC] < TRACK:
            mark(g, p, 2, 0, 0)
    elif bonus == PURPLE_6:
        if g[s + PC] < TRACK:
            mark(g, p, 4, 0, BLACK_SIX)
    elif g[s + OC] < TRACK:  # orange 4 / 5 / 6
        mark(g, p, 3, 0, ORANGE_NUMBER[bonus])


@flat
def place_choice(g: np.ndarray, p: int, action: int) -> None:
    mark(g, p, (action >> 5) & 7, action & 31, BLACK_SIX)


@flat
def resolve(g: np.ndarray) -> bool:
    """Apply queued bonuses in order; False when the head one waits for its player's choice."""
    while g[Q_LEN] > 0:
        head = g[QUEUE + g[Q_HEAD]]
        p = head >> 4
        bonus = head & 15
        if bonus in (YELLOW_X, BLUE_X, BLACK):
            k, first = bonus_scan(g, p, bonus, g, 0, False)  # no list: the rules allocate nothing
            if k > 1 or (k == 1 and not g[AUTO_SINGLE]):
                g[CHOICE] = 1
                return False
            g[Q_HEAD] = (g[Q_HEAD] + 1) % Q_CAP
            g[Q_LEN] -= 1
            if k == 1:
                place_choice(g, p, first)
            continue
        g[Q_HEAD] = (g[Q_HEAD] + 1) % Q_CAP
        g[Q_LEN] -= 1
        apply_bonus(g, p, bonus)
    return True


@flat
def start_turn(g: np.ndarray) -> None:
    g[ROLL_MASK] = 63
    g[FIELD] = 0
    g[FIELD_N] = 0
    g[PLATTER] = 0
    g[ROLLS] = 0
    for d in range(6):
        g[VAL + d] = 0
    for i in range(4):
        g[PLUS_USED + i] = 0
    g[PHASE] = PH_ROLL


@flat
def _order(g: np.ndarray, first: int, count: int) -> None:
    n = g[N]
    for k in range(count):
        g[ORDER + k] = (first + k) % n
    g[ORDER_HEAD] = 0
    g[ORDER_LEN] = count


@flat
def _pop_order(g: np.ndarray) -> int:
    p = g[ORDER + g[ORDER_HEAD]]
    g[ORDER_HEAD] += 1
    g[ORDER_LEN] -= 1
    return int(p)


@flat
def advance(g: np.ndarray, step: int) -> None:
    """Run the turn machine from ``step`` until a decision or a roll is needed."""
    n = g[N]
    while True:
        if step == ST_CONTINUE:
            ph = g[PHASE]
            if ph == PH_PICK:
                step = ST_AFTER_PICK
            elif ph == PH_PLUS:
                step = ST_OPEN_PLUS
            elif ph == PH_PASSIVE_PICK:
                g[AFTER] = AFTER_PASSIVE
                step = ST_OPEN_PLUS
            else:
                return
        elif step == ST_AFTER_PICK:
            if g[ROLLS] >= 3 or g[ROLL_MASK] == 0:
                g[PLATTER] |= g[ROLL_MASK]
                g[ROLL_MASK] = 0
                g[ACTOR] = g[ACTIVE]
                g[AFTER] = AFTER_ACTIVE
                step = ST_OPEN_PLUS
            else:
                g[PHASE] = PH_ROLL
                return
        elif step == ST_OPEN_PLUS:  # +1 for g[ACTOR] if they have one and a die fits
            p = g[ACTOR]
            s = SHEETS + p * STRIDE
            if g[s + P1G] - g[s + P1U] > 0 and has_entry(g, p, 63 & ~g[PLUS_USED + p]):
                g[PHASE] = PH_PLUS
                return
            step = ST_END_PLUS
        elif step == ST_END_PLUS:
            after = g[AFTER]
            if after == AFTER_ACTIVE:
                if n == 1:
                    g[PHASE] = PH_PASSIVE_ROLL
                    return
                _order(g, g[ACTIVE] + 1, n - 1)
                step = ST_NEXT_PASSIVE
            elif after == AFTER_PASSIVE:
                step = ST_END_TURN if n == 1 else ST_NEXT_PASSIVE
            else:
                step = ST_NEXT_END_PLUS
        elif step == ST_NEXT_PASSIVE:
            if g[ORDER_LEN] == 0:
                step = ST_END_TURN
            else:
                g[ACTOR] = _pop_order(g)
                g[PHASE] = PH_PASSIVE_PICK
                step = ST_SETTLE
        elif step == ST_SETTLE:  # a passive player with nothing to take goes to their +1 step
            if has_passive_entry(g, g[ACTOR]):
                return
            g[AFTER] = AFTER_PASSIVE
            step = ST_OPEN_PLUS
        elif step == ST_END_TURN:
            if g[ACTIVE] + 1 < n:
                g[ACTIVE] += 1
                start_turn(g)
                return
            if g[ROUND] < g[ROUNDS]:
                g[ACTIVE] = 0
                g[ROUND] += 1
                step = ST_START_ROUND
            else:
                _order(g, 0, n)
                step = ST_NEXT_END_PLUS
        elif step == ST_NEXT_END_PLUS:
            if g[ORDER_LEN] == 0:
                g[PHASE] = PH_OVER
                g[ACTOR] = -1
                return
            g[ACTOR] = _pop_order(g)
            g[AFTER] = AFTER_END
            step = ST_OPEN_PLUS
        else:  # ST_START_ROUND
            r = g[ROUND]
            bonus = ROUND_BONUS[r - 1] if r <= ROUND_BONUS.shape[0] else 0
            start_turn(g)
            if not bonus:
                return
            for p in range(n):
                push(g, p, bonus)
            if not resolve(g):
                return
            step = ST_CONTINUE


@flat
def apply(g: np.ndarray, action: int) -> None:
    """Apply a decision or a chance outcome (trusted to be legal)."""
    if action & CHANCE_FLAG:
        if g[PHASE] == PH_ROLL:
            m = g[ROLL_MASK]
            for d in range(6):
                if (m >> d) & 1:
                    g[VAL + d] = (action >> (3 * d)) & 7
            g[PHASE] = PH_PICK
        else:  # the solo passive roll
            for d in range(6):
                g[VAL + d] = (action >> (3 * d)) & 7
            g[PLATTER] = (action >> 18) & 63
            g[FIELD] = 0
            g[FIELD_N] = 0
            g[PLUS_USED] = 0
            g[ACTOR] = 0
            g[PHASE] = PH_PASSIVE_PICK
            advance(g, ST_SETTLE)
        return
    kind = action >> 12
    if g[CHOICE]:
        head = g[QUEUE + g[Q_HEAD]]
        g[Q_HEAD] = (g[Q_HEAD] + 1) % Q_CAP
        g[Q_LEN] -= 1
        g[CHOICE] = 0
        place_choice(g, head >> 4, action)
        if resolve(g):
            advance(g, ST_CONTINUE)
        return
    d = (action >> 8) & 7
    if kind == K_ENTRY:
        val = g[VAL + d]
        if g[PHASE] == PH_PICK:
            rm = g[ROLL_MASK] & ~(1 << d)
            g[FIELD] |= 1 << d
            g[FIELD_SEQ + g[FIELD_N]] = d
            g[FIELD_N] += 1
            lower = 0
            for e in range(6):
                if (rm >> e) & 1 and g[VAL + e] < val:
                    lower |= 1 << e
            g[ROLL_MASK] = rm & ~lower
            g[PLATTER] |= lower
            g[ROLLS] += 1
            p = g[ACTIVE]
        else:
            p = g[ACTOR]
        mark(g, p, (action >> 5) & 7, action & 31, val)
        if resolve(g):
            advance(g, ST_CONTINUE)
    elif kind == K_PLUS:
        p = g[ACTOR]
        g[SHEETS + p * STRIDE + P1U] += 1
        g[PLUS_USED + p] |= 1 << d
        mark(g, p, (action >> 5) & 7, action & 31, g[VAL + d])
        if resolve(g):
            advance(g, ST_CONTINUE)
    elif action == REROLL:
        g[SHEETS + g[ACTIVE] * STRIDE + RRU] += 1
        g[PHASE] = PH_ROLL
    elif action == FORFEIT:
        g[ROLLS] += 1
        advance(g, ST_AFTER_PICK)
    elif action == STOP:
        advance(g, ST_END_PLUS)
    else:  # PASS
        g[AFTER] = AFTER_PASSIVE
        advance(g, ST_OPEN_PLUS)


@njit
def new_game(n: int, rounds: int, fallback: bool, auto_single: bool) -> np.ndarray:
    g = np.zeros(SIZE, np.int64)
    g[N] = n
    g[ROUNDS] = rounds
    g[ROUND] = 1
    g[FALLBACK] = 1 if fallback else 0
    g[AUTO_SINGLE] = 1 if auto_single else 0
    for p in range(n):
        g[SHEETS + p * STRIDE + YM] = Y_PRINTED
    advance(g, ST_START_ROUND)
    return g


@flat
def area_score(g: np.ndarray, p: int, area: int) -> int:
    s = SHEETS + p * STRIDE
    if area == 0:
        pts = 0
        ym = g[s + YM]
        for c in range(Y_COL_MASK.shape[0]):
            if ym & Y_COL_MASK[c] == Y_COL_MASK[c]:
                pts += Y_COL_POINTS[c]
        return pts
    if area == 1:
        return int(B_POINTS[popcount(g[s + BM])])
    if area == 2:
        return int(G_POINTS[g[s + GC]])
    if area == 3:
        return int(g[s + OS])
    return int(g[s + PS])


@flat
def total(g: np.ndarray, p: int) -> int:
    low = 1 << 30
    pts = 0
    for area in range(5):
        a = area_score(g, p, area)
        pts += a
        low = min(low, a)
    return int(pts + g[SHEETS + p * STRIDE + FOX] * low)


@njit
def totals(g: np.ndarray) -> np.ndarray:
    out = np.empty(g[N], np.int64)
    for p in range(g[N]):
        out[p] = total(g, p)
    return out


@flat
def chance_code(g: np.ndarray, vals: np.ndarray, keys: np.ndarray) -> int:
    """The outcome the engine's ``sample_chance`` makes of six drawn values (and, solo passive, six tie keys)."""
    code = CHANCE_FLAG
    if g[PHASE] == PH_ROLL:
        m = g[ROLL_MASK]
        for d in range(6):
            if (m >> d) & 1:
                code |= vals[d] << (3 * d)
        return code
    # the three lowest go to the platter: each die's rank in the engine's stable sort by (value, key), counted in
    # place (no arrays in the dice's hot path)
    for d in range(6):
        code |= vals[d] << (3 * d)
        rank = 0
        for e in range(6):
            if vals[e] < vals[d] or (
                vals[e] == vals[d] and (keys[e] < keys[d] or (keys[e] == keys[d] and e < d))
            ):
                rank += 1
        if rank < 3:
            code |= 1 << (18 + d)
    return code


@njit
def sample_chance(g: np.ndarray, rng: np.random.Generator) -> int:
    """The engine's ``sample_chance``: the same draws from ``rng``, so the same dice for the same seed."""
    vals = rng.integers(1, 7, size=6)
    if g[PHASE] == PH_ROLL:
        return chance_code(g, vals, np.zeros(6))
    return chance_code(g, vals, rng.random(6))


@njit
def play_random(g: np.ndarray, chance_rng: np.random.Generator, bot_rng: np.random.Generator) -> None:
    """Finish the game with uniformly random decisions (the draws of ``RandomAgent``)."""
    out = np.empty(MAX_LEGAL, np.int64)
    while True:
        p = current_player(g)
        if p == TERMINAL:
            return
        if p == CHANCE:
            apply(g, sample_chance(g, chance_rng))
        else:
            k = legal(g, out)
            apply(g, out[bot_rng.integers(0, k)])


@njit
def random_games(games: int, n: int, rounds: int, rng: np.random.Generator) -> float:
    """Play ``games`` random games (dice and decisions from ``rng``); the mean score of seat 0."""
    acc = 0.0
    for _ in range(games):
        g = new_game(n, rounds, True, True)
        play_random(g, rng, rng)
        acc += total(g, 0)
    return acc / games
