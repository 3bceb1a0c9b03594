"""The compiled games of ``bot:optimal`` against itself (:mod:`dicehall.thousand.solver.playout`) against the
engine: the same seeds through the engine's own loop with the Python bots and through the kernel must end in the
same position (winner, scores, every seat's counts, turns, rolls, statistics, the last roll and its narration)
with the dice generator left at the same place. A few hundred games here, many more in ``make slow``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import playout
from dicehall.thousand.solver.bot import OptimalBot
from dicehall.thousand.solver.solve import Table, shipped_table, solve
from dicehall.thousand.state import ThousandState

from .test_solver import FLOOR, LEVELS, SMALL

CLASSIC = ThousandRules.from_preset("classic")


def solved(rules: ThousandRules) -> Table:
    """A table of ``rules`` (the bounds' midpoint: ``LEVELS`` has endless play, and any values serve here)."""
    sol = solve(rules, floor=FLOOR, tol=1e-10)
    return Table(sol.space, ((sol.lower + sol.upper) / 2).astype(np.float32), {})


@pytest.fixture(scope="module")
def tables() -> dict[str, tuple[ThousandRules, Table]]:
    classic = shipped_table(CLASSIC)
    assert classic is not None
    return {
        "classic": (CLASSIC, classic),
        "classic-rolloff": (ThousandRules.from_preset("classic", {"roll_off": True}), classic),
        "small": (SMALL, solved(SMALL)),
        "levels": (LEVELS, solved(LEVELS)),
    }


def final(state: ThousandState, rng: np.random.Generator) -> tuple[Any, ...]:
    return (
        state.signature(),
        state.stats(),
        state.last_roll,
        state.last_combos,
        state._need,
        state._need_rule,
        [str(e) for e in state.events],
        rng.bit_generator.state["state"],
    )


def both_ways(rules: ThousandRules, table: Table, start: ThousandState, seed: int) -> tuple[Any, Any]:
    """The game from ``start`` through the engine's loop and through the kernel (checked to have been used)."""
    bots = [OptimalBot(rules, table), OptimalBot(rules, table)]
    engine, fast = start.clone(), start.clone()
    chance = seeded_rng(seed)
    try:
        play_game(engine, bots, chance, agent_rng(seed), fast=False)
        slow_end = final(engine, chance)
    except RuntimeError as e:  # endless play (LEVELS' table has it): both give up
        slow_end = str(e)
    chance = seeded_rng(seed)
    try:
        assert playout.play_out(fast, bots, chance, agent_rng(seed))
        fast_end = final(fast, chance)
    except RuntimeError as e:
        fast_end = str(e)
    return slow_end, fast_end


@pytest.mark.parametrize("name", ["classic", "classic-rolloff", "small", "levels"])
def test_kernel_games_equal_the_engine(tables: dict[str, tuple[ThousandRules, Table]], name: str) -> None:
    rules, table = tables[name]
    games = 150 if name == "classic" else 60
    for i in range(games):
        engine, fast = both_ways(rules, table, ThousandState(rules, 2), game_seed(16, i))
        assert fast == engine, f"{name} game {i}"


def random_start(rules: ThousandRules, rng: random.Random) -> ThousandState:
    """A turn start anywhere (negative scores below the solver's floor, on the barrel, falls, bolts)."""
    barrel = rules.barrel == "score"
    top = rules.barrel_score if barrel else rules.target - 5
    scores = [rng.choice((rng.randrange(-500, 1, 5), rng.randrange(0, top + 1, 5))) for _ in range(2)]
    if rules.dump_truck:
        scores = [0 if s == rules.dump_truck_score else s for s in scores]
    on_barrel = [barrel and s == rules.barrel_score for s in scores]
    opened = [s > 0 or rng.random() < 0.5 for s in scores]
    return ThousandState.from_position(
        rules,
        scores,
        to_move=rng.randrange(2),
        opened=opened,
        on_barrel=on_barrel,
        barrel_attempts=[rng.randrange(rules.barrel_attempts) if b else 0 for b in on_barrel],
        barrel_falls=[
            rng.randrange(4) if barrel and o else 0 for o in opened
        ],  # a fall needs an opened player
        bolts=[rng.randrange(rules.bolts_count) for _ in scores],
    )


@pytest.mark.parametrize("name", ["classic", "levels"])
def test_kernel_games_from_any_position_equal_the_engine(
    tables: dict[str, tuple[ThousandRules, Table]], name: str
) -> None:
    rules, table = tables[name]
    rng = random.Random(name)
    for i in range(60):
        start = random_start(rules, rng)
        engine, fast = both_ways(rules, table, start, game_seed(17, i))
        assert fast == engine, f"{name} position {i}: {start.signature()}"


def test_a_position_the_table_does_not_hold_is_refused_alike(
    tables: dict[str, tuple[ThousandRules, Table]],
) -> None:
    # not opened after a barrel fall: no such player state in the model; the engine's bot refuses it, and so
    # does the kernel's path (it hands the position back to the engine's loop)
    rules, table = tables["classic"]
    start = ThousandState.from_position(rules, [-255, 400], opened=[False, True], barrel_falls=[2, 0])
    bots = [OptimalBot(rules, table), OptimalBot(rules, table)]
    with pytest.raises(ValueError, match="not a position of this model"):
        play_game(start.clone(), bots, seeded_rng(1), agent_rng(1), fast=False)
    with pytest.raises(ValueError, match="not a position of this model"):
        playout.play_out(start.clone(), bots, seeded_rng(1), agent_rng(1))


def test_other_seats_or_players_keep_the_python_path(tables: dict[str, tuple[ThousandRules, Table]]) -> None:
    rules, table = tables["classic"]
    from dicehall.core.agents import make_bot

    state = ThousandState(rules, 2)
    rng = seeded_rng(1)
    assert not playout.play_out(
        state, [OptimalBot(rules, table), make_bot("thousand", "expert", rules)], rng, rng
    )
    other = Table(table.space, table.values, table.info)
    assert not playout.play_out(state, [OptimalBot(rules, table), OptimalBot(rules, other)], rng, rng)
    three = ThousandState(rules, 3)
    assert not playout.play_out(three, [OptimalBot(rules, table)] * 3, rng, rng)
    explaining = OptimalBot(rules, table)
    explaining.explain = True
    assert not playout.play_out(state, [explaining, OptimalBot(rules, table)], rng, rng)
    assert state.signature() == ThousandState(rules, 2).signature()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "levels"])
def test_kernel_games_equal_the_engine_many(
    tables: dict[str, tuple[ThousandRules, Table]], name: str
) -> None:
    rules, table = tables[name]
    for i in range(5000):
        engine, fast = both_ways(rules, table, ThousandState(rules, 2), game_seed(18, i))
        assert fast == engine, f"{name} game {i}"
    rng = random.Random(18)
    for i in range(2000):
        start = random_start(rules, rng)
        engine, fast = both_ways(rules, table, start, game_seed(19, i))
        assert fast == engine, f"{name} position {i}"
