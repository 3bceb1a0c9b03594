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


def _rows(sys_: pi._System) -> list[dict[int, float]]:
    """Each row of ``Q`` as {column: chance} (a row may name a column more than once: the chances add up)."""
    out = []
    for x in range(sys_.n):
        row: dict[int, float] = {}
        for k in range(sys_.start[x], sys_.end[x]):
            row[int(sys_.cols[k])] = row.get(int(sys_.cols[k]), 0.0) + float(sys_.vals[k])
        out.append(row)
    return out


def test_a_build_that_keeps_unchanged_rows_equals_a_fresh_build() -> None:
    """Rows whose policy did not change are kept from the last build; the result is the fresh build's."""
    space = build_space(LEVELS, FLOOR)
    tabs = turn_tables(space, dice_table(LEVELS))
    rng = np.random.default_rng(7)
    level = levels(space)[0]
    W = rng.random((space.size, space.size))
    kept = pi._System(space, level)
    kept.build(W, tabs, None)
    kept.split()
    before = kept.marks.copy()
    # change the values some turns read (a few next states), so only some policies change
    W2 = W.copy()
    mlo, mhi = level.blocks[0][2:]
    W2[rng.choice(np.arange(mlo, mhi), 3, replace=False)] = rng.random((3, space.size))
    kept.build(W2, tabs, ThreadPoolExecutor(2))
    fresh = pi._System(space, level)
    fresh.build(W2, tabs, None)
    assert 0 < np.count_nonzero(kept.marks != before) < kept.n // 2  # some policies changed, most did not
    for a, b in zip(_rows(kept), _rows(fresh), strict=True):
        assert a.keys() == b.keys() and all(abs(a[c] - b[c]) < 1e-15 for c in a)
    for name in ("diag", "rhs", "tv", "marks"):
        assert np.array_equal(getattr(kept, name), getattr(fresh, name)), name


def test_the_fused_preconditioned_product_and_the_threaded_product() -> None:
    """``(I + Q) v`` in two threads equals SciPy's sparse product; the Gauss–Seidel sweep solves its lower part
    exactly; the fused product equals ``(I + Q) M⁻¹ r``."""
    from scipy.sparse import csr_matrix, diags

    space = build_space(LEVELS, FLOOR)
    tabs = turn_tables(space, dice_table(LEVELS))
    rng = np.random.default_rng(3)
    W = rng.random((space.size, space.size))
    sys_ = pi._System(space, levels(space)[1])
    sys_.build(W, tabs, None)
    sys_.split()
    n = sys_.n
    lengths = sys_.end - sys_.start
    rows = np.repeat(np.arange(n), lengths)
    idx = np.concatenate([np.arange(a, b) for a, b in zip(sys_.start, sys_.end, strict=True)])
    Q = csr_matrix((sys_.vals[idx], (rows, sys_.cols[idx])), shape=(n, n))
    A = diags(1.0 + sys_.diag) + Q
    v = rng.random(n)
    pool = ThreadPoolExecutor(2)
    assert np.allclose(sys_.rhs - sys_.residual(v, pool), A @ v, rtol=0, atol=1e-13)
    earlier = sys_.rank[sys_.cols[idx]] < sys_.rank[rows]
    L = csr_matrix((sys_.vals[idx][earlier], (rows[earlier], sys_.cols[idx][earlier])), shape=(n, n))
    z = sys_.precond(v)
    assert np.allclose((diags(1.0 + sys_.diag) + L) @ z, v, rtol=0, atol=1e-13)
    assert np.allclose(sys_.apply(v, pool), A @ z, rtol=0, atol=1e-13)
    assert np.allclose(sys_.apply(v, None), A @ z, rtol=0, atol=1e-13)


def test_gmres_solves_a_nonsymmetric_system() -> None:
    from dicehall.thousand.solver import krylov

    rng = np.random.default_rng(5)
    n = 300
    A = np.eye(n) + rng.random((n, n)) * 0.9 / n
    b = rng.random(n)
    lower = np.tril(A)
    out = krylov.gmres(
        lambda r: A @ np.linalg.solve(lower, r),
        lambda r: np.linalg.solve(lower, r),
        lambda x: b - A @ x,
        np.zeros(n),
        1e-12,
        restart=5,
    )
    assert out.residual <= 1e-12 and out.iterations > 0
    assert np.abs(out.x - np.linalg.solve(A, b)).max() < 1e-10
