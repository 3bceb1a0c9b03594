"""The compiled games of yard's ``bot:optimal`` against itself (:mod:`dicehall.thousand.solver.yard_playout`)
against the engine, on the tiny yard of ``test_solver_yard``: the same seeds through the engine's own loop with
the Python bots and through the kernel must end in the same position (winner, scores, every seat's counts and skip
flags, turns, rolls, statistics, the last roll and its narration) with the dice generator left at the same
place; the kernel must play each game to its last step itself (no hand-over to the Python loop). Kernel
self-play wins first at the table's chance."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import numpy as np
import pytest

from dicehall.core import playout as core_playout
from dicehall.core.agents import make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand import fast as fast_loop
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_playout
from dicehall.thousand.solver.yard_bot import KeptDecisions, YardTableBot
from dicehall.thousand.solver.yard_pi import YardTable, solve_levels
from dicehall.thousand.state import ThousandState

from .test_solver_yard import TINY

FLOOR = -60  # a floor the games seldom reach (the random positions below start under it)


@pytest.fixture(scope="module")
def table() -> YardTable:
    return solve_levels(TINY, FLOOR, tol=1e-11)


@pytest.fixture
def kernel_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python loop may not finish a game the kernel began (a position it wrongly took for outside)."""

    def refused(*args: Any) -> bool:
        raise AssertionError("the kernel handed the game to the Python loop")

    monkeypatch.setattr(fast_loop, "play_out", refused)
    monkeypatch.setitem(core_playout._FOR_ANY, ThousandState, refused)  # play_game's general path


def final(state: ThousandState, rng: np.random.Generator) -> tuple[Any, ...]:
    return (
        state.signature(),
        state.stats(),
        state.winner,
        state.last_roll,
        state.last_combos,
        state._need,
        state._need_rule,
        state._limit,
        [str(e) for e in state.events],
        [msgid for msgid, _ in state._ev],
        rng.bit_generator.state["state"],
    )


def both_ways(table: YardTable, start: ThousandState, seed: int) -> tuple[Any, Any]:
    """The game from ``start`` through the engine's loop and through the kernel."""
    kept = KeptDecisions()
    bots = [YardTableBot(table, kept), YardTableBot(table, kept)]
    engine, fast = start.clone(), start.clone()
    chance = seeded_rng(seed)
    play_game(engine, bots, chance, agent_rng(seed), fast=False)
    slow_end = final(engine, chance)
    chance = seeded_rng(seed)
    assert yard_playout.play_out(fast, bots, chance, agent_rng(seed))
    return slow_end, final(fast, chance)


@pytest.mark.parametrize("roll_off", [False, True], ids=["seat-0", "roll-off"])
def test_kernel_games_equal_the_engine(table: YardTable, kernel_only: None, roll_off: bool) -> None:
    rules = dataclasses.replace(TINY, roll_off=True) if roll_off else TINY
    golden = confirmed = 0
    for i in range(400 if not roll_off else 100):
        engine, fast = both_ways(table, ThousandState(rules, 2), game_seed(26, i))
        assert fast == engine, f"game {i}"
        golden += "thousand.narrate.golden" in fast[-2]
        confirmed += "thousand.narrate.confirmed" in fast[-2]
    if not roll_off:  # the games end every way the kernel stops before
        assert confirmed and golden, (confirmed, golden)


def random_start(rules: ThousandRules, rng: random.Random) -> ThousandState:
    """A turn start anywhere: scores below the table's floor, on the barrel with attempts, falls, bolts, the
    other seat flagged to skip."""
    scores = [rng.choice((rng.randrange(-120, 1, 5), rng.randrange(0, rules.target, 5))) for _ in range(2)]
    scores = [0 if s == rules.dump_truck_score else s for s in scores]
    on_barrel = [s >= rules.barrel_score for s in scores]
    opened = [s > 0 or rng.random() < 0.5 for s in scores]
    state = ThousandState.from_position(
        rules,
        scores,
        to_move=rng.randrange(2),
        opened=opened,
        on_barrel=on_barrel,
        barrel_attempts=[rng.randrange(rules.barrel_attempts) if b else 0 for b in on_barrel],
        barrel_falls=[rng.randrange(3) if o else 0 for o in opened],
        bolts=[rng.randrange(rules.bolts_count) if o else 0 for o in opened],
        anyone_banked=any(opened),
    )
    if any(opened) and rng.random() < 0.4:
        state.skip_next[1 - state.player] = True
    return state


def test_kernel_games_from_any_position_equal_the_engine(table: YardTable, kernel_only: None) -> None:
    rng = random.Random(26)
    for i in range(150):
        start = random_start(TINY, rng)
        engine, fast = both_ways(table, start, game_seed(27, i))
        assert fast == engine, f"position {i}: {start.signature()}"


def test_simulation_goes_through_the_kernel_and_wins_first_at_the_tables_chance(
    table: YardTable, kernel_only: None
) -> None:
    # play_game's fast path (core.playout) picks the kernel for two yard bot:optimal seats on one table
    kept = KeptDecisions()
    bots = [YardTableBot(table, kept), YardTableBot(table, kept)]
    space = table.space
    p = table.value(space.start, space.start)
    games = 6000
    wins = 0.0
    for i in range(games):
        seed = game_seed(28, i)
        state = ThousandState(TINY, 2)
        play_game(state, bots, seeded_rng(seed), agent_rng(seed))
        wins += state.returns()[0]
    half_width = 2.576 * math.sqrt(p * (1 - p) / games)
    assert abs(wins / games - p) <= half_width, (wins / games, p, half_width)


def test_other_seats_or_players_keep_the_python_path(table: YardTable) -> None:
    state = ThousandState(TINY, 2)
    rng = seeded_rng(1)
    assert not yard_playout.play_out(
        state, [YardTableBot(table), make_bot("thousand", "expert", TINY)], rng, rng
    )
    other = YardTable(table.space, table.values, table.levels, table.complete)
    assert not yard_playout.play_out(state, [YardTableBot(table), YardTableBot(other)], rng, rng)
    three = ThousandState(TINY, 3)
    assert not yard_playout.play_out(three, [YardTableBot(table)] * 3, rng, rng)
    explaining = YardTableBot(table)
    explaining.explain = True
    assert not yard_playout.play_out(state, [explaining, YardTableBot(table)], rng, rng)
    assert state.signature() == ThousandState(TINY, 2).signature()


def test_a_position_the_table_does_not_hold_is_refused_alike(table: YardTable) -> None:
    # not opened after a barrel fall: no such player state in the model; the engine's bot refuses it, and the
    # kernel hands the position back to the engine's loop, whose bot refuses it the same way
    start = ThousandState.from_position(TINY, [-30, 20], opened=[False, True], barrel_falls=[1, 0])
    bots = [YardTableBot(table), YardTableBot(table)]
    with pytest.raises(KeyError) as engine:
        play_game(start.clone(), bots, seeded_rng(1), agent_rng(1), fast=False)
    with pytest.raises(KeyError) as kernel:
        yard_playout.play_out(start.clone(), bots, seeded_rng(1), agent_rng(1))
    assert str(kernel.value) == str(engine.value)


@pytest.mark.slow
def test_kernel_games_equal_the_engine_many(table: YardTable, kernel_only: None) -> None:
    for i in range(5000):
        engine, fast = both_ways(table, ThousandState(TINY, 2), game_seed(29, i))
        assert fast == engine, f"game {i}"
    rng = random.Random(29)
    for i in range(2000):
        start = random_start(TINY, rng)
        engine, fast = both_ways(table, start, game_seed(30, i))
        assert fast == engine, f"position {i}: {start.signature()}"
