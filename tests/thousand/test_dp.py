"""The expert's DP against brute force through the real engine, and against a Monte-Carlo run of its policy.

The brute force walks the engine's own turn (every chance outcome via ``chance_outcomes``, every decision via
``legal_actions``) for one player, so it checks both the DP's arithmetic and that its turn model is the engine's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from dicehall.thousand import dp
from dicehall.thousand.bots import free_rolls, turn_model
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.scoring import CLASSIC_KINDS, score_roll
from dicehall.thousand.state import ThousandState

SOLO = {"bolts": False, "overtake_penalty": 0}  # one player, no bolts: nothing outside the turn model


def engine_bounds(start: ThousandState, sat: int, margin: int = 600) -> tuple[float, float]:
    """Lower and upper bounds on the best expected useful points of the turn at ``start``, by exhaustive search
    of the engine. Turn totals above ``sat + margin`` (reached only through chains of hot dice) are valued 0
    for the lower bound and ``sat`` for the upper one; everything else is exact.
    """
    seat = start.player
    before = start.score[seat]
    memo: dict[Any, tuple[float, float]] = {}

    def value(s: ThousandState) -> tuple[float, float]:
        if s.is_terminal() or s.player != seat or s.turns != start.turns:
            v = float(sat) if s.winner is not None else float(min(s.score[seat] - before, sat))
            return v, v
        if s.turn_total > sat + margin:
            return 0.0, float(sat)
        rolls = free_rolls(s) if s.rules.max_rolls else 0
        keeping = None if s.pending_roll is None else tuple(sorted(s.last_roll or ()))
        key = (
            s.current_player(),
            s.turn_total,
            s.in_hand,
            s.hot_dice,
            rolls,
            s.confirming,
            len(s.set_aside),
            keeping,
        )
        if key in memo:
            return memo[key]
        if s.is_chance_node():
            lo = hi = 0.0
            for a, p in grouped(s):
                a_lo, a_hi = value(s.child(a))
                lo += p * a_lo
                hi += p * a_hi
        else:
            pairs = [value(s.child(a)) for a in s.legal_actions()]
            lo, hi = max(x for x, _ in pairs), max(y for _, y in pairs)
        memo[key] = (lo, hi)
        return lo, hi

    return value(start)


def grouped(s: ThousandState) -> list[tuple[Any, float]]:
    """The engine's chance outcomes merged by the multiset of faces (scoring ignores the order of the dice)."""
    merged: dict[Any, float] = {}
    for a, p in s.chance_outcomes():
        key = tuple(sorted(a))
        merged[key] = merged.get(key, 0.0) + p
    return list(merged.items())


def position(preset: str, score: int, **kw: Any) -> ThousandState:
    pos = {k: kw.pop(k) for k in ("on_barrel", "opened") if k in kw}
    rules = ThousandRules.from_preset(preset, {**SOLO, **kw})
    return ThousandState.from_position(rules, [score], **pos)


CASES = {
    "no-barrel-opened": lambda: position("classic", 880, barrel="none", target=1000, pits=[]),
    "not-opened": lambda: position("classic", 0, barrel="none", target=150, pits=[], dump_truck=False),
    "on-score-barrel": lambda: position("classic", 880, on_barrel=[True]),
    "open-barrel": lambda: position("classic-open", 880),
    "pit": lambda: position("classic", 650, barrel="none", target=800),
    "dump-truck": lambda: position("classic", 450, barrel="none", target=600, pits=[]),
    "variant2-confirm": lambda: position("variant2", 730),
    "yard-rolls-pairs-exact": lambda: position("yard", 880),
    "free-set-aside": lambda: position("classic", 880, barrel="none", pits=[], free_set_aside=True),
}


@pytest.mark.parametrize("case", list(CASES))
def test_dp_turn_value_equals_engine_brute_force(case: str) -> None:
    state = CASES[case]()
    model = turn_model(state)
    assert model.sat <= 150, "keep the brute force small"
    tab = dp.Table(model)
    lo, hi = engine_bounds(state, model.sat)
    assert hi - lo < 0.002 * model.sat
    assert lo - 1e-9 <= tab.turn_value() <= hi + 1e-9, (tab.turn_value(), lo, hi)


def test_decisions_respect_the_minimum() -> None:
    tab = dp.Table(dp.TurnModel(need=75, sat=1000))
    for t in range(0, 75, 5):
        for n in range(1, 6):
            assert tab.decide(t, n), f"banking {t} below the minimum 75"
    assert not tab.decide(75, 1)  # one die at 75: bank
    # banking onto the dump truck is never chosen
    truck = dp.Table(dp.TurnModel(need=50, sat=500, special=((105, -450),)))
    assert all(truck.decide(105, n) for n in range(1, 6))
    assert not truck.decide(100, 1)


def test_saturation_banks_the_win_at_once() -> None:
    tab = dp.Table(dp.TurnModel(need=120, sat=120))
    for n in range(1, 6):
        assert not tab.decide(120, n)
        assert tab.decide(115, n)
        assert tab.value(120, n) == 120


def test_max_rolls_forces_the_bank() -> None:
    tab = dp.Table(dp.TurnModel(need=0, sat=1000, max_rolls=3))
    assert tab.roll_value(50, 3, 3) == float("-inf") and not tab.decide(50, 3, 3)
    assert tab.decide(50, 4, 1)


@pytest.mark.parametrize("zero", [0.0, -50.0])
def test_monte_carlo_agrees_with_the_table(zero: float) -> None:
    """Play 30,000 turns with the table's policy and random dice; the mean must match the DP value."""
    model = dp.TurnModel(need=50, sat=1000, zero=zero)
    tab = dp.Table(model)
    rng = np.random.default_rng(2024)
    turns = 30_000
    results = np.empty(turns)
    for k in range(turns):
        t, n, r = 0, 5, 0
        while True:
            faces = tuple(int(x) for x in rng.integers(1, 7, size=n))
            s = score_roll(faces, CLASSIC_KINDS)
            if s.points == 0:
                results[k] = zero
                break
            t += s.points
            n -= s.used
            r += 1
            if n == 0:
                n = 5
                continue
            if not tab.decide(t, n, r):
                results[k] = min(t, model.sat)
                break
    mean, se = results.mean(), results.std(ddof=1) / math.sqrt(turns)
    assert abs(mean - tab.turn_value()) < 4 * se, (mean, se, tab.turn_value())


def test_a_costly_zero_roll_makes_the_expert_bank_sooner() -> None:
    free = dp.Table(dp.TurnModel(need=0, sat=1000))
    costly = dp.Table(dp.TurnModel(need=0, sat=1000, zero=-100.0))
    first_bank = {
        name: [min(t for t in range(0, 1000, 5) if not tab.decide(t, n)) for n in range(1, 6)]
        for name, tab in (("free", free), ("costly", costly))
    }
    assert all(c <= f for c, f in zip(first_bank["costly"], first_bank["free"], strict=True))
    assert first_bank["costly"] != first_bank["free"]


def test_tables_are_cached_per_model() -> None:
    dp.clear_cache()
    a = dp.table(dp.TurnModel(need=50, sat=300))
    b = dp.table(dp.TurnModel(need=50, sat=300))
    assert a is b and dp.cached_tables() == 1 and dp.build_seconds > 0
