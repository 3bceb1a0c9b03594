"""Policy iteration (the method classic needs) against value iteration from both ends and the engine brute force."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from dicehall.thousand.solver import pi
from dicehall.thousand.solver.solve import solve
from dicehall.thousand.solver.space import PlayerState, build_space, dice_table, levels, turn_tables

from .test_solver import FLOOR, LEVELS, SMALL, SMALL_BARREL, brute_force


def test_policy_iteration_equals_the_engine_brute_force() -> None:
    """Where optimal play ends (``SMALL``), policy iteration reaches the one value the engine's brute force has."""
    expected = brute_force(SMALL, FLOOR)
    solution = solve(SMALL, floor=FLOOR, tol=1e-11, method="pi")
    assert solution.method == "policy iteration" and solution.exact
    assert solution.residual is not None and solution.residual <= 1e-11
    space = solution.space
    worst = 0.0
    for (mover, other), (lo, hi) in expected.items():
        assert hi - lo < 1e-7
        v = solution.value(space.index[PlayerState(*mover)], space.index[PlayerState(*other)])
        assert v is not None
        worst = max(worst, abs(v - (lo + hi) / 2))
    assert worst < 1e-7


@pytest.mark.parametrize("rules", [LEVELS, SMALL_BARREL], ids=["levels", "small-barrel"])
def test_policy_iteration_lies_within_the_proved_bounds(rules: object) -> None:
    """With endless optimal play (both rule sets have some) the bounds do not meet; policy iteration's fixed
    point (endless play a draw) lies between them, and is a fixed point of the optimal turn within the tolerance."""
    bounds = solve(rules, floor=FLOOR, tol=1e-11, method="vi")  # type: ignore[arg-type]
    fixed = solve(rules, floor=FLOOR, tol=1e-11, method="pi")  # type: ignore[arg-type]
    assert bounds.gap > 1e-3  # endless play somewhere: the case the convention is for
    assert fixed.converged and fixed.residual is not None and fixed.residual <= 1e-11
    assert np.all(fixed.lower >= bounds.lower - 1e-9) and np.all(fixed.lower <= bounds.upper + 1e-9)
    summary = fixed.summary()
    assert summary["win_probability_first_bounds"] is None and "draw" in summary["endless_play"]
    assert summary["levels"][0]["residual"] <= 1e-11


def test_each_turn_ends_somewhere_and_its_value_is_the_optimal_turn() -> None:
    """``Q``'s rows (with the wins) add up to one, and the greedy policy's turn value from them equals the turn
    kernel's optimal value ``T(W)`` at every position, for arbitrary values ``W``."""
    space = build_space(LEVELS, FLOOR)
    tabs = turn_tables(space, dice_table(LEVELS))
    rng = np.random.default_rng(16)
    W = rng.random((space.size, space.size))
    for level in levels(space):
        sys_ = pi._System(space, level)
        sys_.build(W, tabs, ThreadPoolExecutor(2))
        v = sys_.values(W)
        off = np.zeros(sys_.n)
        value = np.zeros(sys_.n)
        for x in range(sys_.n):
            a, b = sys_.start[x], sys_.end[x]
            off[x] = sys_.vals[a:b].sum()
            value[x] = sys_.rhs[x] - sys_.vals[a:b] @ v[sys_.cols[a:b]] - sys_.diag[x] * v[x]
        assert np.all(off + sys_.diag <= 1 + 1e-12) and np.all(sys_.rhs <= 1 + 1e-12)
        assert np.abs(value - sys_.tv).max() < 1e-12


def test_policy_iteration_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    ckpt = tmp_path / "pi.checkpoint.npz"
    full = solve(LEVELS, floor=FLOOR, tol=1e-10, method="pi", checkpoint=ckpt, threads=1)
    assert not ckpt.exists()  # removed once solved
    # a run stopped after its first levels: the checkpoint then holds them
    from dicehall.thousand.solver import solve as solve_mod

    calls = []

    def stop_after_two(step: int, res: float, gap: float, done: float, label: str) -> None:
        calls.append(label)
        if len({c for c in calls if c != "done"}) > 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_mod.solve(
            LEVELS, floor=FLOOR, tol=1e-10, method="pi", checkpoint=ckpt, threads=1, progress=stop_after_two
        )
    assert ckpt.exists()
    resumed = solve(LEVELS, floor=FLOOR, tol=1e-10, method="pi", checkpoint=ckpt, threads=1)
    assert resumed.converged and len(resumed.levels) == len(full.levels)
    assert np.abs(resumed.lower - full.lower).max() < 1e-9
