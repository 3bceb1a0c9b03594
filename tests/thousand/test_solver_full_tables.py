"""``bot:optimal`` on the full yard and variant 2 presets against itself: the first player wins at the table's
chance (slow).

Their tables are not shipped (57 MB and 0.6 GB) and the suite's user data directory is a fresh one, so each test
reads its table from the user data directory named by ``DICEHALL_YARD_DATA`` / ``DICEHALL_VARIANT2_DATA`` (where
``dicehall solve thousand --preset yard`` / ``variant2`` stored it: ``XDG_DATA_HOME`` of that run) and is skipped
without it. ``DICEHALL_FULL_GAMES`` sets the number of games (20,000 by default).
"""

from __future__ import annotations

import os

import pytest

from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import model_for

from .helpers import assert_optimal_self_play_wins_first_at


@pytest.mark.slow
@pytest.mark.timeout(7200)  # 20,000 games of two optimal bots in the engine's loop (yard: ≈ 160 turns each)
@pytest.mark.parametrize(
    ("preset", "variable"), [("yard", "DICEHALL_YARD_DATA"), ("variant2", "DICEHALL_VARIANT2_DATA")]
)
def test_self_play_first_player_wins_at_the_tables_chance(preset: str, variable: str) -> None:
    home = os.environ.get(variable)
    if not home:
        pytest.skip(f"{variable} names no user data directory holding {preset}'s table")
    rules = ThousandRules.from_preset(preset)
    model = model_for(rules)
    assert model is not None and model.covers(rules)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", home)
        table = model.load(rules)
        assert table is not None, (
            f"no {preset} table under {home}: run dicehall solve thousand --preset {preset}"
        )
        p = table.info["win_probability_first"]
        start = table.space.start
        assert table.value(start, start) == pytest.approx(p, abs=1e-7)
        games = int(os.environ.get("DICEHALL_FULL_GAMES", "20000"))
        assert_optimal_self_play_wins_first_at(rules, p, games=games, stream=26)
