"""Small statistics helpers for simulation reports.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)

:class:`RunningStats` summarises a stream of numbers in bounded memory, so a simulation of any length keeps a flat
memory profile:

>>> rs = RunningStats()
>>> for x in [3, 1, 2, 2, 10]:
...     rs.add(x)
>>> d = rs.describe()
>>> d["n"], d["mean"], d["median"], d["max"], rs.exact
(5, 3.6, 2.0, 10.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (shared wins count fractionally)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def describe(values: Sequence[float]) -> dict[str, Any]:
    """Mean, standard deviation, extremes and percentiles of a sample."""
    if not values:
        return {"n": 0}
    arr = np.asarray(values, dtype=float)
    pct = np.percentile(arr, [5, 25, 50, 75, 95])
    return {
        "n": int(arr.size),
        "mean": float(arr.mean()),
        "sd": float(arr.std(ddof=1)) if arr.size > 1 else 0.0,
        "min": float(arr.min()),
        "p5": float(pct[0]),
        "p25": float(pct[1]),
        "median": float(pct[2]),
        "p75": float(pct[3]),
        "p95": float(pct[4]),
        "max": float(arr.max()),
    }


def histogram(values: Sequence[float], bins: int = 10) -> list[dict[str, float]]:
    if not values:
        return []
    counts, edges = np.histogram(np.asarray(values, dtype=float), bins=bins)
    return [
        {"from": float(edges[i]), "to": float(edges[i + 1]), "count": int(counts[i])}
        for i in range(len(counts))
    ]


DISTINCT_LIMIT = 50_000
"""How many distinct values :class:`RunningStats` counts exactly before it switches to a sample of that size."""


class RunningStats:
    """Mean, sd, extremes, percentiles and a histogram of a stream of numbers, in bounded memory.

    Values are counted per distinct value, so everything is exact (the same figures as :func:`describe` on the
    whole list) while the stream takes at most ``limit`` distinct values; every score and statistic the three
    games report does, whatever the number of games. Past that, percentiles and the histogram come from a uniform
    sample of ``limit`` values (reservoir sampling with a fixed seed, so a run stays reproducible) and
    :attr:`exact` turns false; ``n``, mean, sd, min and max stay exact.
    """

    def __init__(self, limit: int = DISTINCT_LIMIT, seed: int = 0) -> None:
        self.limit = limit
        self.n = 0
        self.counts: dict[float, int] | None = {}
        self._sample: list[float] = []
        self._rng = np.random.default_rng(seed)
        self._mean = 0.0
        self._m2 = 0.0  # Welford's running sum of squared deviations (kept once sampling)
        self._min = math.inf  # kept once sampling; while counting they come from the counts
        self._max = -math.inf

    @property
    def exact(self) -> bool:
        return self.counts is not None

    def add(self, value: float) -> None:
        x = float(value)
        self.n += 1
        counts = self.counts
        if counts is not None:  # the common case: one dict update (moments come from the counts at the end)
            counts[x] = counts.get(x, 0) + 1
            if len(counts) > self.limit:
                self._to_sample()
            return
        delta = x - self._mean
        self._mean += delta / self.n
        self._m2 += delta * (x - self._mean)
        self._min = min(self._min, x)
        self._max = max(self._max, x)
        j = int(self._rng.integers(0, self.n))
        if j < self.limit:
            self._sample[j] = x

    def add_all(self, values: Iterable[float]) -> None:
        for v in values:
            self.add(v)

    def add_many(self, values: np.ndarray) -> None:
        """:meth:`add` for every value of an array, in one step while the counts stay exact (the same counts in
        the same first-seen order as adding them one by one, so every later figure is the same too)."""
        arr = np.asarray(values, dtype=float).ravel()
        counts = self.counts
        if counts is not None:
            uniq, first, cnt = np.unique(arr, return_index=True, return_counts=True)
            if len(counts) + uniq.size <= self.limit:
                order = np.argsort(first, kind="stable")
                for v, c in zip(uniq[order].tolist(), cnt[order].tolist(), strict=True):
                    counts[v] = counts.get(v, 0) + c
                self.n += arr.size
                return
        for v in arr.tolist():
            self.add(v)

    def _to_sample(self) -> None:
        """Replace the counts by a uniform sample (without replacement) of ``limit`` of the values seen."""
        assert self.counts is not None
        values = np.fromiter(self.counts.keys(), dtype=float)
        counts = np.fromiter(self.counts.values(), dtype=np.int64)
        self._mean = float(np.dot(values, counts) / self.n)  # the running moments start from the exact counts
        self._m2 = float(np.dot(counts, (values - self._mean) ** 2))
        self._min, self._max = float(values.min()), float(values.max())
        picked = self._rng.multivariate_hypergeometric(counts, self.limit)
        self._sample = np.repeat(values, picked).tolist()
        self.counts = None

    def weighted(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct values and how many of the ``n`` values each stands for (estimated once not exact)."""
        if self.counts is not None:
            values = np.fromiter(sorted(self.counts), dtype=float, count=len(self.counts))
            weights = np.fromiter((self.counts[v] for v in values.tolist()), dtype=float, count=values.size)
            return values, weights
        uniq, cnt = np.unique(np.asarray(self._sample, dtype=float), return_counts=True)
        return uniq, cnt * (self.n / len(self._sample))

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile with numpy's default (linear) interpolation."""
        if self.counts is not None:
            values, weights = self.weighted()
            cum = np.cumsum(weights.astype(np.int64))
            h = (self.n - 1) * q / 100
            lo = math.floor(h)
            a = values[int(np.searchsorted(cum, lo, side="right"))]
            b = values[int(np.searchsorted(cum, min(lo + 1, self.n - 1), side="right"))]
            return float(a + (h - lo) * (b - a))
        return float(np.percentile(np.asarray(self._sample, dtype=float), q))

    def describe(self) -> dict[str, Any]:
        """The same fields as :func:`describe`, plus ``exact`` when percentiles are estimates."""
        if self.n == 0:
            return {"n": 0}
        if self.counts is not None:
            values, weights = self.weighted()
            mean = float(np.dot(values, weights) / self.n)
            var = float(np.dot(weights, (values - mean) ** 2) / (self.n - 1)) if self.n > 1 else 0.0
            low, high = float(values[0]), float(values[-1])
        else:
            mean = self._mean
            var = self._m2 / (self.n - 1) if self.n > 1 else 0.0
            low, high = self._min, self._max
        out: dict[str, Any] = {
            "n": self.n,
            "mean": mean,
            "sd": math.sqrt(var),
            "min": low,
            "p5": self.percentile(5),
            "p25": self.percentile(25),
            "median": self.percentile(50),
            "p75": self.percentile(75),
            "p95": self.percentile(95),
            "max": high,
        }
        if self.counts is None:
            out["exact"] = False
        return out

    def histogram(self, bins: int = 10) -> list[dict[str, float]]:
        if self.n == 0:
            return []
        values, weights = self.weighted()
        counts, edges = np.histogram(values, bins=bins, weights=weights)
        return [
            {"from": float(edges[i]), "to": float(edges[i + 1]), "count": round(float(counts[i]))}
            for i in range(len(counts))
        ]
