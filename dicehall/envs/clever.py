"""Ganz schön clever for environments: the observation vector and the action table.

Actions (187), built from the engine's own codes (:mod:`dicehall.clever.actions`): for a pick and for a +1, every
die onto every area it may go to (white: 16 yellow cells, 12 blue cells, green, orange, purple; a coloured die:
its own area) — 2 × 62; a yellow or blue bonus X on any of their 28 cells; a black X / black 6 on any of 31
targets; ``reroll``, ``forfeit``, ``stop``, ``pass``. Cells that can never be free (printed yellow ones) stay in
the table, always masked, so the table's shape follows the sheet.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, TRACK, CleverState
from dicehall.core.game import State
from dicehall.envs.codec import Codec, bits, one_hot, rotated

_TARGETS = (
    *((S.AREA_YELLOW, c) for c in range(16)),
    *((S.AREA_BLUE, c) for c in range(12)),
    (S.AREA_GREEN, 0),
    (S.AREA_ORANGE, 0),
    (S.AREA_PURPLE, 0),
)


def _action_table() -> tuple[int, ...]:
    out: list[int] = []
    for kind in (A.K_ENTRY, A.K_PLUS):
        for die in S.DICE:
            for area, cell in _TARGETS:
                if die == S.WHITE or S.AREA_OF_DIE[die] == area:
                    out.append(A.entry(die, area, cell, kind))
    out += [A.choose(area, cell) for area, cell in _TARGETS if area in (S.AREA_YELLOW, S.AREA_BLUE)]
    out += [A.choose(area, cell, black=True) for area, cell in _TARGETS]
    out += [A.REROLL, A.FORFEIT, A.STOP, A.PASS]
    return tuple(out)


ACTIONS = _action_table()
SHEET_FIELDS = (
    ("yellow cells crossed (16 bits, printed ones set)", 16),
    ("blue cells crossed (12 bits)", 12),
    ("green crosses / 11", 1),
    ("orange values / 6 (11 slots, 0 = empty)", TRACK),
    ("purple values / 6 (11 slots, 0 = empty)", TRACK),
    ("re-rolls left / 7, +1s left / 7, foxes / 7", 3),
    ("area scores (yellow, blue, green, orange, purple) / 100, total / 300", 6),
)
_SHEET_SIZE = sum(n for _, n in SHEET_FIELDS)


class CleverCodec(Codec):
    game = "clever"

    def __init__(self, num_players: int) -> None:
        super().__init__(num_players, ACTIONS)
        self.layout = (
            (
                "sheets (observer first), each: " + "; ".join(f"{t}" for t, _ in SHEET_FIELDS),
                num_players * _SHEET_SIZE,
            ),
            ("round / 6, rounds / 6, pick number / 3", 3),
            ("to do: pick, +1, passive pick, bonus choice", 4),
            ("pending bonus kind, one-hot 1–11", 11),
            ("the observer is the active player", 1),
            ("active seat, one-hot (observer first)", num_players),
            ("dice values / 6 (white, yellow, blue, green, orange, purple)", 6),
            ("dice still to roll (6 bits)", 6),
            ("dice on the field (6 bits)", 6),
            ("dice on the platter (6 bits)", 6),
            ("dice the observer used a +1 on this turn (6 bits)", 6),
        )

    def encode(self, state: State[Any], seat: int) -> np.ndarray:
        assert isinstance(state, CleverState)
        out: list[float] = []
        for q in rotated(state.n, seat):
            sh = state.sheets[q]
            out += bits(sh.ymask, 16)
            out += bits(sh.bmask, 12)
            out.append(sh.gcount / TRACK)
            out += [v / 6 for v in sh.ovals] + [0.0] * (TRACK - len(sh.ovals))
            out += [v / 6 for v in sh.pvals] + [0.0] * (TRACK - len(sh.pvals))
            out += (sh.rerolls / 7, sh.plus_ones / 7, sh.foxes / 7)
            areas = sh.area_scores()
            out += [a / 100 for a in areas]
            out.append((sum(areas) + sh.foxes * min(areas)) / 300)
        over = state.is_terminal()
        out += (state.round / 6, state.rounds / 6, state.rolls / 3)
        pending = state.pending_bonus()
        out += (
            float(state.phase == PH_PICK and pending is None and not over),
            float(state.phase == PH_PLUS and pending is None),
            float(state.phase == PH_PASSIVE_PICK and pending is None),
            float(pending is not None),
        )
        out += one_hot(11, pending[1] - 1 if pending is not None else -1)
        out.append(float(state.active == seat and not over))
        out += one_hot(state.n, (state.active - seat) % state.n if not over else -1)
        out += [v / 6 for v in state.values]
        field = 0
        for d in state.field:
            field |= 1 << d
        out += bits(state.roll_mask, 6)
        out += bits(field, 6)
        out += bits(state.platter, 6)
        out += bits(state.plus_used[seat], 6)
        return np.asarray(out, dtype=np.float32)

    def describe(self, index: int) -> str:
        return A.to_string(self.actions[index])
