"""bot:master's low-tail corrections (kernel/search.py; docs/clever-training.md, "The low tail"), checked against
the engine's own sheet arithmetic on real positions: the lowest-area bonus and the "fox product at stake" test."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel import search as SR
from dicehall.clever.master import Lookahead, MasterAgent, load_weights
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.core.rng import seeded_rng
from tests.clever.helpers import mark, new, roll
from tools.master_eval import paired_tail, parse_lookahead, worst_tenth


def _decisions(seed: int, count: int) -> list[CleverState]:
    """``count`` decision positions of a solo game played by bot:master (its values vary the sheets)."""
    agent = MasterAgent(lookahead=None)
    state = CleverState(CleverRules.from_preset(), 1)
    rng = seeded_rng(seed)
    out = []
    while not state.is_terminal() and len(out) < count:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        if len(state.legal_actions()) > 1:
            out.append(state.clone())
        state.apply_action(agent.choose(state, rng))
    return out


def _lowest(state: CleverState) -> int:
    return min(state.sheets[0].area_scores())


def test_the_low_bonus_is_the_lowest_area_of_each_afterstate_the_game_goes_on_from() -> None:
    w = load_weights()[0]
    out, values = net.decision_scratch()
    seen_nonzero = 0
    for state in _decisions(5, 200):
        g = B.from_state(state)
        k = net.afterstate_values(g, 0, *w, out, values)
        plain = values[:k].copy()
        SR.add_low_bonus(g, 0, out, values, k, 0.25, 0)
        for i, action in enumerate(out[:k].tolist()):
            child = state.child(action)
            expected = 0.0 if child.is_terminal() else 0.25 * _lowest(child)
            assert values[i] - plain[i] == pytest.approx(expected, abs=1e-12)
            seen_nonzero += expected > 0
    assert seen_nonzero > 0  # positions late enough that the lowest area scores


def test_the_bonus_of_a_hand_made_sheet() -> None:
    s = new()
    for move in ("Y:Y.r1c1", "Y:Y.r2c1", "Y:Y.r3c1", "B:B.r1c2", "B:B.r1c3", "B:B.r1c4", "B:B.r2c1"):
        mark(s, 0, move)
    for move, value in (("G:G", 2), ("G:G", 4), ("O:O", 4), ("O:O", 5), ("P:P", 3), ("P:P", 5)):
        mark(s, 0, move, value)
    assert s.sheets[0].area_scores() == [10, 7, 3, 14, 8]  # green's 3 is the multiplier
    roll(s, "W1 Y2 B1 G5 O2 P1")
    g = B.from_state(s)
    out, values = net.decision_scratch()
    k = K.legal(g, out)
    values[:k] = 0.0
    SR.add_low_bonus(g, 0, out, values, k, 1.0, 0)
    by_action = {s.action_to_string(a): v for a, v in zip(out[:k].tolist(), values[:k], strict=True)}
    assert by_action["O:O"] == by_action["reroll"] == 3.0  # green stays the lowest
    assert by_action["G:G"] == 6.0  # green's third cross: 6 points, still the lowest


def test_fox_at_stake_is_a_close_candidate_with_other_fox_points() -> None:
    out, values = net.decision_scratch()
    rng = np.random.default_rng(3)
    answers = set()
    for state in _decisions(9, 250):
        g = B.from_state(state)
        k = K.legal(g, out)
        values[:k] = rng.normal(0.0, 1.0, k)
        margin = 0.8
        best = int(np.argmax(values[:k]))
        fox = [state.child(a).sheets[0].fox_points() for a in out[:k].tolist()]
        expected = any(fox[i] != fox[best] and values[i] >= values[best] - margin for i in range(k))
        assert SR.fox_at_stake(g, 0, out, values, k, margin) == expected
        answers.add(expected)
    assert answers == {True, False}


def test_the_corrections_are_off_by_default_and_change_the_play_when_on() -> None:
    state = next(
        s
        for s in _decisions(5, 200)
        if any(not c.is_terminal() and _lowest(c) > 0 for c in map(s.child, s.legal_actions()))
    )
    assert not Lookahead().tail.any()
    look = Lookahead(low=2.0)
    assert look.tail[SR.TAIL_LOW] == pytest.approx(2.0 / net.SCALE)
    default = dict(MasterAgent().lookahead_values(state))
    low = dict(MasterAgent(lookahead=look).lookahead_values(state))
    assert any(abs(low[a] - default[a]) > 1e-9 for a in default)
    with pytest.raises(ValueError, match="wide"):
        Lookahead(wide_width=-1)


def test_the_scripts_read_the_corrections() -> None:
    look = parse_lookahead("24:3:2:low=0.5:wide=9/4/2")
    assert look == Lookahead(24, 3.0, 2, False, low=0.5, wide_margin=9.0, wide_width=4, wide_rounds=2)
    assert parse_lookahead("24:3:2:all") == Lookahead(every_roll=True)
    with pytest.raises(ValueError, match="unknown"):
        parse_lookahead("24:3:2:deep")


def test_the_risk_term_is_the_mean_shortfall_below_the_mean_over_the_rolls() -> None:
    w = load_weights()[0]
    rolls = Lookahead().table
    out, values = net.decision_scratch()
    keys = np.zeros(6)
    checked = 0
    for state in _decisions(7, 60):
        g = B.from_state(state)
        for action in state.legal_actions():
            h = g.copy()
            K.apply(h, action)
            if not SR.leads_to_roll(action, h, 0, False):
                continue
            seen = []
            for r in range(rolls.shape[0]):
                rolled = h.copy()
                K.apply(rolled, K.chance_code(rolled, rolls[r], keys))
                seen.append(net.best_value(rolled, 0, *w, out, values))
            mean = float(np.mean(seen))
            shortfall = float(np.mean([max(mean - v, 0.0) for v in seen]))
            tail = Lookahead(risk=0.5).tail
            assert SR.next_roll_value(h, 0, rolls, *w, tail) == pytest.approx(
                mean - 0.5 * shortfall, abs=1e-12
            )
            assert SR.next_roll_value(h, 0, rolls, *w, SR.TAIL_OFF) == pytest.approx(mean, abs=1e-12)
            checked += shortfall > 0
            break
    assert checked > 5


def test_the_tail_figures_of_the_eval_script() -> None:
    scores = np.arange(100, 300, dtype=float)  # 200 games: the worst tenth is 100..119
    assert worst_tenth(scores) == pytest.approx(109.5)
    shifted = paired_tail(scores + 3.0, scores)  # every game 3 points better on the same dice
    assert shifted == {"p10": [3.0, 3.0, 3.0], "worst_tenth": [3.0, 3.0, 3.0]}
    best_only = scores.copy()
    best_only[-20:] += 50.0  # only the best tenth moves: the tail does not
    assert paired_tail(best_only, scores)["worst_tenth"][0] == 0.0
