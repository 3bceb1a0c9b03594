"""``bot:optimal`` on the full yard preset against itself: the first player wins at the table's chance (slow).

Yard's table is not shipped (57 MB) and the suite's user data directory is a fresh one, so this test reads the
table from the user data directory named by ``DICEHALL_YARD_DATA`` (where ``dicehall solve thousand --preset
yard`` stored it: ``XDG_DATA_HOME`` of that run) and is skipped without it.
"""

from __future__ import annotations

import os

import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_table

from .helpers import assert_optimal_self_play_wins_first_at

YARD = ThousandRules.from_preset("yard")


@pytest.mark.slow
@pytest.mark.timeout(7200)  # 20,000 yard games of two optimal bots (≈ 265 turns each) in the engine's loop
def test_yard_self_play_first_player_wins_at_the_tables_chance() -> None:
    home = os.environ.get("DICEHALL_YARD_DATA")
    if not home:
        pytest.skip("DICEHALL_YARD_DATA names no user data directory holding yard's table")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", home)
        table = yard_table.load_yard_table(YARD)
        assert table is not None, f"no yard table under {home}: run dicehall solve thousand --preset yard"
        p = table.info["win_probability_first"]
        assert table.value(table.space.start, table.space.start) == pytest.approx(p, abs=1e-7)
        games = int(os.environ.get("DICEHALL_YARD_GAMES", "20000"))
        assert_optimal_self_play_wins_first_at(YARD, p, games=games, stream=26)
