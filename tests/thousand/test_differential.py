"""The fast simulation path (:mod:`dicehall.thousand.fast` and the state's shortcuts) against the rules.

Random games from random positions under many rule sets, action by action: one state takes each roll through the
shortcuts (``apply_chance_uniform``, ``roll_again``), a twin takes the same dice and decisions through
``apply_action``; both take the same random decisions. After every step the positions and the narrated events must
be equal. Whole bot games through ``fast.play_out`` must also equal the plain protocol loop at every decision. A
few thousand games here, 100,000 in ``make slow``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import Agent
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.core.rng import seeded_rng
from dicehall.thousand import fast
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import OUTCOMES, ROLL, ThousandState

RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"roll_off": True, "golden_win": True}),
    ("classic", {"free_set_aside": True, "open_fail_penalty": 50, "hot_dice": "confirm"}),
    ("classic", {"max_rolls": 3, "pair_reroll": True, "skip_on_zero_first": True}),
    ("classic", {"barrel_exact": True, "barrel_cap": False, "exact_reset": True, "bolts_everywhere": True}),
    (
        "classic",
        {"barrel_knock": "opening", "barrel_cap": False, "reconfirm_hot": True, "hot_dice": "confirm"},
    ),
    ("classic-open", {}),
    ("variant2", {}),
    ("yard", {"free_set_aside": True}),
]


def random_position(rules: ThousandRules, rng: random.Random, seats: int = 0) -> ThousandState:
    """A turn start somewhere in a game (near the end half of the time, where barrel and pits act)."""
    n = seats or rng.choice((1, 2, 2, 3))
    top = rules.target
    scores = [
        rng.randrange(-200, top + 1, 5) if rng.random() < 0.5 else rng.randrange(600, top + 1, 5)
        for _ in range(n)
    ]
    on_barrel = [rules.barrel == "score" and s >= rules.barrel_score and rng.random() < 0.7 for s in scores]
    return ThousandState.from_position(
        rules,
        scores,
        to_move=rng.randrange(n),
        opened=[s != 0 or rng.random() < 0.3 for s in scores],
        on_barrel=on_barrel,
        barrel_attempts=[rng.randrange(0, 3) if b else 0 for b in on_barrel],
        barrel_falls=[rng.randrange(0, 3) for _ in scores],
        bolts=[rng.randrange(0, 3) for _ in scores],
        open_points=[rng.randrange(0, 3) for _ in scores],
    )


def play_both(rules: ThousandRules, seed: int, max_steps: int = 150, resign: bool = False) -> int:
    """One random game both ways; returns the steps compared. ``resign``: 3 or 4 seats, of which one or two
    resign at random steps (the shortcuts must pass seats out by as the rules do)."""
    rng = random.Random(seed)
    if resign:
        quick = random_position(rules, rng, seats=rng.choice((3, 4)))
        leave = {rng.randrange(0, 40): None, rng.randrange(0, 80): None}
    else:
        quick = ThousandState(rules, 2) if seed % 5 == 0 else random_position(rules, rng)
        leave = {}
    plain = quick.clone()
    for step in range(max_steps):
        if step in leave and not plain.is_terminal():
            seat = rng.choice(plain.seats_in())
            quick.resign(seat)
            plain.resign(seat)
        cur = plain.current_player()
        assert quick.current_player() == cur
        if cur == TERMINAL:
            return step
        if cur == CHANCE:
            u = rng.random()
            rolled = quick.apply_chance_uniform(u)
            dice = OUTCOMES[plain.dice_in_hand][int(u * 6**plain.dice_in_hand)]
            plain.apply_action(dice)
            assert rolled == dice
        else:
            legal = plain.legal_actions()
            assert list(quick.legal_actions()) == list(legal)
            action = rng.choice(list(legal))
            if action == ROLL:
                quick.roll_again()
            else:
                quick.apply_action(action)
            plain.apply_action(action)
        assert quick.signature() == plain.signature(), (seed, step)
        assert quick.events == plain.events, (seed, step)
        for got, want in zip(quick.events, plain.events, strict=True):
            assert getattr(got, "msgid", None) == getattr(want, "msgid", None)
    return max_steps


def run_games(games: int) -> int:
    steps = 0
    for i in range(games):
        preset, over = RULE_SETS[i % len(RULE_SETS)]
        steps += play_both(ThousandRules.from_preset(preset, over), seed=i)
    return steps


def test_fast_path_equals_the_rules_action_by_action() -> None:
    assert run_games(2000) > 50_000


def test_fast_path_equals_the_rules_with_seats_out() -> None:
    steps = 0
    for i in range(600):
        preset, over = RULE_SETS[i % len(RULE_SETS)]
        steps += play_both(ThousandRules.from_preset(preset, over), seed=i, resign=True)
    assert steps > 15_000


def test_play_out_refuses_a_game_with_a_seat_out() -> None:
    state = ThousandState(ThousandRules.from_preset("classic"), 3)
    state.resign(1)
    before, dice = state.signature(), seeded_rng(1)
    drawn = dice.bit_generator.state
    assert not fast.play_out(state, [Recorder([])] * 3, dice, np.random.default_rng(1))
    assert state.signature() == before and dice.bit_generator.state == drawn


@pytest.mark.slow
def test_fast_path_equals_the_rules_100k_games() -> None:
    assert run_games(100_000) > 2_000_000


class Recorder(Agent):
    """A random player that notes the position and events at each of its decisions."""

    def __init__(self, log: list[Any]) -> None:
        self.log = log

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        assert isinstance(state, ThousandState)
        self.log.append((state.signature(), state.events))
        legal = state.legal_actions()
        return legal[int(rng.integers(len(legal)))]


@pytest.mark.parametrize(("preset", "over"), RULE_SETS)
def test_play_out_equals_the_plain_loop(preset: str, over: dict[str, Any]) -> None:
    rules = ThousandRules.from_preset(preset, over)
    for seed in range(30):
        plain, plain_log = ThousandState(rules, 2), list[Any]()
        dice, bots = seeded_rng(seed), np.random.default_rng(seed)
        agent = Recorder(plain_log)
        while (cur := plain.current_player()) != TERMINAL:
            plain.apply_action(plain.sample_chance(dice) if cur == CHANCE else agent.choose(plain, bots))
        quick, quick_log = ThousandState(rules, 2), list[Any]()
        dice_b, bots_b = seeded_rng(seed), np.random.default_rng(seed)
        assert fast.play_out(quick, [Recorder(quick_log)] * 2, dice_b, bots_b)
        assert quick_log == plain_log
        assert quick.signature() == plain.signature() and quick.events == plain.events
        assert dice_b.bit_generator.state == dice.bit_generator.state


@pytest.mark.parametrize(
    ("preset", "over"), RULE_SETS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(RULE_SETS)]
)
def test_play_out_follows_the_lead_as_the_plain_loop(preset: str, over: dict[str, Any]) -> None:
    """With the lead followed (:mod:`dicehall.thousand.lead`), the fast path's shortcut for rolling on
    (``roll_again``) notes the banks a pit refuses as ``apply_action`` does: the same events, the same verdict."""
    rules = ThousandRules.from_preset(preset, over)
    refusals = 0
    for seed in range(30):
        plain = ThousandState(rules, 2)
        plain_watch = plain.follow_lead()
        dice, bots = seeded_rng(seed), np.random.default_rng(seed)
        agent = Recorder([])
        while (cur := plain.current_player()) != TERMINAL:
            plain.apply_action(plain.sample_chance(dice) if cur == CHANCE else agent.choose(plain, bots))
        quick = ThousandState(rules, 2)
        quick_watch = quick.follow_lead()
        assert fast.play_out(quick, [Recorder([])] * 2, seeded_rng(seed), np.random.default_rng(seed))
        assert quick.signature() == plain.signature()
        assert quick_watch.events == plain_watch.events and quick_watch.took == plain_watch.took
        assert quick_watch.pit_refusals == plain_watch.pit_refusals
        refusals += plain_watch.pit_refusals
    assert refusals > 0 or not rules.pits  # the pits were met
