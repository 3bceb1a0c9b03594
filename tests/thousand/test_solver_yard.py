"""Yard's state model (``solver/yard.py``) against the engine.

- The turn: for mover states of yard (and of a small yard), with random values for each way a turn can end, the
  model's best turn equals an expectimax through the engine's own ``ThousandState`` (every roll of the dice in
  hand, every legal decision; the way the turn ended read from the engine's narration), and so do its decisions.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard import NEG, Ends, Turn
from dicehall.thousand.state import BANK, ROLL, ThousandState
from dicehall.thousand.tables import DECIDING, OVER, ROLLING

YARD = ThousandRules.from_preset("yard")
SMALL = ThousandRules.from_preset("yard", {"target": 200, "open_min": 20})
FLOOR = -300


def engine_position(
    rules: ThousandRules, mover: FullState, other: FullState, flagged: bool = False
) -> ThousandState:
    seats = (mover, other)
    s = ThousandState.from_position(
        rules,
        [p.score for p in seats],
        opened=[p.opened for p in seats],
        on_barrel=[p.score >= rules.barrel_score for p in seats],
        barrel_attempts=[p.attempts for p in seats],
        barrel_falls=[p.falls for p in seats],
        bolts=[p.bolts for p in seats],
        anyone_banked=mover.opened or other.opened,
    )
    s.skip_next[1] = flagged
    return s


# -- the engine's turn, by expectimax ------------------------------------------------------------------------------
def sorted_rolls(n: int) -> list[tuple[tuple[int, ...], float]]:
    """One roll of each multiset of ``n`` dice with its probability (the engine scores a roll in any order)."""
    counts = Counter(tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=n))
    return [(d, k / 6**n) for d, k in sorted(counts.items())]


ROLLS = [sorted_rolls(n) for n in range(6)]


def end_of(before: ThousandState, after: ThousandState) -> tuple[str, int]:
    """How the turn ended, from the engine's narration of the action that ended it."""
    ids = [msgid for msgid, _ in after._ev]
    if "thousand.narrate.golden" in ids:
        return ("win", 0)
    for msgid, params in after._ev:
        if msgid == "thousand.narrate.bank":
            return ("bank", params["total"])
    if "thousand.narrate.zero" in ids:
        return ("zero_first" if before.rolls == 0 else "zero", 0)
    assert "thousand.narrate.overshoot" in ids or "thousand.narrate.out_of_rolls" in ids, ids
    return ("fail", 0)


def engine_turn(
    start: ThousandState, value_of_end: Callable[[str, int], float]
) -> tuple[float, dict[tuple[int, int, int], bool]]:
    """The best turn from ``start`` through the engine, and its clear decisions ``(t, n, counted rolls) -> roll``."""
    memo: dict[tuple[object, ...], float] = {}
    decisions: dict[tuple[int, int, int], bool] = {}

    def key(s: ThousandState) -> tuple[object, ...]:
        return (
            s.phase,
            s.turn_total,
            s.in_hand,
            s.free_rolls,
            min(s.rolls, 2),
            s.hot_dice,
            s._forced,
            s._confirm,
            len(s.set_aside_dice),
        )

    def then(s: ThousandState, c: ThousandState) -> float:
        if c.phase == OVER or c.turns != s.turns:
            return value_of_end(*end_of(s, c))
        return value(c)

    def value(s: ThousandState) -> float:
        k = key(s)
        if k in memo:
            return memo[k]
        if s.phase == ROLLING:
            v = 0.0
            for dice, p in ROLLS[s.in_hand]:
                c = s.clone()
                c.apply_action(dice)
                v += p * then(s, c)
        else:
            assert s.phase == DECIDING
            options = {}
            for a in s.legal_actions():
                c = s.clone()
                c.apply_action(a)
                options[a] = then(s, c)
            v = max(options.values())
            if len(options) == 2 and abs(options[ROLL] - options[BANK]) > 1e-9:
                decisions[(s.turn_total, s.in_hand, s.free_rolls)] = options[ROLL] > options[BANK]
        memo[k] = v
        return v

    return value(start), decisions


TURN_CASES = [
    (YARD, FullState(700, True)),  # opened, free to bank, 300 to the exact target
    (YARD, FullState(640, True, bolts=2)),  # in the pit 600..700: bank at least 60
    (YARD, FullState(905, True, attempts=1)),  # on the barrel: exactly 95
    (YARD, FullState(960, True, falls=2, attempts=2)),
    (SMALL, FullState(0, False)),  # the opening, 200 to the target
    (SMALL, FullState(130, True)),  # a pit
    (SMALL, FullState(185, True)),  # the barrel
]


@pytest.mark.parametrize("rules, mover", TURN_CASES)
def test_the_turn_equals_the_engines_best_turn(rules: ThousandRules, mover: FullState) -> None:
    rng = random.Random(mover.score)
    other = FullState(50, True)
    start = engine_position(rules, mover, other)
    limit = rules.target - mover.score
    ends = Ends(
        bank=[rng.random() for _ in range(limit // 5 + 1)],
        zero_first=rng.random(),
        zero=rng.random(),
        fail=rng.random(),
        win=rng.random(),
    )
    need = start.min_bank()
    assert start.max_bank() == limit
    turn = Turn(
        rules, need, limit, ends._replace(bank=[b if t * 5 >= need else NEG for t, b in enumerate(ends.bank)])
    )

    def value_of_end(kind: str, total: int) -> float:
        if kind == "bank":
            assert need <= total <= limit
            return ends.bank[total // 5]
        return float(getattr(ends, kind))

    want, decisions = engine_turn(start, value_of_end)
    assert turn.value == pytest.approx(want, abs=1e-12)
    assert decisions
    for (t, n, r), roll in decisions.items():
        assert turn.decide(t, n, r) == roll, (t, n, r)
