"""Face-blind features of one player's sheet for the learned value (no dice values, only the sheet and time).

Per area the crossed cells or the fill count (one-hot), written sums, the purple last value, the action bars,
foxes, area scores, how much of the game is left, and "bonus economy": per bonus kind how many of its sources
are one mark away (a grid group missing one cell, or the next cell of a track), and which dice the next roll of
one's own turn throws. The names, in order, are
:data:`NAMES` (documented in ``docs/clever-training.md``).
"""

from __future__ import annotations

import numpy as np

from dicehall.clever import sheet as S
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.layout import (
    ACTIVE,
    ACTOR,
    B_FIRST,
    B_SLOTS,
    BM,
    CHOICE,
    FOX,
    G_BONUS,
    GC,
    O_BONUS,
    OC,
    OS,
    P1G,
    P1U,
    P_BONUS,
    PC,
    PHASE,
    PL,
    PLATTER,
    PS,
    ROLL_MASK,
    ROLLS,
    ROUND,
    ROUNDS,
    RRG,
    RRU,
    SHEETS,
    STRIDE,
    TRACK,
    Y_CELLS,
    Y_PRINTED,
    YM,
    N,
    njit,
)
from dicehall.clever.tables import B_COLS, B_ROWS, Y_COLS, Y_DIAGONALS, Y_ROWS

# Every group of a grid with its bonus (0: none; yellow columns pay points, not bonuses).
_GROUPS = [(0, m, b or 0) for m, b in zip(Y_ROWS, S.YELLOW_AREA.row_bonuses, strict=True)]
_GROUPS += [(0, m, 0) for m in Y_COLS]
_GROUPS += [(0, m, b) for m, (_, b) in zip(Y_DIAGONALS, S.YELLOW_AREA.diagonals, strict=True)]
_GROUPS += [(1, m, b or 0) for m, b in zip(B_ROWS, S.BLUE_AREA.row_bonuses, strict=True)]
_GROUPS += [(1, m, b or 0) for m, b in zip(B_COLS, S.BLUE_AREA.column_bonuses, strict=True)]
GROUP_AREA = np.array([a for a, _, _ in _GROUPS], np.int64)
GROUP_MASK = np.array([m for _, m, _ in _GROUPS], np.int64)
GROUP_BONUS = np.array([b for _, _, b in _GROUPS], np.int64)
KINDS = S.FOX  # bonus kinds 1..FOX (the black choice is no source on the sheet)
Y_OPEN = np.array([c for c in range(Y_CELLS) if not Y_PRINTED >> c & 1], np.int64)


def _names() -> list[str]:
    out = [f"yellow cell {c}" for c in Y_OPEN.tolist()]
    out += [f"group {i} missing" for i in range(len(_GROUPS))]
    out += [f"blue cell {c}" for c in range(B_FIRST, B_SLOTS)]
    out += [f"green {k} crossed" for k in range(TRACK + 1)]
    out += [f"orange {k} written" for k in range(TRACK + 1)] + ["orange sum"]
    out += [f"purple {k} written" for k in range(TRACK + 1)] + [f"purple last {v}" for v in range(7)]
    out += ["purple sum", "re-rolls held", "+1 held", "re-rolls gained", "+1 gained", "foxes"]
    out += [f"{name} points" for name in S.AREA_NAMES] + ["lowest area", "total"]
    out += [f"rounds left {k}" for k in range(7)]
    out += [f"rolls used {k}" for k in range(4)] + ["dice left to roll", "+1 step", "passive step", "choice"]
    out += [f"one away: {S.BONUS_NAMES[k]}" for k in range(1, KINDS + 1)]
    out += ["players - 1"]
    # added after the first shipped network (which had the names above): new inputs go last, so that older
    # weights widen with zero rows and play exactly as before (train.new_run)
    out += [f"to roll: {name}" for name in S.DIE_NAMES]
    # the table (issue 28; all zero solo, so solo values are unchanged by any weights on them)
    out += [f"seats {n}" for n in (2, 3, 4)]
    out += ["best opponent total", "opponents' mean total", "lead over the best opponent"]
    out += ["best opponent lowest area", "best opponent foxes", "best opponent actions held"]
    out += ["best opponent one away"]
    out += [f"active is {k} seats after me" for k in range(4)]
    out += ["platter dice"] + [f"platter: {name}" for name in S.DIE_NAMES]
    out += ["platter entries, best opponent", "platter entries, opponents' mean"]
    return out


NAMES: tuple[str, ...] = tuple(_names())
COUNT = len(NAMES)


@njit
def one_away_count(g: np.ndarray, p: int) -> int:
    """How many bonus sources of ``p``'s sheet are one mark away (grid groups and the next track cells)."""
    s = SHEETS + p * STRIDE
    ym = g[s + YM]
    bm = g[s + BM]
    n = 0
    for i in range(GROUP_MASK.shape[0]):
        if GROUP_BONUS[i] and K.popcount(GROUP_MASK[i] & ~(ym if GROUP_AREA[i] == 0 else bm)) == 1:
            n += 1
    gc, oc, pc = g[s + GC], g[s + OC], g[s + PC]
    n += int(gc < TRACK and G_BONUS[gc] > 0) + int(oc < TRACK and O_BONUS[oc] > 0)
    n += int(pc < TRACK and P_BONUS[pc] > 0)
    return n


@njit
def table_features(g: np.ndarray, p: int, own: int, x: np.ndarray, f: int) -> None:
    """The table block from ``x[f]``: the seat count, the opponents' sheets (the best one by total), who is
    active relative to ``p``, and the platter (its colours and how many entries it offers the opponents).
    Nothing is written at a solo table."""
    n = g[N]
    if n < 2:
        return
    x[f + n - 2] = 1.0
    f += 3
    best = -1
    best_total = -1
    acc = 0.0
    for q in range(n):
        if q != p:
            t = K.total(g, q)
            acc += t
            if t > best_total:
                best, best_total = q, t
    x[f] = best_total / 300.0
    x[f + 1] = acc / (n - 1) / 300.0
    x[f + 2] = (own - best_total) / 100.0
    s = SHEETS + best * STRIDE
    low = 1 << 30
    for area in range(5):
        low = min(low, K.area_score(g, best, area))
    x[f + 3] = low / 30.0
    x[f + 4] = g[s + FOX] / 3.0
    x[f + 5] = (g[s + RRG] - g[s + RRU] + g[s + P1G] - g[s + P1U]) / 6.0
    x[f + 6] = one_away_count(g, best) / 5.0
    f += 7
    if g[PHASE] != K.PH_OVER:
        x[f + (g[ACTIVE] - p + n) % n] = 1.0
    f += 4
    platter = g[PLATTER]
    if platter and g[PHASE] != K.PH_OVER:
        x[f] = K.popcount(platter) / 6.0
        for d in range(6):
            x[f + 1 + d] = (platter >> d) & 1
        top = 0
        total = 0
        scratch = np.empty(K.MAX_LEGAL, np.int64)
        for q in range(n):
            if q != p:
                k = K.entries(g, q, platter, K.K_ENTRY, scratch, 0)
                top = max(top, k)
                total += k
        x[f + 7] = top / 6.0
        x[f + 8] = total / (n - 1) / 6.0


@njit
def features(g: np.ndarray, p: int, x: np.ndarray) -> None:
    """Write player ``p``'s features into ``x`` (length :data:`COUNT`)."""
    x[:] = 0.0
    s = SHEETS + p * STRIDE
    ym = g[s + YM]
    bm = g[s + BM]
    f = 0
    for c in Y_OPEN:
        x[f] = (ym >> c) & 1
        f += 1
    one_away = np.zeros(KINDS + 1, np.int64)
    for i in range(GROUP_MASK.shape[0]):
        m = GROUP_MASK[i]
        missing = K.popcount(m & ~(ym if GROUP_AREA[i] == 0 else bm))
        x[f] = missing / 4.0
        f += 1
        if missing == 1 and GROUP_BONUS[i]:
            one_away[GROUP_BONUS[i]] += 1
    for c in range(B_FIRST, B_SLOTS):
        x[f] = (bm >> c) & 1
        f += 1
    gc = g[s + GC]
    oc = g[s + OC]
    pc = g[s + PC]
    x[f + gc] = 1.0
    f += TRACK + 1
    x[f + oc] = 1.0
    f += TRACK + 1
    x[f] = g[s + OS] / 100.0
    f += 1
    x[f + pc] = 1.0
    f += TRACK + 1
    x[f + g[s + PL]] = 1.0
    f += 7
    x[f] = g[s + PS] / 50.0
    x[f + 1] = (g[s + RRG] - g[s + RRU]) / 3.0
    x[f + 2] = (g[s + P1G] - g[s + P1U]) / 3.0
    x[f + 3] = g[s + RRG] / 7.0
    x[f + 4] = g[s + P1G] / 7.0
    x[f + 5] = g[s + FOX] / 3.0
    f += 6
    low = 1 << 30
    tot = 0
    for area in range(5):
        a = K.area_score(g, p, area)
        x[f + area] = a / 50.0
        low = min(low, a)
        tot += a
    x[f + 5] = low / 30.0
    x[f + 6] = (tot + g[s + FOX] * low) / 300.0
    f += 7
    if gc < TRACK and G_BONUS[gc]:
        one_away[G_BONUS[gc]] += 1
    if oc < TRACK and O_BONUS[oc]:
        one_away[O_BONUS[oc]] += 1
    if pc < TRACK and P_BONUS[pc]:
        one_away[P_BONUS[pc]] += 1
    ph = g[PHASE]
    over = ph == K.PH_OVER
    x[f + (0 if over else g[ROUNDS] - g[ROUND] + 1)] = 1.0
    f += 7
    mine = g[ACTIVE] == p and (ph == K.PH_ROLL or ph == K.PH_PICK) and g[ROLLS] < 3 and not over
    if mine:
        x[f + g[ROLLS]] = 1.0
        x[f + 4] = K.popcount(g[ROLL_MASK]) / 6.0
    f += 5
    x[f] = 1.0 if ph == K.PH_PLUS and g[ACTOR] == p else 0.0
    x[f + 1] = 1.0 if ph == K.PH_PASSIVE_ROLL or (ph == K.PH_PASSIVE_PICK and g[ACTOR] == p) else 0.0
    x[f + 2] = g[CHOICE]
    f += 3
    for k in range(1, KINDS + 1):
        x[f] = one_away[k] / 2.0
        f += 1
    x[f] = (g[N] - 1) / 3.0
    f += 1
    if mine:  # which colours the next roll of one's own turn throws (the network sees no faces)
        for d in range(6):
            x[f + d] = (g[ROLL_MASK] >> d) & 1
    f += 6
    table_features(g, p, tot + g[s + FOX] * low, x, f)
