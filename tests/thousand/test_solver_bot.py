"""``bot:optimal``: plays the solved table's decisions; self-play wins at the solver's probability (slow)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from dicehall.core.agents import make_bot
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.policy import TurnValues, player_index
from dicehall.thousand.solver.solve import load_table
from dicehall.thousand.state import BANK, ROLL, ThousandState

from .helpers import assert_optimal_self_play_wins_first_at
from .test_solver import SMALL


@pytest.fixture(autouse=True, scope="module")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tables go to a temporary user data directory (platformdirs reads XDG_DATA_HOME), shared by the module."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        yield


def test_optimal_bot_solves_small_rules_on_first_use_and_plays_the_table() -> None:
    assert load_table(SMALL) is None
    bot = make_bot("thousand", "optimal", SMALL)
    assert isinstance(bot, OptimalBot)
    table = load_table(SMALL)
    assert table is not None and table.info["exact"]
    space = table.space
    rng = np.random.default_rng(5)
    checked = 0
    for i in range(200):
        state = ThousandState(SMALL, 2)
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
                continue
            action = bot.choose(state, rng)
            assert action in state.legal_actions()
            if state.can_bank():
                me, other = (
                    player_index(space, state, state.player),
                    player_index(space, state, 1 - state.player),
                )
                tv = TurnValues(space, table.values, me, other)
                roll, bank = tv.roll(state.turn_total, state.in_hand), tv.bank(state.turn_total)
                assert bank is not None
                assert action == (ROLL if roll > bank else BANK)
                checked += 1
            state.apply_action(action)
        assert i >= 0
    assert checked > 500


def test_turn_values_start_equals_the_table() -> None:
    make_bot("thousand", "optimal", SMALL)
    table = load_table(SMALL)
    assert table is not None
    space = table.space
    for m in range(0, space.size, 3):
        for o in range(0, space.size, 5):
            tv = TurnValues(space, table.values, m, o)
            assert tv.start() == pytest.approx(table.value(m, o), abs=1e-6)


def test_optimal_bot_refuses_large_rules_without_a_table() -> None:
    # classic itself has the shipped table (test_solver_shipped.py); a game to 900 has none and is too large to
    # solve on first use
    with pytest.raises(ValueError, match="dicehall solve thousand"):
        make_bot("thousand", "optimal", ThousandRules.from_preset("classic", {"target": 900}))


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 200,000 games: ≈ 15 minutes of one core, far more on a loaded machine
def test_self_play_first_player_wins_at_the_solved_probability() -> None:
    make_bot("thousand", "optimal", SMALL)  # solves the small rules if no test before did
    table = load_table(SMALL)
    assert table is not None
    assert_optimal_self_play_wins_first_at(
        SMALL, table.info["win_probability_first"], games=200_000, stream=3
    )


def test_optimal_bot_plays_three_player_games_against_the_leader() -> None:
    bot = make_bot("thousand", "optimal", SMALL)
    assert isinstance(bot, OptimalBot)
    rng = np.random.default_rng(9)
    for i in range(30):
        state = ThousandState(SMALL, 3)
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply_action(state.sample_chance(rng))
                continue
            leader = bot.opponent(state)
            assert leader != state.player
            assert all(state.score[leader] >= state.score[s] for s in range(3) if s != state.player)
            state.apply_action(bot.choose(state, rng))
        assert state.winner is not None, i
