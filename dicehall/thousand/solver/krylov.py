"""Restarted GMRES with right preconditioning, for policy iteration's linear systems (:mod:`pi`).

Written here rather than taken from SciPy because the product a step needs is ``A M⁻¹ v`` as one fused pass
(:func:`pi_kernel.later_part` after :func:`pi_kernel.gauss_seidel`), which SciPy's interface (``A`` and ``M``
applied separately) cannot use, and because the Arnoldi step here orthogonalises with two matrix–vector
products (classical Gram–Schmidt, repeated once) instead of a Python loop over the basis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

Vec = npt.NDArray[np.float64]


class Result(NamedTuple):
    x: Vec
    iterations: int  # products with A M⁻¹
    residual: float  # max |b − A x| of the returned x (computed, not estimated)


def gmres(
    apply: Callable[[Vec], Vec],
    precond: Callable[[Vec], Vec],
    residual: Callable[[Vec], Vec],
    x0: Vec,
    target: float,
    restart: int = 40,
    max_cycles: int = 20,
) -> Result:
    """``x`` with ``max |b − A x| <= target`` (or the best after ``max_cycles`` restarts).

    ``apply(v) = A M⁻¹ v``, ``precond(v) = M⁻¹ v``, ``residual(x) = b − A x``. A cycle stops once the 2-norm of
    the residual (estimated by the Arnoldi recurrence) is at most ``target`` — that bounds the largest entry too;
    the true residual is then computed to confirm it.
    """
    x = x0.copy()
    n = x.shape[0]
    iterations = 0
    basis = np.empty((restart + 1, n))
    r = residual(x)
    worst = float(np.abs(r).max())
    for _ in range(max_cycles):
        if worst <= target:
            break
        beta = float(np.linalg.norm(r))
        basis[0] = r / beta
        h = np.zeros((restart + 1, restart))
        g = np.zeros(restart + 1)
        g[0] = beta
        cs = np.zeros(restart)
        sn = np.zeros(restart)
        j = 0
        while j < restart:
            w = apply(basis[j])
            iterations += 1
            v = basis[: j + 1]
            c = v @ w
            w -= c @ v
            c2 = v @ w
            w -= c2 @ v
            h[: j + 1, j] = c + c2
            norm = float(np.linalg.norm(w))
            h[j + 1, j] = norm
            # Givens rotations keep h upper triangular and g the residual in the rotated basis
            for i in range(j):
                a, b = h[i, j], h[i + 1, j]
                h[i, j] = cs[i] * a + sn[i] * b
                h[i + 1, j] = -sn[i] * a + cs[i] * b
            a, b = h[j, j], h[j + 1, j]
            d = float(np.hypot(a, b))
            cs[j], sn[j] = (1.0, 0.0) if d == 0.0 else (a / d, b / d)
            h[j, j] = d
            h[j + 1, j] = 0.0
            g[j + 1] = -sn[j] * g[j]
            g[j] = cs[j] * g[j]
            j += 1
            if abs(g[j]) <= target or norm == 0.0:
                break
            basis[j] = w / norm
        y = np.linalg.solve(np.triu(h[:j, :j]), g[:j]) if j else np.zeros(0)
        x += precond(y @ basis[:j])
        r = residual(x)
        worst = float(np.abs(r).max())
    return Result(x, iterations, worst)
