"""The fast simulation path of Dice 1000: a roll picked by one uniform number and applied without checks.

Bot-versus-bot simulation (:func:`dicehall.core.simulate.play_game`) draws its uniform numbers in batches and
applies each roll through :func:`apply_uniform`: the roll comes from the engine's own outcome list, so it needs
no validation, its scoring is found by index instead of by hashing, and the common case (a scoring roll with no
confirmation, roll limit or exact landing in force) is applied inline. Everything else goes to the rules in
:class:`~dicehall.thousand.state.ThousandState`. ``tests/thousand/test_differential.py`` plays random games action
by action both ways and requires the same positions and events.

Measured (see docs/thousand.md): most of a bot game's time is the engine's, and this path is what keeps
``dicehall simulate thousand`` at its speed while the rules read plainly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from dicehall.core.errors import IllegalActionError
from dicehall.core.simulate import MAX_STEPS
from dicehall.i18n.message import Message as M
from dicehall.thousand.notation import ROLL, Action, Dice
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.tables import DECIDING, OUTCOMES, OVER, ROLL_OFF, ROLLING

if TYPE_CHECKING:
    from dicehall.thousand.state import ThousandState

_SIZES: tuple[int, ...] = tuple(len(o) for o in OUTCOMES)
_BATCH = 512


def play_out(
    state: ThousandState, agents: Sequence[Any], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    """Play a bot game to the end: :func:`dicehall.core.simulate.play_game`'s loop with the phase read directly
    and the dice from uniform numbers drawn in batches (the generator is left where one-by-one draws leave it)."""
    choosers = [agent.choose for agent in agents]
    apply = state.apply_action
    plain = _plain_rolls(state.rules)
    bitgen = chance_rng.bit_generator
    saved = bitgen.state
    buf: list[float] = chance_rng.random(_BATCH).tolist()[::-1]  # reversed: pop() hands them out in order
    rolling, over, roll_off = ROLLING, OVER, ROLL_OFF  # locals: read every step
    try:
        for _ in range(MAX_STEPS):
            phase = state._phase
            if phase == rolling or phase == roll_off:  # noqa: SIM109 (no tuple built per step)
                if not buf:
                    saved = bitgen.state
                    buf = chance_rng.random(_BATCH).tolist()[::-1]
                if phase == rolling:
                    _roll(state, buf.pop(), plain)
                else:
                    apply_uniform(state, buf.pop())
            elif phase == over:
                return True
            else:
                action = choosers[state._player](state, bot_rng)
                if action == ROLL and plain and not state.hot_dice:
                    # ThousandState._decide_roll without hot dice or a roll limit
                    state._forced = state._confirm = False
                    if state._ev:
                        state._ev = []
                    state._phase = rolling
                else:
                    apply(action)
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    finally:
        used = _BATCH - len(buf)
        bitgen.state = saved
        if used:
            chance_rng.random(used)


def apply_uniform(state: ThousandState, u: float) -> Action:
    """Apply the roll that ``u`` (``0 <= u < 1``) picks, as ``sample_chance`` would, and return it."""
    try:
        in_range = 0.0 <= u < 1.0  # False for NaN
    except TypeError:
        in_range = False
    if not in_range or isinstance(u, bool):
        raise IllegalActionError(M("thousand.refusal.uniform", value=repr(u)), rule="chance-uniform")
    if state._phase != ROLLING:
        if state._phase != ROLL_OFF:
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        die = OUTCOMES[1][int(u * 6)]
        state.apply_action(die)
        return die
    return _roll(state, u, _plain_rolls(state.rules))


def _plain_rolls(r: ThousandRules) -> bool:
    """No rule that can act on a scoring roll by itself (roll limit, golden win, free set-aside) is in force."""
    return not (r.max_rolls or r.golden_win or r.free_set_aside)


def _roll(state: ThousandState, u: float, plain: bool) -> Dice:
    """The roll ``u`` picks: inline for a scoring roll where nothing can end the turn, else by the rules."""
    k = state.in_hand
    dice, info = state._rolls_by_index[k][int(u * _SIZES[k])]
    if not (plain and info.points and not state._confirm and state._limit is None):
        state._roll(dice, info)
        return dice
    # ThousandState._roll, _take and _resolve for that case
    if state._ev:
        state._ev = []
    state.rolls += 1
    state.total_rolls += 1
    if state._forced:
        state._forced = False
    else:
        state._free_rolls += 1
    if k == 5:
        state.set_aside_dice = ()
    state.last_roll = dice
    state.last_combos = info.combos
    total = state.turn_total = state.turn_total + info.points
    kept = info.kept
    state.set_aside_dice += kept
    left = k - len(kept)
    if left == 0:
        state.hot_dice = True
        state.in_hand = 5
        state._ev.append(("thousand.narrate.hot", {"total": total}))
    else:
        state.in_hand = left
    state._phase = DECIDING
    return dice
