"""Decision-time look-ahead for ``bot:master``: expectimax over the turn's next roll, the learned value at the leaves.

The value network is face-blind: after an active pick it sees how many dice are left to roll, not which colours.
So where a candidate action leads to another roll of the same turn (a pick with rolls left, a re-roll, a bonus
choice in between), :func:`choose_search` replaces that candidate's value by the mean, over a fixed set of rolls,
of the best afterstate value the player could then reach (one more decision, valued by the network). Only the
candidates within ``margin`` of the best plain value are looked at (at most ``width`` of them): elsewhere the
choice is clear and the look-ahead would not change it. The rolls are a fixed table (each die's faces exactly
uniform over the table), so the bot stays deterministic: the engine path and the kernel fast path play the
same game.

Two optional corrections for the low tail (docs/clever-training.md, "The low tail"), both off by default, given as
the ``tail`` array (:data:`TAIL_OFF`; see :class:`dicehall.clever.master.Lookahead`): ``low`` adds, to the value of
every afterstate the game goes on from, ``low`` times its lowest area's points (as if that many more foxes were
to come: the fox product is what the worst games lose); where the fox product is *at stake* (a candidate within
the wide margin ends with other fox points, foxes × lowest area, than the best one, and at most ``rounds`` rounds
are left, 0: any) the look-ahead widens to that margin and width and looks at every roll.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.layout import (
    ACTIVE,
    FOX,
    PHASE,
    ROLLS,
    ROUND,
    ROUNDS,
    SHEETS,
    SIZE,
    STRIDE,
    N,
    njit,
)
from dicehall.clever.kernel.net import (
    SCALE,
    afterstate_value,
    afterstate_values,
    best_value,
    decision_scratch,
    first_best,
    roll_to_decision,
    value_scratch,
)
from dicehall.core.game import CHANCE, TERMINAL

# the ``tail`` array: [low bonus (value units per point of the lowest area), wide margin (value units), wide
# width, at most this many rounds left for the widening (0: any), the same for the low bonus, risk, the deep
# search's rounds (0: off), its inner rolls (the roll table's last rows) and its outer rolls (the rows before
# those; 0: the look-ahead's own rolls), the exact end's state cap (0: off)]
TAIL_LOW, TAIL_MARGIN, TAIL_WIDTH, TAIL_ROUNDS, TAIL_LOW_ROUNDS, TAIL_RISK = 0, 1, 2, 3, 4, 5
TAIL_DEEP_ROUNDS, TAIL_DEEP_ROLLS, TAIL_DEEP_OUTER = 6, 7, 8
TAIL_EXACT = 9  # > 0: the exact end (:func:`exact_value`), searching at most this many states per action
TAIL_EXACT_ROLL = 10  # 1: solo, the last round's candidates before the passive roll looked at over it
TAIL_OFF = np.zeros(11)
TAIL_OFF_K = TAIL_OFF  # a global array is a compile-time constant in the kernel


def roll_table(count: int, seed: int = 12) -> np.ndarray:
    """``count`` six-dice rolls (a multiple of 6) in which every die shows each face exactly ``count / 6`` times."""
    if count <= 0 or count % 6:
        raise ValueError(f"the look-ahead needs a positive multiple of 6 rolls, not {count}")
    rng = np.random.default_rng(seed)
    faces = np.repeat(np.arange(1, 7, dtype=np.int64), count // 6)
    return np.stack([rng.permutation(faces) for _ in range(6)], axis=1)


@njit
def next_roll_value(
    h: np.ndarray,
    p: int,
    rolls: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    tail: np.ndarray,
) -> float:
    """Mean over ``rolls`` of the best afterstate value ``p`` reaches by the decision after the roll at ``h``
    (each value with the lowest-area bonus of ``tail``, :func:`add_low_bonus`), less ``tail``'s risk times the
    mean shortfall below that mean."""
    out, values = decision_scratch()
    rolled = np.empty(SIZE, np.int64)
    keys = np.zeros(6)
    low, low_rounds, risk = tail[TAIL_LOW], int(tail[TAIL_LOW_ROUNDS]), tail[TAIL_RISK]
    cap = int(tail[TAIL_EXACT])
    seen = np.empty(rolls.shape[0] if risk != 0.0 else 0)  # kept only for the risk term
    acc = 0.0
    for r in range(rolls.shape[0]):
        rolled[:] = h
        K.apply(rolled, K.chance_code(rolled, rolls[r], keys))
        if (
            K.current_player(rolled) != p
        ):  # nothing to decide after this roll (a solo passive roll): its value
            v = leaf_value(rolled, p, w1, b1, w2, b2, w3, b3)
        elif low == 0.0 and cap == 0:
            v = best_value(rolled, p, w1, b1, w2, b2, w3, b3, out, values)
        else:
            k = afterstate_values(rolled, p, w1, b1, w2, b2, w3, b3, out, values)
            if cap == 0 or not exact_values(rolled, p, out, values, k, cap):
                add_low_bonus(rolled, p, out, values, k, low, low_rounds)
            v = values[first_best(values, k)]
        acc += v
        if risk != 0.0:
            seen[r] = v
    mean = acc / rolls.shape[0]
    if risk == 0.0:
        return float(mean)
    return float(mean - risk * np.maximum(mean - seen, 0.0).mean())


@njit
def leaf_value(
    g: np.ndarray,
    p: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
) -> float:
    """The value for ``p`` of a state nobody decides in (a roll to come, or the end: the exact score)."""
    x, a1, a2 = value_scratch(b1, b2)
    return afterstate_value(g, p, w1, b1, w2, b2, w3, b3, x, a1, a2)


@njit
def decision_value(
    g: np.ndarray,
    p: int,
    rolls: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    margin: float,
    width: int,
    out: np.ndarray,
    values: np.ndarray,
) -> float:
    """The value for ``p`` of the state ``g`` after a roll: that of its best decision by the one-roll look-ahead
    over ``rolls`` (every roll, the solo passive roll and a next turn's first roll included), or, where ``p``
    does not decide, :func:`leaf_value`."""
    if K.current_player(g) != p:
        return leaf_value(g, p, w1, b1, w2, b2, w3, b3)
    k = afterstate_values(g, p, w1, b1, w2, b2, w3, b3, out, values)
    best = first_best(values, k)
    if k == 1 or width <= 0:
        return float(values[best])
    h = np.empty(SIZE, np.int64)
    top = values[best]
    looked = 0
    for i in np.argsort(-values[:k]):
        if looked >= width or values[i] < top - margin:
            break
        h[:] = g
        K.apply(h, out[i])
        if leads_to_roll(out[i], h, p, True):
            values[i] = next_roll_value(h, p, rolls, w1, b1, w2, b2, w3, b3, TAIL_OFF_K)
            looked += 1
    return float(values[first_best(values, k)])


@njit
def deep_roll_value(
    h: np.ndarray,
    p: int,
    outer: np.ndarray,
    inner: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    margin: float,
    width: int,
) -> float:
    """Two rolls deep: the mean over ``outer`` of :func:`decision_value` after the roll at ``h`` (whose close
    candidates look one roll further over ``inner``)."""
    out, values = decision_scratch()
    rolled = np.empty(SIZE, np.int64)
    keys = np.zeros(6)
    acc = 0.0
    for r in range(outer.shape[0]):
        rolled[:] = h
        K.apply(rolled, K.chance_code(rolled, outer[r], keys))
        acc += decision_value(rolled, p, inner, w1, b1, w2, b2, w3, b3, margin, width, out, values)
    return float(acc / outer.shape[0])


EXACT_DEPTH = 48  # decisions in a row without a roll: far more than the +1 marks a sheet can hold


@njit
def exact_value(g: np.ndarray, p: int, cap: int) -> float:
    """The best final score of ``p`` (value units) from ``g`` where no roll is left to come, searched over every
    decision to the end of the game; NaN where a roll or another player comes first or more than ``cap`` states
    would be searched."""
    if g[PHASE] == K.PH_OVER:
        return K.total(g, p) / SCALE
    if K.current_player(g) != p:
        return np.nan
    states = np.empty((EXACT_DEPTH, SIZE), np.int64)
    acts = np.empty((EXACT_DEPTH, K.MAX_LEGAL), np.int64)
    count = np.zeros(EXACT_DEPTH, np.int64)
    nxt = np.zeros(EXACT_DEPTH, np.int64)
    best = np.full(EXACT_DEPTH, -np.inf)
    states[0, :] = g
    count[0] = K.legal(states[0], acts[0])
    d, seen = 0, 0
    while True:
        if nxt[d] < count[d]:
            a = acts[d, nxt[d]]
            nxt[d] += 1
            seen += 1
            if seen > cap or d + 1 >= EXACT_DEPTH:
                return np.nan
            states[d + 1, :] = states[d, :]
            K.apply(states[d + 1], a)
            if states[d + 1, PHASE] == K.PH_OVER:
                best[d] = max(best[d], K.total(states[d + 1], p) / SCALE)
            elif K.current_player(states[d + 1]) != p:
                return np.nan
            else:
                d += 1
                count[d] = K.legal(states[d], acts[d])
                nxt[d] = 0
                best[d] = -np.inf
        else:
            if d == 0:
                return float(best[0])
            d -= 1
            best[d] = max(best[d], best[d + 1])


@njit
def exact_values(g: np.ndarray, p: int, out: np.ndarray, values: np.ndarray, k: int, cap: int) -> bool:
    """Replace the values of the ``k`` actions of ``out`` by :func:`exact_value` of their afterstates, if it is
    known for every one (solo, the last round); whether it was."""
    if g[N] != 1 or g[ROUND] != g[ROUNDS] or g[PHASE] == K.PH_PICK:
        return False
    exact = np.empty(k)
    h = np.empty(SIZE, np.int64)
    for i in range(k):
        h[:] = g
        K.apply(h, out[i])
        exact[i] = exact_value(h, p, cap)
        if np.isnan(exact[i]):
            return False
    values[:k] = exact
    return True


@njit
def lowest_area(g: np.ndarray, p: int) -> int:
    """The points of ``p``'s lowest area (the fox multiplier)."""
    low = 1 << 30
    for area in range(5):
        low = min(low, K.area_score(g, p, area))
    return low


@njit
def add_low_bonus(
    g: np.ndarray, p: int, out: np.ndarray, values: np.ndarray, k: int, low: float, rounds: int
) -> None:
    """Add ``low`` × the lowest area's points to the values of the ``k`` afterstates of ``out`` at ``g`` that the
    game goes on from (a finished game's value is its score) with at most ``rounds`` rounds left (0: any)."""
    h = np.empty(SIZE, np.int64)
    for i in range(k):
        h[:] = g
        K.apply(h, out[i])
        if h[PHASE] != K.PH_OVER and (rounds <= 0 or h[ROUNDS] - h[ROUND] + 1 <= rounds):
            values[i] += low * lowest_area(h, p)


@njit
def fox_at_stake(g: np.ndarray, p: int, out: np.ndarray, values: np.ndarray, k: int, margin: float) -> bool:
    """Whether a candidate within ``margin`` of the best value ends with other fox points (foxes × lowest area)
    than the best one: the decision moves the fox product."""
    best = first_best(values, k)
    h = np.empty(SIZE, np.int64)
    h[:] = g
    K.apply(h, out[best])
    s = SHEETS + p * STRIDE
    points = h[s + FOX] * lowest_area(h, p)
    for i in range(k):
        if i != best and values[i] >= values[best] - margin:
            h[:] = g
            K.apply(h, out[i])
            if h[s + FOX] * lowest_area(h, p) != points:
                return True
    return False


@njit
def leads_to_roll(action: int, h: np.ndarray, p: int, every_roll: bool) -> bool:
    """Whether ``action`` (afterstate ``h``) leads to a roll after which ``p`` decides: one of the same turn, or
    with ``every_roll`` any (a new turn's first roll, the solo passive roll)."""
    if every_roll:
        return K.current_player(h) == CHANCE and (
            (h[PHASE] == K.PH_ROLL and h[ACTIVE] == p) or (h[PHASE] == K.PH_PASSIVE_ROLL and h[N] == 1)
        )
    return h[PHASE] == K.PH_ROLL and h[ACTIVE] == p and (h[ROLLS] > 0 or action == K.REROLL)


@njit
def choose_search(
    g: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
    rolls: np.ndarray,
    margin: float,
    width: int,
    every_roll: bool,
    tail: np.ndarray,
) -> int:
    """Like :func:`net.choose`, with the next-roll look-ahead for the close candidates that lead to a roll (and
    the low-tail corrections ``tail``, module docstring)."""
    p = K.current_player(g)
    k = afterstate_values(g, p, w1, b1, w2, b2, w3, b3, out, values)
    low = tail[TAIL_LOW]
    if low != 0.0 and k > 1:
        add_low_bonus(g, p, out, values, k, low, int(tail[TAIL_LOW_ROUNDS]))
    if k > 1 and tail[TAIL_EXACT] > 0 and exact_values(g, p, out, values, k, int(tail[TAIL_EXACT])):
        return first_best(values, k)
    best = first_best(values, k)
    if k == 1 or width <= 0:
        return best
    wide = int(tail[TAIL_WIDTH])
    rounds = int(tail[TAIL_ROUNDS])
    if (
        wide > 0
        and (rounds == 0 or g[ROUNDS] - g[ROUND] + 1 <= rounds)
        and fox_at_stake(g, p, out, values, k, tail[TAIL_MARGIN])
    ):
        margin, width, every_roll = max(margin, tail[TAIL_MARGIN]), max(width, wide), True
    inner_n, outer_n = int(tail[TAIL_DEEP_ROLLS]), int(tail[TAIL_DEEP_OUTER])
    own = rolls[: rolls.shape[0] - inner_n - outer_n]  # the look-ahead's rolls, then the deep search's
    outer = rolls[own.shape[0] : own.shape[0] + outer_n] if outer_n else own
    inner = rolls[rolls.shape[0] - inner_n :]
    deep_rounds = int(tail[TAIL_DEEP_ROUNDS])
    deep = deep_rounds > 0 and g[ROUNDS] - g[ROUND] + 1 <= deep_rounds
    last_roll = tail[TAIL_EXACT_ROLL] > 0 and g[N] == 1 and g[ROUND] == g[ROUNDS]
    h = np.empty(SIZE, np.int64)
    top = values[best]
    looked = 0
    for i in np.argsort(-values[:k]):
        if looked >= width or values[i] < top - margin:
            break
        h[:] = g
        K.apply(h, out[i])
        if not leads_to_roll(out[i], h, p, every_roll or deep or last_roll):
            continue
        if deep:
            values[i] = deep_roll_value(h, p, outer, inner, w1, b1, w2, b2, w3, b3, margin, width)
        else:
            values[i] = next_roll_value(h, p, own, w1, b1, w2, b2, w3, b3, tail)
        looked += 1
    if looked == 0:
        return best
    return first_best(values, k)


@njit
def play_search(
    g: np.ndarray,
    rng: np.random.Generator,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    rolls: np.ndarray,
    margin: float,
    width: int,
    every_roll: bool,
    tail: np.ndarray,
) -> None:
    """Finish the game with every seat playing :func:`choose_search`; dice from ``rng``."""
    out, values = decision_scratch()
    while roll_to_decision(g, rng) != TERMINAL:
        pick = choose_search(g, w1, b1, w2, b2, w3, b3, out, values, rolls, margin, width, every_roll, tail)
        K.apply(g, out[pick])
