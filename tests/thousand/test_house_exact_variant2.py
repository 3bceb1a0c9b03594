"""Variant 2's exact row of the house-rule table (dicehall/thousand/house_exact.py) on a tiny variant 2 whose table
is solved and stored here (``TINY`` of test_solver_variant2_table): every turn's start is valued as ``bot:optimal``
values it (its own ``Variant2Turn``), the solver's first-player chance is the table's start value, and the row is
read from the stored table (no stored table: unsolved)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.core.agents import make_bot
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.thousand import house_exact
from dicehall.thousand.solver import variant2_table
from dicehall.thousand.solver.variant2_bot import Variant2Turn, position_of
from dicehall.thousand.solver.variant2_solve import solve
from dicehall.thousand.state import ThousandState

from .exact_tables import made_in, private_data
from .test_solver_variant2_table import TINY
from .test_strategy import check_exact

data_home, private_cache = private_data("variant2-house")


@pytest.fixture(scope="module")
def stored(data_home: Path) -> variant2_table.StoredVariant2:
    made_in(data_home, lambda: variant2_table.save_variant2_table(solve(TINY, tol=1e-11), {}))
    found = made_in(data_home, lambda: variant2_table.load_variant2_table(TINY))
    assert found is not None
    return found


def test_without_the_table_variant2_is_unsolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert house_exact.stored_values(TINY) is None


def test_the_row_reads_the_stored_table_as_bot_optimal_does(stored: variant2_table.StoredVariant2) -> None:
    values = house_exact.stored_values(TINY)
    assert isinstance(values, house_exact.ModelValues) and values.model is variant2_table.MODEL
    start = stored.space.start
    assert house_exact.solver_first_wins(values, TINY) == stored.value(start, start)
    agents = [make_bot("thousand", "optimal", TINY) for _ in range(2)]
    checked = 0
    for index in range(20):
        state = ThousandState(TINY, 2)
        seed = game_seed(9, index)
        dice, bots = seeded_rng(seed), agent_rng(seed)
        turn = -1
        while (player := state.current_player()) != TERMINAL:
            if state.turns != turn:  # a turn's start: the mover's chance is the bot's own turn's
                turn = state.turns
                want = Variant2Turn(
                    stored, *position_of(stored, state, state.player, 1 - state.player)
                ).start()
                assert house_exact.win_chance(values, state, state.player) == pytest.approx(want, abs=1e-6)
                checked += 1
            if player == CHANCE:
                state.sample_and_apply_chance(dice)
            else:
                state.apply_action(agents[player].choose(state, bots))
    assert checked > 100
    row = house_exact.exact_effects("variant2", values, 30, 3, rules=TINY)
    check_exact(row)
    assert row["preset"] == "variant2" and row["solver_first_player_wins"] == stored.value(start, start)
