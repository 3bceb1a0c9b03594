"""The fast simulation path of Dice 1000: a bot game played to the end with the dice drawn in batches.

:func:`play_out` is :func:`dicehall.core.simulate.play_game`'s loop with the phase read directly, the uniform
numbers drawn in batches, and the commonest steps taken through the state's shortcuts
(:meth:`~dicehall.thousand.state.ThousandState.roll_by_uniform` and
:meth:`~dicehall.thousand.state.ThousandState.roll_again`): the roll comes from the engine's own outcome list, so
it needs no validation, and its scoring is found by index instead of by hashing. ``tests/thousand/
test_differential.py`` plays random games both ways and requires the same positions and events.

:mod:`dicehall.thousand.bots` registers it for every Dice 1000 bot game (:mod:`dicehall.core.playout`).
Measured (see docs/thousand.md): most of a bot game's time is the engine's, and this path is what keeps
``dicehall simulate thousand`` at its speed while the rules read plainly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.core.simulate import MAX_STEPS
from dicehall.thousand.notation import ROLL
from dicehall.thousand.state import ThousandState
from dicehall.thousand.tables import OVER, ROLL_OFF, ROLLING

_BATCH = 512


def play_out(
    state: ThousandState, agents: Sequence[Any], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    """Play a bot game to the end (the generator is left where one-by-one draws leave it); False, doing
    nothing, when a seat is out (resigned): the shortcuts assume every seat plays."""
    if True in state.out:
        return False
    choosers = [agent.choose for agent in agents]
    apply, roll, roll_again, roll_off = (
        state.apply_action,
        state.roll_by_uniform,
        state.roll_again,
        state.apply_chance_uniform,
    )
    bitgen = chance_rng.bit_generator
    saved = bitgen.state
    buf: list[float] = chance_rng.random(_BATCH).tolist()[::-1]  # reversed: pop() hands them out in order
    rolling, over, rolling_off = ROLLING, OVER, ROLL_OFF  # locals: read every step
    try:
        for _ in range(MAX_STEPS):
            phase = state.phase
            if phase == rolling or phase == rolling_off:  # noqa: SIM109 (no tuple built per step)
                if not buf:
                    saved = bitgen.state
                    buf = chance_rng.random(_BATCH).tolist()[::-1]
                if phase == rolling:
                    roll(buf.pop())
                else:
                    roll_off(buf.pop())
            elif phase == over:
                return True
            else:
                action = choosers[state.player](state, bot_rng)
                if action == ROLL:
                    roll_again()
                else:
                    apply(action)
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    finally:
        used = _BATCH - len(buf)
        bitgen.state = saved
        if used:
            chance_rng.random(used)
