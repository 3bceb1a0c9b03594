"""Every numeric rule option of every game has a range: both ends play a whole game, one past each is refused.

The smallest and largest allowed value of each option (with the other options it needs to make sense, listed in
``COMPANIONS``) plays a complete game to the end: with a cheap bot here, with each game's strongest bot under
``@pytest.mark.slow``. One past either end is refused by the engine, the CLI and the API with the same message.
"""

from __future__ import annotations

import dataclasses
import resource
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import make_bot
from dicehall.core.errors import PlayerSpecError, RuleConfigError
from dicehall.core.game import TERMINAL, game_names, get_game
from dicehall.core.rules import RuleSet

STEP_LIMIT = 400_000
"""A game that has not ended after this many protocol steps counts as not bounded (classic ends in ≈300)."""

CHEAP_BOT = {"thousand": "bold", "clever": "greedy", "wurf": "cautious"}
STRONGEST_BOT = {"thousand": "expert", "clever": "expert", "wurf": "expert"}

FIVE_PITS = [[100, 400], [1000, 1300], [2000, 2300], [3000, 3300], [4700, 5000]]
COMPANIONS: dict[tuple[str, str, str], dict[str, Any]] = {
    # (game, option, "min"|"max") -> the other options that value needs (and hard partners for a stress test)
    ("thousand", "target", "min"): {"barrel": "none", "open_min": 0, "pits": [], "dump_truck": False},
    ("thousand", "target", "max"): {"barrel_score": 4880},
    ("thousand", "barrel_score", "min"): {"open_min": 0, "target": 300, "pits": [], "dump_truck": False},
    ("thousand", "barrel_score", "max"): {"target": 5000},
    ("thousand", "dump_truck_score", "max"): {"target": 5000, "barrel": "none"},
    ("thousand", "pits", "min"): {"pits": [[0, 300]]},
    ("thousand", "pits", "max"): {"target": 5000, "barrel": "none", "pits": FIVE_PITS},
    ("thousand", "open_min", "max"): {"max_rolls": 3},
    ("thousand", "open_fail_every", "min"): {"open_fail_penalty": 200},
    ("thousand", "open_fail_penalty", "max"): {"open_fail_every": 1, "open_min": 300},
    ("thousand", "bolts_count", "min"): {"bolt_penalty": 50},
    ("thousand", "bolt_penalty", "max"): {"bolts_count": 4},
    ("thousand", "max_rolls", "max"): {"hot_dice": "confirm"},
    ("thousand", "barrel_attempts", "max"): {"barrel_fall_penalty": 200},
    ("thousand", "barrel_falls_to_zero", "min"): {"barrel_fall_penalty": 200, "barrel_attempts": 1},
    ("thousand", "open_points_limit", "min"): {"barrel": "open"},
    ("thousand", "open_points_limit", "max"): {"barrel": "open"},
    ("thousand", "open_point_penalty", "min"): {"barrel": "open", "open_fall_limit": 10},
    ("thousand", "open_point_penalty", "max"): {"barrel": "open", "open_fall_limit": 10},
    ("thousand", "open_fall_limit", "min"): {"barrel": "open", "open_points_limit": 1},
    ("thousand", "open_fall_limit", "max"): {"barrel": "open", "open_points_limit": 1},
}
HARD_COMBINATIONS: list[tuple[str, dict[str, Any]]] = [
    # the worst corners found while choosing the ranges (see docs/thousand.md, "Option ranges")
    ("thousand", {"max_rolls": 1, "open_min": 300}),
    ("thousand", {"barrel_score": 700, "pits": [[200, 300]]}),
    ("thousand", {"target": 5000, "barrel_score": 4700, "pits": [p for p in FIVE_PITS[:4]] + [[4000, 4300]]}),
    ("thousand", {"overtake_penalty": 200, "bolts_count": 1, "bolt_penalty": 50, "barrel_fall_penalty": 200}),
]


def ranged_options() -> list[tuple[str, str]]:
    out = []
    for game in game_names():
        rules_type = get_game(game).rules_type
        out += [(game, key) for key in rules_type.option_names() if rules_type.range_of(key)]
    return out


def extreme_value(rules_type: type[RuleSet], key: str, end: str) -> Any:
    bounds = rules_type.range_of(key)
    if "max_items" in bounds:  # a tuple option: its own companion entry gives the value
        return None
    return bounds[end]


def extreme_rules(game: str, key: str, end: str) -> RuleSet:
    rules_type = get_game(game).rules_type
    overrides = dict(COMPANIONS.get((game, key, end), {}))
    value = extreme_value(rules_type, key, end)
    if value is not None:
        overrides[key] = value
    return rules_type.from_preset(None, overrides)


def player_counts(game: str, rules: RuleSet) -> list[int]:
    """The smallest and the largest player count these rules can seat."""
    g = get_game(game)
    counts = []
    for n in (g.min_players, g.max_players):
        while n >= g.min_players:
            try:
                g.new_initial_state(rules, n)
            except RuleConfigError:  # e.g. Der große Wurf: 15 dice each fit only 2 players
                n -= 1
                continue
            counts.append(n)
            break
    return sorted(set(counts))


def play_to_the_end(game: str, rules: RuleSet, players: int, bot: str, seed: int = 0) -> int:
    """Play one game with ``bot`` in every seat; return its number of steps (fails if it does not end)."""
    state = get_game(game).new_initial_state(rules, players)
    agents = [make_bot(game, bot, rules) for _ in range(players)]
    chance, bots = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    steps = 0
    while state.current_player() != TERMINAL:
        assert steps < STEP_LIMIT, f"{game} {rules.overrides()} did not end in {STEP_LIMIT} steps"
        player = state.current_player()
        action = state.sample_chance(chance) if state.is_chance_node() else agents[player].choose(state, bots)
        state.apply_action(action)
        steps += 1
    assert max(state.returns()) > 0 or game == "clever"
    return steps


EXTREMES = [(game, key, end) for game, key in ranged_options() for end in ("min", "max")]


def test_every_numeric_option_has_a_range() -> None:
    for game in game_names():
        rules_type = get_game(game).rules_type
        for f in dataclasses.fields(rules_type):
            hint = rules_type._hint(f.name) if f.name != "preset" else str
            if hint in (int, float) or "tuple" in str(hint):
                assert {"min", "max"} <= set(rules_type.range_of(f.name)), (game, f.name)
    assert len(EXTREMES) >= 2 * 19


@pytest.mark.parametrize(("game", "key", "end"), EXTREMES)
def test_both_ends_play_a_whole_game_with_a_cheap_bot(game: str, key: str, end: str) -> None:
    rules = extreme_rules(game, key, end)
    for n in player_counts(game, rules):
        play_to_the_end(game, rules, n, CHEAP_BOT[game])


@pytest.mark.slow
@pytest.mark.parametrize(("game", "key", "end"), EXTREMES)
def test_both_ends_play_a_whole_game_with_the_strongest_bot(game: str, key: str, end: str) -> None:
    rules = extreme_rules(game, key, end)
    for n in player_counts(game, rules):
        for seed in range(2):
            play_to_the_end(game, rules, n, STRONGEST_BOT[game], seed)
    assert (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 1_500_000
    )  # KiB: the process stays under 1.5 GB


@pytest.mark.slow
@pytest.mark.parametrize(("game", "overrides"), HARD_COMBINATIONS)
def test_hard_combinations_end_with_the_strongest_bot(game: str, overrides: dict[str, Any]) -> None:
    rules = get_game(game).rules_type.from_preset(None, overrides)
    for seed in range(3):
        play_to_the_end(game, rules, 2, STRONGEST_BOT[game], seed)


@pytest.mark.parametrize(("game", "overrides"), HARD_COMBINATIONS)
def test_hard_combinations_end_with_a_cheap_bot(game: str, overrides: dict[str, Any]) -> None:
    play_to_the_end(game, get_game(game).rules_type.from_preset(None, overrides), 2, CHEAP_BOT[game])


def one_past(rules_type: type[RuleSet], key: str, end: str) -> tuple[Any, str]:
    """A value one past the ``end`` of ``key``'s range and the message that refuses it."""
    bounds = rules_type.range_of(key)
    lo, hi = bounds["min"], bounds["max"]
    value = lo - 1 if end == "min" else hi + 1
    if "max_items" in bounds:  # a tuple option: one number in it out of range
        return [[value, value + 10]] if end == "min" else [[0, value]], (
            f"every number in {key} must be between {lo} and {hi}, got {value}"
        )
    return value, f"{key} must be between {lo} and {hi}, got {value}"


@pytest.mark.parametrize(("game", "key", "end"), EXTREMES)
def test_one_past_each_end_is_refused_with_the_range(game: str, key: str, end: str) -> None:
    rules_type = get_game(game).rules_type
    value, message = one_past(rules_type, key, end)
    with pytest.raises(RuleConfigError) as info:
        rules_type.from_preset(None, {key: value})
    # the range first; a rule set that adapts to the target may add a set of rules that works
    assert str(info.value).startswith(message) and info.value.option == key
    rules, errors = rules_type.check(None, {key: value})
    assert rules is None and [e.option for e in errors] == [key] and str(errors[0]).startswith(message)
    with pytest.raises(RuleConfigError, match="must be between"):  # direct construction is checked too
        dataclasses.replace(rules_type.from_preset(None), **{key: rules_type._coerce(key, value)})


runner = CliRunner()


CLI_CASES = [
    ("thousand", "target", "max"),
    ("thousand", "pits", "min"),
    ("thousand", "bolts_count", "min"),
    ("clever", "rounds", "max"),
    ("wurf", "dice_per_player", "min"),
]


@pytest.mark.parametrize(("game", "key", "end"), CLI_CASES)  # the CLI is slow to start; the engine checks all
def test_cli_shows_the_range_error_on_one_line(game: str, key: str, end: str, tmp_path: Any) -> None:
    _register_games()
    rules_type = get_game(game).rules_type
    value, message = one_past(rules_type, key, end)
    text = repr(value).replace("(", "[").replace(")", "]").replace(" ", "")
    result = runner.invoke(app, ["rules", game, "--set", f"{key}={text}"])
    assert result.exit_code != 0 and result.output.strip() == f"error: {message}"
    toml = tmp_path / "house.toml"
    toml.write_text(f"{key} = {text}\n", encoding="utf-8")
    result = runner.invoke(app, ["rules", game, "--rules", str(toml)])
    assert result.exit_code != 0 and result.output.strip() == f"error: {message}"


def test_numbers_of_players_are_bounded_and_whole() -> None:
    for name in game_names():
        game = get_game(name)
        rules = game.rules_type.from_preset(None)
        for bad in (game.min_players - 1, game.max_players + 1, 2.5, "2", None, True, -1, 99):
            with pytest.raises(PlayerSpecError, match="players"):
                game.new_initial_state(rules, bad)  # type: ignore[arg-type]
        assert game.new_initial_state(rules, np.int64(game.min_players)).num_players == game.min_players
        with pytest.raises(RuleConfigError, match="needs"):
            game.new_initial_state(object(), game.min_players)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", game_names())
def test_fewest_and_most_players_play_a_whole_game(game: str) -> None:
    g = get_game(game)
    rules = g.rules_type.from_preset(None)
    for n in (g.min_players, g.max_players):
        play_to_the_end(game, rules, n, CHEAP_BOT[game])


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_fewest_and_most_players_with_the_strongest_bot_at_the_largest_target(game: str) -> None:
    g = get_game(game)
    rules = extreme_rules(game, "target", "max") if game == "thousand" else g.rules_type.from_preset(None)
    for n in (g.min_players, g.max_players):
        play_to_the_end(game, rules, n, STRONGEST_BOT[game])
