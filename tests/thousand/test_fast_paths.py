"""The simulation fast paths give exactly what the plain protocol gives.

``play_game`` (without a record) applies rolls through ``apply_chance_uniform`` with uniform numbers drawn in
batches; the plain loop is ``sample_chance`` + ``apply_action`` one step at a time. Both must play the same game
move for move and leave the dice generator in the same state. Event texts are built lazily; public_view's player
entries are written out by hand: both must match what the slow, obvious code gives.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import Agent, make_bot
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.core.rng import agent_rng, seeded_rng
from dicehall.core.simulate import _BATCH, play_game
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import OUTCOMES, ThousandState

CASES: list[tuple[str, dict[str, Any], int, tuple[str, ...]]] = [
    ("classic", {}, 2, ("expert", "bold")),
    ("classic", {"roll_off": True}, 3, ("cautious", "random", "bold")),
    ("classic", {"free_set_aside": True, "open_fail_penalty": 50}, 2, ("expert", "random")),
    ("classic-open", {}, 2, ("random", "bold")),
    ("variant2", {}, 4, ("expert", "cautious", "random", "bold")),
    ("yard", {}, 3, ("expert", "random", "cautious")),
]


class Logged(Agent):
    """Wraps a bot and logs its decisions."""

    def __init__(self, inner: Agent, log: list[Any]) -> None:
        self.inner, self.log = inner, log

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        action = self.inner.choose(state, rng)
        self.log.append(action)
        return action


def plain_loop(
    state: ThousandState, agents: list[Agent], dice: np.random.Generator, bots: np.random.Generator
) -> list[Any]:
    """The protocol one step at a time, logging every move and the events after it."""
    moves: list[Any] = []
    while (cur := state.current_player()) != TERMINAL:
        action = state.sample_chance(dice) if cur == CHANCE else agents[cur].choose(state, bots)
        state.apply_action(action)
        moves.append((action, state.events))
    return moves


@pytest.mark.parametrize(("preset", "over", "players", "bots"), CASES)
def test_play_game_equals_the_plain_protocol(
    preset: str, over: dict[str, Any], players: int, bots: tuple[str, ...]
) -> None:
    rules = ThousandRules.from_preset(preset, over)
    longest = 0
    for seed in range(25):
        a = ThousandState(rules, players)
        dice_a, bots_a = seeded_rng(seed), agent_rng(seed)
        moves = plain_loop(a, [make_bot("thousand", b, rules) for b in bots], dice_a, bots_a)

        b = ThousandState(rules, players)
        log: list[Any] = []
        agents = [Logged(make_bot("thousand", name, rules), log) for name in bots]
        dice_b, bots_b = seeded_rng(seed), agent_rng(seed)
        play_game(b, agents, dice_b, bots_b)

        assert b.signature() == a.signature()
        assert b.events == a.events
        assert log == [m for m, _ in moves if not isinstance(m, tuple)]
        # the generators are where one-by-one draws leave them
        assert dice_b.bit_generator.state == dice_a.bit_generator.state
        assert bots_b.bit_generator.state == bots_a.bit_generator.state
        assert dice_b.random() == dice_a.random()
        longest = max(longest, a.total_rolls)
    if preset == "classic" and not over:
        assert longest > _BATCH  # a game long enough to need a second batch of numbers was compared


def test_generator_restored_when_a_bot_fails_mid_game() -> None:
    rules = ThousandRules.from_preset("classic")

    class Quits(Agent):
        def __init__(self) -> None:
            self.calls = 0

        def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
            self.calls += 1
            if self.calls == 40:
                raise RuntimeError("bot gave up")
            return "roll" if state.turn_total < 300 or state.hot_dice else "bank"

    state = ThousandState(rules, 1)
    dice = seeded_rng(5)
    with pytest.raises(RuntimeError, match="bot gave up"):
        play_game(state, [Quits()], dice, agent_rng(5))
    # replay the same game one draw at a time up to the same point
    ref, ref_dice, bot = ThousandState(rules, 1), seeded_rng(5), Quits()
    with pytest.raises(RuntimeError, match="bot gave up"):
        while True:
            if ref.current_player() == CHANCE:
                ref.apply_action(ref.sample_chance(ref_dice))
            else:
                ref.apply_action(bot.choose(ref, ref_dice))
    assert state.signature() == ref.signature()
    assert dice.bit_generator.state == ref_dice.bit_generator.state


def test_shared_generator_takes_the_one_by_one_path() -> None:
    """With one generator for dice and bots the draws interleave: no batching, same game as the plain loop."""
    rules = ThousandRules.from_preset("classic")
    a, b = ThousandState(rules, 2), ThousandState(rules, 2)
    ra, rb = np.random.default_rng(3), np.random.default_rng(3)
    plain_loop(a, [make_bot("thousand", "random", rules)] * 2, ra, ra)
    play_game(b, [make_bot("thousand", "random", rules)] * 2, rb, rb)
    assert a.signature() == b.signature() and ra.bit_generator.state == rb.bit_generator.state


def test_uniform_chance_matches_sample_chance() -> None:
    rules = ThousandRules.from_preset("classic", {"roll_off": True})
    state = ThousandState(rules, 2)
    for k in (1, 2, 3, 4, 5):
        for u in (0.0, 0.1234, 0.5, 0.999999999):
            assert OUTCOMES[k][int(u * 6**k)] in OUTCOMES[k]
    # roll-off (one die), then regular rolls, each compared with sample_chance on a copy of the generator
    rng = seeded_rng(9)
    while state.current_player() == CHANCE and state.total_rolls < 6:
        expected = state.clone()
        copy = seeded_rng(9)
        copy.bit_generator.state = rng.bit_generator.state
        roll = expected.sample_chance(copy)
        expected.apply_action(roll)
        got = state.apply_chance_uniform(rng.random())
        assert got == roll and state.signature() == expected.signature() and state.events == expected.events
        if state.current_player() >= 0:
            state.apply_action("roll")


def test_uniform_chance_refused_at_a_decision_and_when_over() -> None:
    rules = ThousandRules.from_preset("classic")
    state = ThousandState(rules, 1)
    state.apply_action((1, 1, 5, 2, 3))
    before = state.signature()
    with pytest.raises(IllegalActionError) as err:
        state.apply_chance_uniform(0.5)
    assert err.value.rule == "turn-order" and state.signature() == before
    with pytest.raises(IllegalActionError):
        state.sample_and_apply_chance(seeded_rng(1))
    assert state.signature() == before
    over = ThousandState.from_position(rules, [880], on_barrel=[True])
    over.apply_action((1, 1, 1, 1, 2))  # 200: 880 + 200 wins from the barrel
    over.apply_action("bank")
    assert over.current_player() == TERMINAL
    done = over.signature()
    with pytest.raises(IllegalActionError):
        over.apply_chance_uniform(0.1)
    assert over.signature() == done


def test_status_json_is_the_dataclass_as_dict() -> None:
    rules = ThousandRules.from_preset("classic")
    state = ThousandState.from_position(
        rules, [250, 0, 900], opened=[True, False, True], on_barrel=[False, False, True], bolts=[2, 0, 0]
    )
    view = state.public_view()
    for seat, entry in enumerate(view["players"]):
        status = state.status(seat)
        expected = dataclasses.asdict(status)
        expected["pit"] = None if status.pit is None else list(status.pit)
        assert entry == expected == status.to_json()
        assert list(entry) == [f.name for f in dataclasses.fields(status)]
    assert view["players"][0]["pit"] == [200, 300] and view["players"][2]["on_barrel"] is True


def test_events_are_fresh_lists_of_text() -> None:
    rules = ThousandRules.from_preset("classic")
    state = ThousandState.from_position(rules, [300, 320], bolts=[2, 0])
    state.apply_action((2, 3, 4, 6, 6))  # zero: burnt, third bolt, penalty
    events = state.events
    assert events == [
        "P1 rolls 2,3,4,6,6: zero, 0 burnt",
        "P1 gets a bolt (3/3)",
        "P1 3 bolts: -100 (300 → 200)",
    ]
    events.append("junk")
    assert "junk" not in state.events
    assert state.public_view()["events"] == state.events
