"""bot:master's deeper search over the last round (kernel/search.py, ``Lookahead.deep_rounds``;
docs/clever-training.md, "A deeper search over the last round"), checked against an independent expectimax
written here through the engine's own states: the same rolls, the same candidates, the network only at leaves."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.master import Lookahead, MasterAgent, load_weights
from dicehall.clever.state import PH_PASSIVE_ROLL, CleverState
from tests.clever.helpers import mark, new, roll
from tools.master_eval import parse_lookahead

LOOK = Lookahead(rolls=12, margin=6.0, width=2, deep_rounds=1, deep_rolls=6)


class Expectimax:
    """The deep search's definition, through the engine: values in points for player 0."""

    def __init__(self, look: Lookahead) -> None:
        self.w = load_weights()[0]
        self.scratch = net.value_scratch(self.w[1], self.w[3])
        table, own = look.table, look.rolls
        self.outer = table[own : own + look.deep_outer] if look.deep_outer else table[:own]
        self.inner = table[len(table) - look.deep_rolls :]
        self.margin, self.width = look.margin, look.width

    def value(self, s: CleverState) -> float:
        """The network's value of a state, or its exact score once the game is over."""
        if s.is_terminal():
            return float(s.scores()[0])
        return net.afterstate_value(B.from_state(s), 0, *self.w, *self.scratch) * net.SCALE

    def rolled(self, s: CleverState, dice: np.ndarray) -> CleverState:
        child = s.clone()
        child.apply_action(K.chance_code(B.from_state(s), dice, np.zeros(6)))
        return child

    def one_roll(self, s: CleverState, rolls: np.ndarray) -> float:
        """The mean over ``rolls`` of the best plain value after each roll."""
        total = 0.0
        for dice in rolls:
            after = self.rolled(s, dice)
            if after.current_player() != 0:
                total += self.value(after)
            else:
                total += max(self.value(after.child(a)) for a in after.legal_actions())
        return total / len(rolls)

    def decide(self, s: CleverState, rolls: np.ndarray, deep: bool) -> dict[int, float]:
        """Every action's value: plain, the close ones leading to a roll replaced by the roll's mean value (two
        rolls deep with ``deep``)."""
        values = {a: self.value(s.child(a)) for a in s.legal_actions()}
        top, looked = max(values.values()), 0
        for a in sorted(values, key=lambda a: -values[a]):
            if looked >= self.width or values[a] < top - self.margin:
                break
            child = s.child(a)
            if child.is_chance_node():
                values[a] = self.two_rolls(child) if deep else self.one_roll(child, rolls)
                looked += 1
        return values

    def two_rolls(self, s: CleverState) -> float:
        total = 0.0
        for dice in self.outer:
            after = self.rolled(s, dice)
            if after.current_player() != 0:
                total += self.value(after)
            else:
                total += max(self.decide(after, self.inner, deep=False).values())
        return total / len(self.outer)


def _last_round() -> CleverState:
    """A solo sheet in its last round, its first roll made: foxes and a low area at stake."""
    s = new()
    for move in ("Y:Y.r1c1", "Y:Y.r2c2", "Y:Y.r3c3", "B:B.r1c2", "B:B.r1c3", "B:B.r2c1", "B:B.r2c2"):
        mark(s, 0, move)
    for move, value in (("G:G", 2), ("G:G", 4), ("O:O", 4), ("O:O", 5), ("O:O", 6), ("P:P", 3), ("P:P", 5)):
        mark(s, 0, move, value)
    s.round = s.rounds
    roll(s, "W3 Y5 B1 G4 O2 P6")
    return s


def _second_pick() -> CleverState:
    """The same turn at its second pick: the third pick's candidates lead to the solo passive roll."""
    s = _last_round()
    s.apply_action(MasterAgent(lookahead=None).choose(s, np.random.default_rng(0)))
    s.apply_action(K.chance_code(B.from_state(s), np.array([2, 6, 3, 5, 4, 1]), np.zeros(6)))
    return s


@pytest.mark.parametrize(
    ("position", "look"),
    [(_last_round, LOOK), (_second_pick, LOOK), (_second_pick, dataclasses.replace(LOOK, deep_outer=6))],
)
def test_the_deep_search_is_an_expectimax_over_two_rolls(
    position: Callable[[], CleverState], look: Lookahead
) -> None:
    s = position()
    assert s.round == s.rounds and s.current_player() == 0 and len(s.legal_actions()) > 2
    expected = Expectimax(look).decide(s, look.table[: look.rolls], deep=True)
    agent = MasterAgent(lookahead=look)
    got = dict(agent.lookahead_values(s))
    assert got.keys() == expected.keys()
    for action, value in expected.items():
        assert got[action] == pytest.approx(value, abs=1e-9)
    assert agent.choose(s, np.random.default_rng(0)) == max(expected, key=lambda a: expected[a])
    # two rolls deep is not the one-roll look-ahead under another name
    shallow = dict(MasterAgent(lookahead=Lookahead(rolls=12, margin=6.0, width=2)).lookahead_values(s))
    assert any(abs(shallow[a] - got[a]) > 1e-6 for a in got)


def test_the_deep_search_waits_for_its_rounds() -> None:
    s = _last_round()
    s.round = s.rounds - 1  # two rounds left: deep_rounds=1 plays as the one-roll look-ahead over every roll
    got = dict(MasterAgent(lookahead=LOOK).lookahead_values(s))
    every = dict(MasterAgent(lookahead=Lookahead(rolls=12, margin=6.0, width=2)).lookahead_values(s))
    assert got == pytest.approx(every, abs=1e-12)


def test_the_deep_search_is_off_by_default_and_read_by_the_scripts() -> None:
    assert Lookahead().deep_rounds == 0 and Lookahead().table.shape == (24, 6)
    assert parse_lookahead("24:3:2:deep=1/12") == Lookahead(deep_rounds=1, deep_rolls=12)
    assert parse_lookahead("24:3:2:deep=2/6/12") == Lookahead(deep_rounds=2, deep_rolls=6, deep_outer=12)
    assert LOOK.table.shape == (18, 6) and dataclasses.replace(LOOK, deep_outer=6).table.shape == (24, 6)
    with pytest.raises(ValueError, match="deep"):
        Lookahead(deep_rounds=1, deep_rolls=4)


def _best_final(s: CleverState) -> float | None:
    """The best final score of player 0 over every decision left, through the engine (None: a roll comes)."""
    if s.is_terminal():
        return float(s.scores()[0])
    if s.is_chance_node() or s.current_player() != 0:
        return None
    results = [_best_final(s.child(a)) for a in s.legal_actions()]
    return None if any(r is None for r in results) else max(r for r in results if r is not None)


def _after_the_last_roll(games: int) -> list[CleverState]:
    """Decisions of bot:master's solo games once the last passive roll is made, with more than one choice."""
    agent, found = MasterAgent(lookahead=None), []
    for seed in range(games):
        s = new()
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            if s.round == s.rounds and len(s.legal_actions()) > 1 and _best_final(s) is not None:
                found.append(s.clone())
            s.apply_action(agent.choose(s, rng))
    return found


def test_the_exact_end_values_every_action_by_the_best_final_score() -> None:
    positions = _after_the_last_roll(12)
    assert len(positions) >= 10
    agent = MasterAgent(lookahead=Lookahead(exact=100_000))
    plain = MasterAgent(lookahead=None)
    differs = 0
    for s in positions:
        got = dict(agent.lookahead_values(s))
        for action in s.legal_actions():
            assert got[action] == pytest.approx(_best_final(s.child(action)), abs=1e-9)
        best = max(got.values())
        assert got[agent.choose(s, np.random.default_rng(0))] == best
        differs += any(abs(v - got[a]) > 1e-6 for a, v in plain.values(s))
    assert differs > 0  # the network's values are not exact there
    # a search past the cap keeps the look-ahead's values
    capped = dict(MasterAgent(lookahead=Lookahead(exact=1)).lookahead_values(positions[0]))
    assert capped == pytest.approx(
        dict(MasterAgent(lookahead=Lookahead()).lookahead_values(positions[0])), abs=1e-12
    )


def _before_the_last_roll() -> CleverState:
    """A decision of a bot:master solo game with two actions or more that lead to the last passive roll."""
    agent = MasterAgent(lookahead=None)
    for seed in range(50):
        s = new()
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            if s.round == s.rounds:
                children = [s.child(a) for a in s.legal_actions()]
                if sum(c.is_chance_node() and c.phase == PH_PASSIVE_ROLL for c in children) >= 2:
                    return s
            s.apply_action(agent.choose(s, rng))
    raise AssertionError("no such position in 50 games")


def test_the_exact_end_looks_over_the_last_passive_roll() -> None:
    s = _before_the_last_roll()
    look = Lookahead(margin=1000.0, width=50, exact=100_000, exact_roll=True)
    got = dict(MasterAgent(lookahead=look).lookahead_values(s))
    plain = dict(MasterAgent(lookahead=None).values(s))
    looked = 0
    for action in s.legal_actions():
        child = s.child(action)
        if not child.is_chance_node():
            assert got[action] == pytest.approx(plain[action], abs=1e-9)
            continue
        if child.phase != PH_PASSIVE_ROLL:  # a re-roll: the one-roll look-ahead of the same turn
            continue
        finals = []
        for dice in look.table:
            rolled = child.clone()
            rolled.apply_action(K.chance_code(B.from_state(child), dice, np.zeros(6)))
            final = _best_final(rolled)
            assert final is not None
            finals.append(final)
        assert got[action] == pytest.approx(np.mean(finals), abs=1e-9)
        looked += 1
    assert looked >= 2
    assert parse_lookahead("24:3:2:exact=500/roll") == Lookahead(exact=500, exact_roll=True)
