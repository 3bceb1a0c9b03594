"""The two-player solver against the engine: its dice and rule transitions, and an independent brute force.

The brute force below knows nothing of the solver's tables: it plays every transition through the engine's own
``ThousandState`` (chance outcomes, ``bank``, zero rolls) and iterates values position by position (Jacobi, both
bounds), with its own treatment of turn totals that bank alike.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import solve
from dicehall.thousand.solver.space import (
    NOT_ALLOWED,
    STEP,
    WIN,
    PlayerState,
    build_space,
    dice_table,
    opponent_after_bank,
)
from dicehall.thousand.state import BANK, ROLL, ThousandState

CLASSIC = ThousandRules.from_preset("classic")
SMALL = ThousandRules.from_preset(
    "classic",
    {
        "target": 30,
        "barrel": "none",
        "pits": [[15, 20]],
        "open_min": 10,
        "bolts_count": 2,
        "bolt_penalty": 10,
        "overtake_penalty": 5,
        "dump_truck_score": 10,
    },
)
SMALL_BARREL = ThousandRules.from_preset(
    "classic",
    {
        "target": 50,
        "barrel_score": 30,
        "barrel_attempts": 2,
        "barrel_fall_penalty": 10,
        "barrel_falls_to_zero": 2,
        "pits": [],
        "open_min": 10,
        "bolts": False,
        "overtake_penalty": 5,
        "dump_truck_score": 15,
    },
)
FLOOR = -20


# -- engine helpers -----------------------------------------------------------------------------------------------
def engine_position(rules: ThousandRules, mover: PlayerState, other: PlayerState) -> ThousandState:
    barrel = rules.barrel == "score"
    seats = (mover, other)
    return ThousandState.from_position(
        rules,
        [p.score for p in seats],
        opened=[p.opened for p in seats],
        on_barrel=[barrel and p.score >= rules.barrel_score for p in seats],
        barrel_attempts=[p.attempts for p in seats],
        barrel_falls=[p.falls for p in seats],
        bolts=[p.bolts for p in seats],
    )


def seat_state(s: ThousandState, seat: int) -> PlayerState:
    return PlayerState(s.score[seat], s.opened[seat], s.bolts[seat], s.falls[seat], s.attempts[seat])


def with_dice_in_hand(rules: ThousandRules, n: int) -> ThousandState:
    """A fresh state at the chance node of rolling ``n`` dice (after a first roll that kept 5 - n dice)."""
    first = {5: None, 4: (1, 2, 3, 4, 6), 3: (1, 5, 2, 2, 3), 2: (1, 5, 1, 2, 3), 1: (1, 5, 1, 5, 2)}[n]
    s = ThousandState(rules, 2)
    if first is not None:
        s.apply_action(first)
        s.apply_action(ROLL)
    assert s.dice_in_hand == n
    return s


def engine_roll_groups(rules: ThousandRules, n: int) -> tuple[dict[tuple[int, int], float], float]:
    """(points, dice left or 0 for hot dice) -> probability, and the zero-roll probability, from the engine."""
    s = with_dice_in_hand(rules, n)
    before = s.turn_total
    groups: dict[tuple[int, int], float] = defaultdict(float)
    zero = 0.0
    for dice, p in s.chance_outcomes():
        c = s.clone()
        c.apply_action(dice)
        if c.player != s.player:
            zero += p
        else:
            groups[(c.turn_total - before, 0 if c.hot_dice else c.dice_in_hand)] += p
    return dict(groups), zero


# -- transitions ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_roll_outcomes_equal_the_engines_chance_outcomes(n: int) -> None:
    d = dice_table(CLASSIC)
    mine: dict[tuple[int, int], float] = defaultdict(float)
    for g in range(d.first[n], d.first[n + 1]):
        mine[(int(d.step[g]) * STEP, int(d.left[g]))] += float(d.prob[g])
    groups, zero = engine_roll_groups(CLASSIC, n)
    assert mine.keys() == groups.keys()
    for key, p in groups.items():
        assert mine[key] == pytest.approx(p, abs=1e-13)
    assert d.zero[n] == pytest.approx(zero, abs=1e-13)


@pytest.mark.parametrize("rules", [CLASSIC, SMALL, SMALL_BARREL], ids=["classic", "small", "small-barrel"])
def test_bank_and_burn_transitions_equal_the_engine(rules: ThousandRules) -> None:
    space = build_space(rules, -300 if rules is CLASSIC else FLOOR)
    rng = random.Random(7)
    pairs = [(rng.randrange(space.size), rng.randrange(space.size)) for _ in range(400)]
    # every barrel, knock-off, pit and dump-truck state against a few opponents as well
    special = [i for i, p in enumerate(space.states) if p.attempts or p.falls or rules.pit_of(p.score)]
    pairs += [(m, rng.randrange(space.size)) for m in special[:200]]
    pairs += [(rng.randrange(space.size), o) for o in special[:200]]
    for m, o in pairs:
        mover, other = space.states[m], space.states[o]
        if mover.score < space.floor + 100 or other.score < space.floor + 100:
            continue  # the floor is the model's own rule; the engine goes lower
        start = engine_position(rules, mover, other)
        # a zero roll
        s = start.clone()
        s.apply_action((2, 2, 3, 4, 6))
        assert space.index[space.canonical(seat_state(s, 0))] == space.burn_next[m], (mover, other)
        assert space.index[space.canonical(seat_state(s, 1))] == o
        # every bankable turn total up to the top (the top row stands for every total above it)
        for ti in range(1, int(space.top[m]) + 3):
            code = space.bank_next[m, min(ti, int(space.top[m]))]
            s = start.clone()
            s.phase = 1  # a decision point with this turn total (set directly: only the bank is tested)
            s.turn_total = ti * STEP
            s.in_hand = 1
            if code == NOT_ALLOWED:
                assert not s.can_bank()
                continue
            s.apply_action(BANK)
            if code == WIN:
                assert s.winner == 0
                continue
            assert s.winner is None
            assert space.index[space.canonical(seat_state(s, 0))] == code, (mover, other, ti)
            got_other = space.index[space.canonical(seat_state(s, 1))]
            assert got_other == opponent_after_bank(space, m, min(ti, int(space.top[m])), o), (
                mover,
                other,
                ti,
            )


def test_positions_and_refusals() -> None:
    space = build_space(CLASSIC)
    assert space.states[space.start] == PlayerState(0, False)
    assert space.positions == space.size**2
    with pytest.raises(ValueError, match="free_set_aside"):
        build_space(ThousandRules.from_preset("classic", {"free_set_aside": True}))
    with pytest.raises(ValueError, match="confirm"):
        build_space(ThousandRules.from_preset("variant2"))
    with pytest.raises(ValueError, match="more than the 12000000 this solver takes on"):
        build_space(CLASSIC, floor=-5000)


# -- the independent brute force ----------------------------------------------------------------------------------
Key = tuple[Any, ...]


def engine_key(s: ThousandState, seat: int, floor: int) -> Key:
    """A seat as the brute force keys it: the engine's counts, the score floored, counts that no longer
    matter dropped (bolts only count while they can be given, falls only up to the fall that zeroes)."""
    r = s.rules
    bolts = s.bolts[seat] if r.bolts and (s.opened[seat] or r.bolts_everywhere) else 0
    falls = min(s.falls[seat], max(r.barrel_falls_to_zero - 1, 0)) if r.barrel == "score" else 0
    return (max(s.score[seat], floor), s.opened[seat], bolts, falls, s.attempts[seat])


def brute_force(
    rules: ThousandRules, floor: int, sweeps: int = 400, tol: float = 1e-9
) -> dict[Key, list[float]]:
    """Both bounds of every reachable position (mover key, opponent key) by Jacobi value iteration."""
    groups = {n: engine_roll_groups(rules, n) for n in range(1, 6)}
    outs = [[(points // STEP, left, p) for (points, left), p in groups[n][0].items()] for n in range(1, 6)]
    p0 = [groups[n][1] for n in range(1, 6)]
    # reachable positions through the engine: bank every total from every position, and burn
    start = ThousandState(rules, 2)
    start_key = (engine_key(start, 0, floor), engine_key(start, 1, floor))
    banks: dict[Key, list[tuple[int, Key | None]]] = {}
    burns: dict[Key, Key] = {}
    tops: dict[Key, int] = {}
    todo = [start_key]
    seen = {start_key}

    def position(k: Key) -> ThousandState:
        mover, other = (PlayerState(*p) for p in k)
        return engine_position(rules, mover, other)

    while todo:
        k = todo.pop()
        s = position(k)
        z = s.clone()
        z.apply_action((2, 2, 3, 4, 6))
        nxt = [(engine_key(z, 1, floor), engine_key(z, 0, floor))]
        burns[k] = nxt[0]
        # beyond this total every bank is the same (the target, or the capped barrel): one entry stands for all
        limit = rules.target - s.score[0]
        if rules.barrel == "score" and not s.on_barrel[0]:
            limit = rules.barrel_score - s.score[0]
        top = max(limit, s.min_bank()) // STEP
        tops[k] = top
        banks[k] = []
        for ti in range(1, top + 1):
            b = s.clone()
            b.phase = 1
            b.turn_total = ti * STEP
            b.in_hand = 1
            if not b.can_bank():
                banks[k].append((ti, None))
                continue
            b.apply_action(BANK)
            if b.winner is not None:
                banks[k].append((ti, ("win",)))
                continue
            after = (engine_key(b, 1, floor), engine_key(b, 0, floor))
            banks[k].append((ti, after))
            nxt.append(after)
        for a in nxt:
            if a not in seen:
                seen.add(a)
                todo.append(a)
    # Gauss-Seidel in place, higher scores first (its own order: any order converges to the same limits)
    keys = sorted(seen, key=lambda k: (-max(k[0][0], k[1][0]), -min(k[0][0], k[1][0]), k))
    low = dict.fromkeys(keys, 0.0)
    high = dict.fromkeys(keys, 1.0)
    for _ in range(sweeps):
        change = 0.0
        for k in keys:
            v = turn_value(k, high, banks, burns, tops, outs, p0)
            change = max(change, abs(v - low[k]))
            low[k] = v
            v = turn_value(k, low, banks, burns, tops, outs, p0)
            change = max(change, abs(v - high[k]))
            high[k] = v
        if change < tol:
            break
    return {k: [low[k], high[k]] for k in keys}


def turn_value(
    k: Key,
    values: dict[Key, float],
    banks: dict[Key, list[tuple[int, Key | None]]],
    burns: dict[Key, Key],
    tops: dict[Key, int],
    outs: list[list[tuple[int, int, float]]],
    p0: list[float],
) -> float:
    """The mover's best win chance over the turn, given the next positions' values for the player then to move.

    ``outs[n - 1]``: (points / STEP, dice left or 0 for hot dice, probability) of a scoring roll of n dice;
    ``p0[n - 1]``: the chance of a zero roll."""
    top = tops[k]
    zero = 1.0 - values[burns[k]]
    bank: list[float | None] = [None] * (top + 1)
    for ti, after in banks[k]:
        bank[ti] = None if after is None else (1.0 if after == ("win",) else 1.0 - values[after])
    # d[ti][n]: decision values; n = 0: hot dice (a roll of five is forced)
    d = [[0.0] * 6 for _ in range(top + 1)]

    def row(ti: int) -> None:
        r = 0.0
        for n in range(1, 6):
            r = p0[n - 1] * zero
            for steps, left, p in outs[n - 1]:
                r += p * d[min(ti + steps, top)][left]
            b = bank[ti]
            d[ti][n] = r if b is None else max(b, r)
        d[ti][0] = r

    # the top row: every total at or above it banks alike, so it solves x = f(x) (only hot dice loop back)
    for _ in range(10_000):
        hot = d[top][0]
        row(top)
        if abs(d[top][0] - hot) < 1e-16:
            break
    row(top)
    for ti in range(top - 1, -1, -1):
        row(ti)
    return d[0][0]


@pytest.mark.parametrize("rules", [SMALL, SMALL_BARREL], ids=["small", "small-barrel"])
def test_solver_equals_brute_force_over_the_engine(rules: ThousandRules) -> None:
    expected = brute_force(rules, FLOOR)
    solution = solve(rules, floor=FLOOR, tol=1e-10)
    space = solution.space
    worst = 0.0
    for (mover, other), (lo, hi) in expected.items():
        m = space.index[PlayerState(*mover)]
        o = space.index[PlayerState(*other)]
        got_lo, got_hi = solution.bounds(m, o)
        worst = max(worst, abs(got_lo - lo), abs(got_hi - hi))
    assert worst < 1e-7
    assert len(expected) > 100
    start = expected[((0, False, 0, 0, 0), (0, False, 0, 0, 0))]
    assert solution.bounds(space.start, space.start) == pytest.approx(start, abs=1e-7)


# fall counts 0..2 for both players: six levels, barrel falls and knock-offs between them
LEVELS = ThousandRules.from_preset(
    "classic",
    {
        "target": 60,
        "barrel_score": 40,
        "barrel_attempts": 2,
        "barrel_fall_penalty": 10,
        "barrel_falls_to_zero": 3,
        "pits": [[15, 20]],
        "open_min": 10,
        "bolts_count": 2,
        "bolt_penalty": 10,
        "overtake_penalty": 5,
        "dump_truck_score": 25,
    },
)


@pytest.mark.parametrize("rules", [LEVELS, SMALL_BARREL], ids=["levels", "small-barrel"])
def test_levels_and_threads_reach_the_plain_sweeps_bounds(rules: ThousandRules) -> None:
    """Solving fall level after fall level (two threads, settled positions left out) ends at the same bounds
    as plain sweeps over every position in one thread: both converge to the extreme fixed points, whatever the
    order."""
    plain = solve(rules, floor=FLOOR, tol=1e-11, by_level=False, threads=1, skip_settled=False)
    by_level = solve(rules, floor=FLOOR, tol=1e-11, threads=2)
    falls = len(plain.space.fall_lo) - 1
    assert (
        len(by_level.levels) == falls * (falls + 1) // 2
        and sum(lv.positions for lv in by_level.levels) == plain.space.positions
    )
    assert np.abs(plain.lower - by_level.lower).max() < 1e-9
    assert np.abs(plain.upper - by_level.upper).max() < 1e-9
    assert by_level.converged and plain.converged


def test_levels_read_only_their_own_level_or_one_with_more_falls() -> None:
    from dicehall.thousand.solver.space import levels

    space = build_space(LEVELS, FLOOR)
    order = {lv.falls: i for i, lv in enumerate(levels(space))}

    def level(m: int, o: int) -> int:
        a, b = sorted((int(space.falls_of[m]), int(space.falls_of[o])))
        return order[(a, b)]

    for m in range(space.size):
        for o in range(space.size):
            here = level(m, o)
            nxt = [(o, int(space.burn_next[m]))]
            for ti in range(1, int(space.top[m]) + 1):
                code = int(space.bank_next[m, ti])
                if code >= 0:
                    nxt.append((opponent_after_bank(space, m, ti, o), code))
            assert all(level(a, b) <= here for a, b in nxt), (space.states[m], space.states[o])


def test_solution_summary_has_the_figures() -> None:
    solution = solve(SMALL, floor=FLOOR)
    s = solution.summary()
    for key in ("win_probability_first", "states", "sweeps", "max_change", "seconds", "peak_memory_mb"):
        assert key in s
    assert s["exact"] and 0.5 < s["win_probability_first"] < 0.7
    assert np.all(solution.lower <= solution.upper + 1e-12)
