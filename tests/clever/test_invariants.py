"""Invariants over many seeded random games (solo and 2–4 players)."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall.clever import actions as A
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, CleverState, Sheet
from dicehall.clever.tables import (
    B_COLS,
    B_POINTS,
    B_ROWS,
    G_POINTS,
    O_MULT,
    Y_COLS,
    Y_DIAGONALS,
    Y_PRINTED,
    Y_ROWS,
)

from .helpers import new


def check_sheet(sh: Sheet, rnd: int) -> None:
    assert sh.ymask & Y_PRINTED == Y_PRINTED
    assert not sh.bmask & 1  # the blue top-left slot is no cell
    assert 0 <= sh.gcount <= 11 and len(sh.ovals) <= 11 and len(sh.pvals) <= 11
    for i, v in enumerate(sh.ovals):
        assert v % O_MULT[i] == 0 and 1 <= v // O_MULT[i] <= 6
    assert sh.osum == sum(sh.ovals) and sh.psum == sum(sh.pvals)
    for a, b in zip(sh.pvals, sh.pvals[1:], strict=False):
        assert a == 6 or b > a, sh.pvals
    assert 0 <= sh.rr_used <= sh.rr_gain <= 7 and 0 <= sh.p1_used <= sh.p1_gain <= 7
    # every bonus source that is reached has paid exactly once (actions are never lost: 7 sources, 7 circles)
    foxes = (
        (sh.ymask & Y_ROWS[3] == Y_ROWS[3])
        + (sh.bmask & B_ROWS[2] == B_ROWS[2])
        + (sh.gcount >= 7)
        + (len(sh.ovals) >= 8)
        + (len(sh.pvals) >= 7)
    )
    assert sh.foxes == foxes
    rerolls = (
        1
        + (rnd >= 3)
        + (sh.bmask & B_COLS[0] == B_COLS[0])
        + (sh.gcount >= 10)
        + (len(sh.ovals) >= 3)
        + (len(sh.pvals) >= 3)
        + (len(sh.pvals) >= 8)
    )
    assert sh.rr_gain == rerolls
    plus = (
        (rnd >= 2)
        + (sh.ymask & Y_DIAGONALS[0] == Y_DIAGONALS[0])
        + (sh.bmask & B_COLS[3] == B_COLS[3])
        + (sh.gcount >= 4)
        + (len(sh.ovals) >= 6)
        + (len(sh.pvals) >= 5)
        + (len(sh.pvals) >= 11)
    )
    assert sh.p1_gain == plus
    yellow = sum(p for m, p in zip(Y_COLS, (10, 14, 16, 20), strict=True) if sh.ymask & m == m)
    areas = [yellow, B_POINTS[sh.bmask.bit_count()], G_POINTS[sh.gcount], sh.osum, sh.psum]
    assert sh.area_scores() == areas
    assert sh.total() == sum(areas) + sh.foxes * min(areas)


def play_checked(n: int, seed: int, roundtrip: bool) -> CleverState:
    s = new(n)
    rng = np.random.default_rng(seed)
    solo_passive = 0
    plus_seen: set[tuple[int, int, int, int, int]] = set()
    while not s.is_terminal():
        if s.is_chance_node():
            a = s.sample_chance(rng)
            if s.phase == 4:  # the solo passive roll: new dice
                solo_passive = s.round
        else:
            legal = s.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            if roundtrip:
                for x in legal:
                    assert s.string_to_action(s.action_to_string(x)) == x
            a = legal[int(rng.integers(len(legal)))]
            kind = A.kind_of(a)
            if kind == A.K_PLUS:
                key = (s.round, s.active, solo_passive == s.round, s.actor, A.die_of(a))
                assert key not in plus_seen  # each die at most once per turn for +1
                plus_seen.add(key)
                assert s.phase == PH_PLUS
            if kind == A.K_ENTRY and s.phase == PH_PICK:
                assert s.roll_mask >> A.die_of(a) & 1
            if kind == A.K_ENTRY and s.phase == PH_PASSIVE_PICK and not s.choice_pending:
                assert s.current_player() != s.active or n == 1
            if kind == A.K_REROLL:
                assert s.phase == PH_PICK and s.current_player() == s.active
        if roundtrip:
            assert s.string_to_action(s.action_to_string(a)) == a
        s.apply_action(a)
        if not s.choice_pending:
            for sh in s.sheets:
                check_sheet(sh, s.round)
    assert s.scores() == [float(sh.total()) for sh in s.sheets]
    assert abs(sum(s.returns()) - 1.0) < 1e-9
    return s


@pytest.mark.parametrize(("n", "games"), [(1, 3000), (2, 800), (3, 500), (4, 400)])
def test_random_games_keep_the_invariants(n: int, games: int) -> None:
    for seed in range(games):
        play_checked(n, 1000 * n + seed, roundtrip=seed < 20)


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_random_games_keep_the_invariants_many(n: int) -> None:
    for seed in range(3000):
        play_checked(n, 7_000_000 + 1000 * n + seed, roundtrip=seed < 200)
