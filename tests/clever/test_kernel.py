"""The compiled kernel against the engine: random games played through both, action by action.

At every step the player to move, the legal actions (same order), the turn (dice, fields, platter, rolls, +1
used, pending players and bonuses), every sheet (masks, counters, written values, action bars, foxes) and every
score must agree, and the kernel's dice draw must equal the engine's for the same
generator state. Rule options and player counts vary from game to game.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dicehall.clever import actions as A
from dicehall.clever.kernel import bridge as B
from dicehall.clever.kernel import rules as K
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_ROLL, PH_PICK, CleverState
from dicehall.core.agents import RandomAgent
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game

VARIANTS = (
    {},
    {"auto_single_choice": False},
    {"passive_fallback": False},
    {"rounds": 2},
)


def _rules(i: int) -> CleverRules:
    return CleverRules.from_preset("standard", VARIANTS[(i // 4) % len(VARIANTS)])


def play_both(seed: int, players: int, rules: CleverRules, seen: Counter[str]) -> int:
    """One random game through engine and kernel in lockstep; returns the number of steps."""
    state = CleverState(rules, players)
    g = B.new_array(rules, players)
    dice, dice_k, bot = seeded_rng(seed), seeded_rng(seed), agent_rng(seed)
    out = np.empty(K.MAX_LEGAL, np.int64)
    steps = 0
    while True:
        who = state.current_player()
        assert K.current_player(g) == who, f"step {steps}: player to move"
        flat = g.tolist()
        assert B.kernel_turn(flat) == B.turn_summary(state), f"step {steps}: turn"
        for p, sh in enumerate(state.sheets):
            assert B.kernel_sheet(flat, p) == B.sheet_summary(sh), f"step {steps}: sheet {p}"
        assert K.totals(g).tolist() == [s.total() for s in state.sheets], f"step {steps}: scores"
        if who == TERMINAL:
            assert K.legal(g, out) == 0
            return steps
        if who == CHANCE:
            action = state.sample_chance(dice)
            vals = dice_k.integers(1, 7, size=6)  # the engine's draws, turned into an outcome by the kernel
            keys = dice_k.random(6) if state.phase == PH_PASSIVE_ROLL else np.zeros(6)
            assert K.chance_code(g, vals, keys) == action, f"step {steps}: dice"
            seen["passive roll" if action & (63 << 18) else "roll"] += 1
        else:
            legal = state.legal_actions()
            k = K.legal(g, out)
            assert out[:k].tolist() == legal, f"step {steps}: legal actions"
            action = legal[int(bot.integers(len(legal)))]
            seen[_label(state, action)] += 1
        state.apply_action(action)
        K.apply(g, action)
        steps += 1


def _label(state: CleverState, action: int) -> str:
    if state.choice_pending:
        return "bonus choice"
    kind = A.kind_of(action)
    if kind == A.K_ENTRY:
        return "active pick" if state.phase == PH_PICK else "passive pick"
    return ("entry", "+1", "reroll", "forfeit", "stop", "pass", "choose", "black")[kind]


def run_differential(games: int, root: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    for i in range(games):
        players = 1 + i % 4
        play_both(game_seed(root, i), players, _rules(i), seen)
        seen[f"{players} players"] += 1
    return seen


def test_kernel_matches_engine_action_by_action() -> None:
    seen = run_differential(2000, 12)
    # every phase was exercised, so the comparison covered it
    for label in (
        "roll",
        "passive roll",
        "active pick",
        "passive pick",
        "+1",
        "reroll",
        "forfeit",
        "stop",
        "pass",
        "bonus choice",
        "1 players",
        "4 players",
    ):
        assert seen[label] > 0, label


@pytest.mark.slow
@pytest.mark.timeout(3600)  # about 20 minutes of one core
def test_kernel_matches_engine_100k_games() -> None:
    seen = run_differential(100_000, 1212)
    assert seen["bonus choice"] > 100_000


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_finish_random_is_the_engine_game(players: int) -> None:
    """Simulation through the kernel gives the very game the engine path plays for the same seed."""
    rules = CleverRules.from_preset()
    for i in range(25):
        seed = game_seed(5, i)
        ref = CleverState(rules, players)
        play_game(ref, [RandomAgent()] * players, seeded_rng(seed), agent_rng(seed), fast=False)
        fast = CleverState(rules, players)
        B.finish_random(fast, seeded_rng(seed), agent_rng(seed))
        assert fast.is_terminal()
        assert fast.scores() == ref.scores()
        assert fast.returns() == ref.returns()
        assert fast.stats() == ref.stats()
        assert B.turn_summary(fast) == B.turn_summary(ref)
        assert fast.actor == ref.actor
        for a, b in zip(fast.sheets, ref.sheets, strict=True):
            assert B.sheet_summary(a) == B.sheet_summary(b)


def test_from_state_mid_game_continues_identically() -> None:
    """A position handed over in the middle of a turn (bonus choices pending, passive steps, +1) plays on alike."""
    rules = CleverRules.from_preset("standard", {"auto_single_choice": False})
    for i in range(60):
        players = 1 + i % 4
        seed = game_seed(77, i)
        state = CleverState(rules, players)
        dice, bot = seeded_rng(seed), agent_rng(seed)
        cut = 20 + 7 * i
        for _ in range(cut):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(state.sample_chance(dice))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(bot.integers(len(legal)))])
        g = B.from_state(state)
        s1, s2 = seeded_rng(i), seeded_rng(i)
        b1, b2 = agent_rng(i), agent_rng(i)
        play_game(state, [RandomAgent()] * players, s1, b1, fast=False)
        K.play_random(g, s2, b2)
        assert [K.total(g, p) for p in range(players)] == [int(x) for x in state.scores()]
        for p, sh in enumerate(state.sheets):
            assert B.kernel_sheet(g, p) == B.sheet_summary(sh)
