"""Yard's exact row of the house-rule table (dicehall/thousand/house_exact.py) on a tiny yard whose table is solved
and stored here (``WIRE`` of test_solver_yard_table): the row's games are ``bot:optimal``'s (the compiled games
``dicehall simulate`` plays), every turn's start is valued as ``bot:optimal`` values it (its own ``YardTurn``, the
skip flag read), and the solver's first-player chance is the table's start value; without the table the preset
is listed as unsolved."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.core.agents import PlayerSpec, make_bot
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import SimulationJob, play_games
from dicehall.thousand import house_exact, house_rules
from dicehall.thousand.solver import yard_table
from dicehall.thousand.solver.space import DEFAULT_FLOOR
from dicehall.thousand.solver.yard_bot import YardTurn, position_of
from dicehall.thousand.solver.yard_pi import solve_levels
from dicehall.thousand.state import ThousandState

from .exact_tables import made_in, private_data
from .test_solver_yard_table import WIRE
from .test_strategy import check_exact

data_home, private_cache = private_data("yard-house")


@pytest.fixture(scope="module")
def stored(data_home: Path) -> yard_table.StoredYard:
    made_in(
        data_home,
        lambda: yard_table.save_yard_table(solve_levels(WIRE, DEFAULT_FLOOR, tol=1e-11), DEFAULT_FLOOR, {}),
    )
    found = made_in(data_home, lambda: yard_table.load_yard_table(WIRE))
    assert found is not None
    return found


def test_without_the_table_yard_is_unsolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert house_exact.stored_values(WIRE) is None
    tables = house_rules.exact_tables()
    assert isinstance(tables["classic"], house_exact.ClassicValues)  # the shipped one
    assert tables["yard"] is None


def test_the_solvers_first_player_chance_is_the_tables_start(stored: yard_table.StoredYard) -> None:
    values = house_exact.stored_values(WIRE)
    assert isinstance(values, house_exact.ModelValues) and values.model is yard_table.MODEL
    start = stored.space.start
    assert house_exact.solver_first_wins(values, WIRE) == stored.value(start, start, False)
    turn = YardTurn(stored, start, start, False)  # the bot's own turn over the (float32) values
    assert house_exact.solver_first_wins(values, WIRE) == pytest.approx(turn.start(), abs=1e-6)


def test_every_turns_start_is_valued_as_bot_optimal_values_it(stored: yard_table.StoredYard) -> None:
    values = house_exact.stored_values(WIRE)
    assert values is not None
    agents = [make_bot("thousand", "optimal", WIRE) for _ in range(2)]
    flagged = checked = 0
    for index in range(30):
        state = ThousandState(WIRE, 2)
        seed = game_seed(8, index)
        dice, bots = seeded_rng(seed), agent_rng(seed)
        turn = -1
        while (player := state.current_player()) != TERMINAL:
            if state.turns != turn:  # a turn's start: the mover's chance and the other's are the bot's own
                turn = state.turns
                key = position_of(stored, state, state.player, 1 - state.player)
                want = YardTurn(stored, *key).start()
                assert house_exact.win_chance(values, state, state.player) == pytest.approx(want, abs=1e-6)
                assert house_exact.win_chance(values, state, 1 - state.player) == pytest.approx(
                    1 - want, abs=1e-6
                )
                flagged += key[2]
                checked += 1
            if player == CHANCE:
                state.sample_and_apply_chance(dice)
            else:
                state.apply_action(agents[player].choose(state, bots))
    assert checked > 200 and flagged > 0  # the skip flag was read, set and not


def test_the_yard_row_is_bot_optimals_games_valued(stored: yard_table.StoredYard) -> None:
    values = house_exact.stored_values(WIRE)
    assert values is not None
    games = 60
    row = house_exact.exact_effects("yard", values, games, 3, rules=WIRE)
    check_exact(row)
    assert row["preset"] == "yard" and row["bot"] == "optimal" and row["table_max_error"] == 0.0
    start = stored.space.start
    assert row["solver_first_player_wins"] == stored.value(start, start, False)
    # the games played step by step through the engine are those the compiled self-play kernel plays
    seats = tuple(PlayerSpec("bot:optimal", "optimal") for _ in range(2))
    kernel = list(play_games(SimulationJob("thousand", WIRE, seats, 3), range(games)))
    assert row["first_player_wins"]["value"] == sum(g.returns[0] for g in kernel) / games
    assert row["turns"]["value"] == pytest.approx(sum(g.stats["turns"] for g in kernel) / games)
    events = sum(row["games_with"][k]["value"] for k in row["games_with"])
    assert events > 0  # the lead was followed: barrel falls or refused banks came into the games
