"""Yard-like rules solved by value iteration from both ends on the compiled turn (:mod:`yard_kernel`).

Every sweep sets ``L = T(U)`` and ``U = T(L)`` over all positions, flagged ones included, until the bounds meet
within ``tol`` (or stop moving: endless optimal play). This is the method of small rule sets; the full yard
table (13.5 million positions) needs policy iteration with the flag in its exits (docs/thousand-solved.md,
"Yard's model"), which is not built yet: ``build_space`` and ``dicehall solve`` still refuse yard.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_kernel
from dicehall.thousand.solver.size import FullState
from dicehall.thousand.solver.yard_space import YardSpace, build_yard_space, kernel_tables

FloatArray = npt.NDArray[np.float64]


@dataclasses.dataclass
class YardSolution:
    space: YardSpace
    lower: FloatArray  # lower[b, a]: (mover a, opponent b)
    upper: FloatArray
    lower_flagged: FloatArray  # the opponent b flagged to skip
    upper_flagged: FloatArray
    sweeps: int
    converged: bool

    def bounds(self, mover: FullState, opponent: FullState, flagged: bool = False) -> tuple[float, float]:
        a, b = self.space.index[mover], self.space.index[opponent]
        lo, hi = (self.lower_flagged, self.upper_flagged) if flagged else (self.lower, self.upper)
        return float(lo[b, a]), float(hi[b, a])

    @property
    def gap(self) -> float:
        flagged = self.space.flaggable.astype(bool)
        return max(
            float((self.upper - self.lower).max()),
            float((self.upper_flagged - self.lower_flagged)[flagged].max(initial=0.0)),
        )


def solve_small(rules: ThousandRules, floor: int, tol: float = 1e-10, max_sweeps: int = 2000) -> YardSolution:
    """Both bounds of every position of ``rules`` (a yard-like rule set: :func:`yard.covers`)."""
    space = build_yard_space(rules, floor)
    tables = kernel_tables(space)
    size = space.size
    L, U = np.zeros((size, size)), np.ones((size, size))
    LF, UF = np.zeros((size, size)), np.ones((size, size))
    skip = int(rules.skip_on_zero_first)
    sweeps = 0
    converged = False
    solution = YardSolution(space, L, U, LF, UF, 0, False)
    while sweeps < max_sweeps:
        change = yard_kernel.sweep(L, LF, U, UF, tables, space.flaggable, skip)
        sweeps += 1
        if (solution.gap <= tol and change < tol) or change < tol / 100:
            converged = True
            break
    solution.sweeps, solution.converged = sweeps, converged
    return solution
