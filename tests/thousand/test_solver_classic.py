"""``bot:optimal`` on classic against itself: the first player wins at the solver's probability (slow).

Needs the classic table in the user data directory (``dicehall solve thousand --preset classic``: policy iteration,
about a quarter of an hour of CPU); without it the test is skipped with that command (docs/thousand-solved.md).
"""

from __future__ import annotations

import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import load_table

from .helpers import assert_optimal_self_play_wins_first_at

CLASSIC = ThousandRules.from_preset("classic")


@pytest.mark.slow
@pytest.mark.timeout(7200)  # 200,000 classic games with two optimal bots: about half an hour of one core
def test_classic_self_play_first_player_wins_at_the_solved_probability() -> None:
    table = load_table(CLASSIC)
    if table is None:
        pytest.skip("classic is not solved on this machine: run `dicehall solve thousand --preset classic`")
    p = table.info["win_probability_first"]
    assert p is not None and table.info["exact"]
    assert_optimal_self_play_wins_first_at(CLASSIC, p, games=200_000, stream=16)
