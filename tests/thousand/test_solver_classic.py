"""``bot:optimal`` on classic against itself: the first player wins at the solver's probability (slow).

Plays from the exact table where classic is solved on the machine, else (as in the suite's fresh user data
directory) from the compact table shipped in the package: its decisions differ from the exact table's only at
near-ties (about 1e-5 win-% points a game in all, docs/thousand-solved.md), far inside the interval tested here.
"""

from __future__ import annotations

import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import find_table

from .helpers import assert_optimal_self_play_wins_first_at

CLASSIC = ThousandRules.from_preset("classic")


@pytest.mark.slow
@pytest.mark.timeout(7200)  # 200,000 classic games with two optimal bots: about half an hour of one core
def test_classic_self_play_first_player_wins_at_the_solved_probability() -> None:
    table = find_table(CLASSIC)
    assert table is not None, "neither an exact nor the shipped classic table"
    p = table.info["win_probability_first"]  # the exact solve's, also in the shipped table's header
    assert p == pytest.approx(0.5031160587, abs=1e-9)
    assert_optimal_self_play_wins_first_at(CLASSIC, p, games=200_000, stream=16)
