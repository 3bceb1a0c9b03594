"""Random streams and the statistics helpers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicehall.core.rng import agent_rng, game_rng, game_seed, live_rng, seeded_rng
from dicehall.core.stats import describe, histogram, wilson_interval


def test_seeded_streams_are_reproducible_and_distinct() -> None:
    assert seeded_rng(3).integers(0, 1000, 10).tolist() == seeded_rng(3).integers(0, 1000, 10).tolist()
    assert seeded_rng(3).integers(0, 1000, 10).tolist() != seeded_rng(4).integers(0, 1000, 10).tolist()
    seeds = {game_seed(7, i) for i in range(200)}
    assert len(seeds) == 200 and all(0 <= s < 2**128 for s in seeds)
    assert game_seed(7, 5) == game_seed(7, 5) != game_seed(8, 5)
    assert game_rng(7, 5).random() == seeded_rng(game_seed(7, 5)).random()
    # the bots' stream is independent of the dice stream of the same seed
    assert agent_rng(11).random() != seeded_rng(11).random()
    assert agent_rng(11).random() == agent_rng(11).random()


def test_live_rng_seed_reproduces_the_stream() -> None:
    seed, rng = live_rng()
    assert seed.bit_length() <= 128
    assert rng.integers(1, 7, 20).tolist() == seeded_rng(seed).integers(1, 7, 20).tolist()


def test_wilson_interval() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0 < hi < 0.35
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo > 0.65
    # the interval narrows with more games
    assert np.subtract(*wilson_interval(500, 1000)[::-1]) < np.subtract(*wilson_interval(50, 100)[::-1])


def test_describe_and_histogram() -> None:
    assert describe([]) == {"n": 0}
    d = describe([1.0, 2.0, 3.0, 4.0])
    assert d["n"] == 4 and d["mean"] == 2.5 and d["median"] == 2.5 and d["min"] == 1 and d["max"] == 4
    assert math.isclose(d["sd"], np.std([1, 2, 3, 4], ddof=1))
    assert describe([5.0])["sd"] == 0.0
    assert histogram([]) == []
    h = histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], bins=5)
    assert len(h) == 5 and sum(b["count"] for b in h) == 10 and h[0]["from"] == 0 and h[-1]["to"] == 9
