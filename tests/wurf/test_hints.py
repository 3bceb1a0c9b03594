"""Wurf hints: the map of where to aim, weighed by bot:expert's own evaluation (dicehall/wurf/hints.py), and its
text form in the terminal."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from dicehall.core.analysis import AnalysisError, has_evaluator, has_hints, position_hints
from dicehall.core.errors import DicehallError
from dicehall.core.game import CHANCE, get_game
from dicehall.i18n import set_language
from dicehall.wurf import hints as wurf_hints_module
from dicehall.wurf.actions import EndTurn, Rearrange, Throw
from dicehall.wurf.bots import ELIMINATION_COST, ExpertBot
from dicehall.wurf.cli import register
from dicehall.wurf.hint_text import SHADES, map_lines
from dicehall.wurf.hints import GRID, TIE, NoThrowHint, throw_map, wurf_hints
from dicehall.wurf.state import WurfState

from .helpers import make, play


def sample_positions(count: int = 40) -> list[WurfState]:
    """Decision positions from seeded games of bot:expert against bot:cautious, 2–5 players, early and late."""
    found: list[WurfState] = []
    game = 0
    while len(found) < count:
        players = 2 + game % 4
        state = make(players, "standard", arena="fast")
        rng = np.random.default_rng(100 + game)
        bots = [ExpertBot(state.rules) if s % 2 == 0 else None for s in range(players)]
        step = 0
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            if step % 3 == game % 3:
                found.append(state.clone())
            bot = bots[state.current_player()] or ExpertBot(state.rules)
            state.apply_action(bot.choose(state, rng))
            step += 1
        game += 1
    return found


POSITIONS = sample_positions()


def expert_seed(k: int) -> int:
    """The seed ExpertBot.choose draws from ``default_rng(k)`` (its common random numbers)."""
    return int(np.random.default_rng(k).integers(1 << 62))


def test_the_hint_takes_the_experts_own_decision() -> None:
    # Weighing only the expert's candidates, the hint's choice is exactly the bot's (throw, gather or end), and its
    # value for each candidate is the bot's own.
    kinds = set()
    for k, state in enumerate(POSITIONS):
        m = throw_map(state, expert_seed(k), grid=0)
        chose = ExpertBot(state.rules).choose(state, np.random.default_rng(k))
        assert m.expert == chose, (k, state.action_to_string(chose))
        kinds.add(type(chose))
        if isinstance(chose, Throw):
            assert m.best == chose  # no grid: the best throw on the map is the expert's
    assert {Throw, EndTurn} <= kinds  # the samples cover both throws and ends (and mostly gathering too)


def test_the_best_point_is_the_experts_throw_unless_the_grid_finds_better() -> None:
    # (better by more than TIE: a smaller lead keeps the expert's throw)
    agreed = 0
    for k, state in enumerate(POSITIONS):
        seed = expert_seed(k)
        m = throw_map(state, seed)
        chose = ExpertBot(state.rules).choose(state, np.random.default_rng(k))
        grid_top = max(v for row in m.values for v in row)
        assert grid_top <= m.best_value + TIE  # no point on the map is visibly better than the one marked
        if isinstance(chose, Throw):
            bot = ExpertBot(state.rules)
            own = bot._value(state, list(state.arena), state.throw_count(), chose, seed)
            assert m.best_value >= own - 1e-9
            if grid_top <= own + TIE:
                assert m.best == chose  # the grid found nothing better: the bot's throw is the best point
                agreed += 1
    assert agreed >= 5


def test_each_point_is_the_experts_value_at_its_better_power() -> None:
    bot = ExpertBot()
    for k, state in enumerate(POSITIONS[:8]):
        seed = expert_seed(k)
        m = throw_map(state, seed)
        step = m.step
        for row, col in ((0, 0), (GRID // 2, GRID // 3), (GRID - 1, GRID - 1)):
            x, y = round((col + 0.5) * step, 1), round((row + 0.5) * step, 1)
            own = [
                bot._value(state, list(state.arena), state.throw_count(), Throw(x, y, p, 0.5), seed)
                for p in bot.powers
            ]
            assert m.values[row][col] == pytest.approx(max(own))
            assert m.powers[row][col] == bot.powers[own.index(max(own))]


def test_values_are_in_range() -> None:
    for k, state in enumerate(POSITIONS):
        m = throw_map(state, expert_seed(k))
        n = state.throw_count()
        most = len(state.arena) + n + 1  # every die taken, and at best a whole die's worth of the next turn
        least = -(n + ELIMINATION_COST + max(state.supply) + 2)  # thrown away, out, the big throw next
        for row in m.values:
            assert len(row) == GRID
            for v in row:
                assert math.isfinite(v) and least <= v <= most
        assert all(p in ExpertBot.powers for row in m.powers for p in row)
        assert 0 <= m.best.x <= 200 and 0 <= m.best.y <= 200 and m.best.power in ExpertBot.powers


def test_the_same_position_gives_the_same_hint() -> None:
    state = POSITIONS[7]
    first = throw_map(state).to_json()
    assert throw_map(state.clone()).to_json() == first  # kept
    wurf_hints_module._MAPS.clear()
    assert throw_map(state.clone()).to_json() == first  # weighed again: the seed is the position's


def test_hints_list_the_best_throw_gathering_and_the_end() -> None:
    state = next(s for s in POSITIONS if s.phase == "choice" and not s.rearranged and len(s.arena) >= 2)
    h = wurf_hints(state)
    assert h.unit == "dice" and h.seat == state.current
    moves = [state.string_to_action(o.move) for o in h.options]
    assert sum(o.best for o in h.options) == 1 and h.options[0].best and h.options[0].loss == 0
    assert {type(a) for a in moves} == {Throw, Rearrange, EndTurn}
    for a in moves:
        state.clone().apply_action(a)  # every move the hint names is legal
    values = [o.value for o in h.options]
    assert values == sorted(values, reverse=True)
    js = h.to_json()
    assert js["note_id"] == "wurf.hint.note" and len(js["map"]["values"]) == GRID
    assert js["map"]["best"]["value"] >= max(v for row in js["map"]["values"] for v in row) - TIE - 1e-3


def test_the_game_serves_hints_but_no_analysis() -> None:
    assert has_hints("wurf") and not has_evaluator("wurf")
    state = POSITIONS[0]
    h = position_hints("wurf", state.rules, len(state.supply), state)
    assert h.unit == "dice"
    with pytest.raises(NoThrowHint):
        throw_map(make(2))  # the first die is not in the arena yet: a chance node
    assert issubclass(NoThrowHint, DicehallError)
    with pytest.raises(AnalysisError):
        position_hints("nope", state.rules, 2, state)


def test_a_flat_map_says_so() -> None:
    m = throw_map(POSITIONS[3])
    flat = dataclasses.replace(m, values=tuple((m.best_value,) * GRID for _ in range(GRID)))
    lines = map_lines(flat, [])
    assert lines[-1] == "Every aim is worth the same here."
    assert {ch for line in lines[:GRID] for ch in line[4:-1]} <= {
        SHADES[len(SHADES) // 2],
        "B",
    }  # one middle shade


def test_real_dice_give_no_map() -> None:
    # entered real dice have no places: the aim cannot be weighed, the hint keeps throwing against ending
    state = play(make(2), "start 4", "throw real", "lands 4 5")
    h = wurf_hints(state)
    assert h.map is None and "map" not in h.to_json()
    assert {type(state.string_to_action(o.move)) for o in h.options} == {Throw, EndTurn}


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_the_terminal_map_fits_80_columns(lang: str) -> None:
    state = play(make(2), "start 2@100,100,0", "throw c2 p0.5", "lands 2@100,100,0 4@40,40,0")
    set_language(lang)  # the suite's fixture puts the language back after each test
    h = position_hints("wurf", state.rules, 2, state)
    lines = get_game("wurf").hint_lines(h, state)
    throw = next(o.move for o in h.options if o.move.startswith("throw "))
    words = get_game("wurf").move_words(state, throw)
    assert lines and all(len(line) <= 80 for line in lines[1:-1])  # the map itself; prose lines wrap
    grid = map_lines(throw_map(state), [(100.0, 100.0), (40.0, 40.0)])
    assert sum(line.count("B") for line in grid[:GRID]) == 2  # the best point, two characters wide
    assert sum(line.count("oo") for line in grid[:GRID]) >= 1  # a die's point (unless the best is on it)
    assert "mm" in words or "мм" in words


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    root, play_app, sim_app = typer.Typer(), typer.Typer(), typer.Typer()
    root.add_typer(play_app, name="play")
    root.add_typer(sim_app, name="simulate")
    register(root, play_app, sim_app)
    return root


def test_question_mark_shows_the_hint_and_a_table_of_people_refuses_it(
    app: typer.Typer, tmp_path: Path
) -> None:
    res = CliRunner().invoke(
        app, ["play", "wurf", "--players", "me,bot:expert", "--seed", "3"], input="?\nq\nn\n"
    )
    assert "Best throw: aim at" in res.output and "North at the top" in res.output, res.output
    assert "'?' hint" in res.output
    res = CliRunner().invoke(app, ["play", "wurf", "--players", "me,me", "--seed", "3"], input="?\nq\nn\n")
    assert "Hints are off at this table" in res.output and "Best throw" not in res.output
    assert "'?' hint" not in res.output
