"""The fast simulation path of yard's ``bot:optimal`` against itself: whole games in the compiled kernel.

:mod:`yard_bot` registers :func:`play_out` for games of ``yard_bot.YardTableBot`` alone
(:mod:`dicehall.core.playout`); it takes the game when both seats play from the same table (explanations off, two
players), as :mod:`playout` does for classic. The game goes on in :mod:`yard_playout_kernel` with the same dice
(one ``chance_rng.random()`` per roll) and the same decisions (yard's compiled turn, kept per position). The
kernel stops before the bank or the roll that wins: the position is written back into the state and the engine
applies that step, so the finished state (scores, statistics, the last narration) is the engine's. A position the
table does not hold goes on through :mod:`dicehall.thousand.fast` with the bots (which refuse it).
``tests/thousand/test_yard_playout.py`` checks game by game that both paths reach the same final position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import numpy.typing as npt

from dicehall.core.simulate import MAX_STEPS
from dicehall.thousand import fast
from dicehall.thousand.solver import playout_kernel as PK
from dicehall.thousand.solver import yard_playout_kernel as K
from dicehall.thousand.solver.yard_space import kernel_tables
from dicehall.thousand.state import BANK, ThousandState
from dicehall.thousand.tables import DECIDING, ROLL_OFF, ROLLING, roll_lists

if TYPE_CHECKING:
    from dicehall.thousand.solver.yard_bot import Values

_SEAT_LISTS = ("score", "opened", "opening_score", "open_fails", "bolts", "on_barrel", "attempts", "falls")
_FLAGS = ("opened", "on_barrel", "skip_next")
CAPACITY = 1 << 15
"""Positions whose decisions the kernel keeps (≈ 1 KB each on yard; the oldest forgotten first)."""


class YardGameTables:
    """What the kernel reads besides the game: the rule options, pits, each ordered roll's points, kept dice,
    golden win and pair re-roll, the index of each player state, the table's values and the kept decisions."""

    def __init__(self, table: Values, capacity: int = CAPACITY) -> None:
        space = table.space
        r = space.rules
        floor = space.model.seat.floor
        R = np.zeros(PK.R_SIZE, dtype=np.int64)
        R[PK.TARGET] = r.target
        R[PK.BARREL] = 1  # yard-like rules: a score barrel (yard.covers)
        R[PK.BARREL_SCORE] = r.barrel_score
        R[PK.BARREL_ATTEMPTS] = r.barrel_attempts
        R[PK.FALL_PENALTY] = r.barrel_fall_penalty
        R[PK.FALLS_TO_ZERO] = r.barrel_falls_to_zero
        R[PK.KNOCK_FALL] = r.barrel_knock == "fall"
        R[PK.OPEN_MIN] = r.open_min
        R[PK.BOLTS_ON] = r.bolts
        R[PK.BOLTS_COUNT] = r.bolts_count
        R[PK.BOLT_PENALTY] = r.bolt_penalty
        R[PK.BOLTS_EVERYWHERE] = r.bolts_everywhere
        R[PK.OVERTAKE] = r.overtake_penalty
        R[PK.DUMP] = r.dump_truck
        R[PK.DUMP_SCORE] = r.dump_truck_score
        R[PK.FLOOR] = floor
        R[PK.FALL_STATES] = max(r.barrel_falls_to_zero, 1)  # size.Seat.canonical: falls kept below that
        R[PK.STEP] = 5
        self.R = R
        Y = np.zeros(K.Y_SIZE, dtype=np.int64)
        Y[K.MAX_ROLLS] = r.max_rolls
        Y[K.CONFIRMS] = r.hot_dice == "confirm"
        Y[K.RECONFIRM] = r.reconfirm_hot
        Y[K.GOLDEN] = r.golden_win
        Y[K.EXACT_RESET] = r.exact_reset
        Y[K.SKIP_ON_ZERO] = r.skip_on_zero_first
        self.Y = Y
        self.pits = np.array(r.pits, dtype=np.int64).reshape(-1, 2)
        self.rolls = roll_lists(r.kinds)
        shape = (6, 6**5)
        self.points = np.zeros(shape, dtype=np.int64)
        self.kept = np.zeros(shape, dtype=np.int64)
        self.golden = np.zeros(shape, dtype=np.int64)
        self.pair = np.zeros(shape, dtype=np.int64)
        for k in range(1, 6):
            for i, (dice, info) in enumerate(self.rolls[k]):
                self.points[k, i] = info.points
                self.kept[k, i] = len(info.kept)
                self.golden[k, i] = info.golden
                # ThousandState._roll: two dice beside three set aside (in hand 2 means that) as a pair
                self.pair[k, i] = r.pair_reroll and k == 2 and info.points == 0 and dice[0] == dice[1]
        self.sizes = np.array([6**k for k in range(6)], dtype=np.int64)
        states = space.states
        shape5 = (
            (max(p.score for p in states) - floor) // 5 + 1,
            2,
            max(p.bolts for p in states) + 1,
            max(p.falls for p in states) + 1,
            max(p.attempts for p in states) + 1,
        )
        self.index = np.full(shape5, -1, dtype=np.int64)
        for i, p in enumerate(states):
            self.index[(p.score - floor) // 5, int(p.opened), p.bolts, p.falls, p.attempts] = i
        size = space.size
        half = size * size
        width = space.bank_next.shape[1]
        rr = r.max_rolls + 1 if r.max_rolls else 1
        rows = numba.typed.Dict.empty(key_type=numba.types.int64, value_type=numba.types.int64)
        work = (
            np.empty((width, 1)),
            np.empty((3, 1)),
            np.empty((width, 6, rr, 1)),
            np.empty((width, 6, rr, 1)),
            np.empty((width, rr, 1)),
            np.empty(1),
        )
        store = (
            rows,
            np.zeros((capacity, width, rr), dtype=np.uint8),
            np.zeros(capacity, dtype=np.int64),
            np.full(capacity, -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
        )
        tables = kernel_tables(space)
        # every array a plain argument of the kernel (yard_playout_kernel.play says why)
        self.args: tuple[Any, ...] = (
            self.R,
            self.Y,
            self.pits,
            self.points,
            self.kept,
            self.golden,
            self.pair,
            self.sizes,
            self.index,
            table.values[:half].reshape(size, size),
            table.values[half:].reshape(size, size),
            *tables[:13],
            *tables[13],  # type: ignore[misc]
            *store,
            *work,
        )


_MADE: dict[int, tuple[Values, YardGameTables]] = {}
_MADE_KEEP = 2


def game_tables(table: Values) -> YardGameTables:
    """The kernel's tables of ``table``, made once per table (the last two kept)."""
    found = _MADE.get(id(table))
    if found is not None and found[0] is table:
        return found[1]
    made = YardGameTables(table)
    if len(_MADE) >= _MADE_KEEP:
        del _MADE[next(iter(_MADE))]
    _MADE[id(table)] = (table, made)  # the table kept with it: its id is not reused while here
    return made


def shared_table(agents: Sequence[Any]) -> Values | None:
    """The table every agent plays from, when every seat is a plain yard ``bot:optimal`` on the same one."""
    from dicehall.thousand.solver.yard_bot import YardTableBot

    if not agents or any(type(a) is not YardTableBot or a.explain for a in agents):
        return None
    table: Values = agents[0].table
    return table if all(a.table is table for a in agents) else None


def play_out(
    state: ThousandState, agents: Sequence[Any], chance_rng: np.random.Generator, bot_rng: np.random.Generator
) -> bool:
    """Finish a two-player yard game of ``bot:optimal`` against itself (same table) in the kernel; False
    (nothing done) where this path does not apply: other bots or seats, or a position mid-way through what it
    does not model."""
    from dicehall.thousand.solver.playout import _same_rules

    table = shared_table(agents)
    if (
        table is None
        or state.n != 2
        or not _same_rules(state.rules, table.space.rules)
        or state.phase not in (ROLLING, DECIDING, ROLL_OFF)
        or any(state.out)
        or state.lead_watch is not None  # the kernel does not follow the lead: the engine's own path does
    ):
        return False
    while state.phase == ROLL_OFF:
        state.apply_chance_uniform(chance_rng.random())
    tabs = game_tables(table)
    g, seat = _to_arrays(state)
    u = np.zeros(1)
    status = K.play(g, seat, u, chance_rng, MAX_STEPS, *tabs.args)
    if status == K.TOO_LONG:
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    _write_back(g, seat, state, tabs)
    if status == K.WIN_BANK:
        state.apply_action(BANK)
        return True
    if status == K.WIN_ROLL:
        state.roll_by_uniform(float(u[0]))
        return True
    return fast.play_out(state, agents, chance_rng, bot_rng)


def _to_arrays(state: ThousandState) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    g = np.zeros(K.G_SIZE, dtype=np.int64)
    g[PK.PLAYER] = state.player
    g[PK.PHASE] = K.ROLLING if state.phase == ROLLING else K.DECIDING
    g[PK.TOTAL] = state.turn_total
    g[PK.IN_HAND] = state.in_hand
    g[PK.HOT] = state.hot_dice
    g[PK.FORCED] = state._forced
    g[K.CONFIRM] = state._confirm
    g[PK.ROLLS] = state.rolls
    g[PK.FREE] = state._free_rolls
    g[PK.TURNS] = state.turns
    g[PK.TOTAL_ROLLS] = state.total_rolls
    g[PK.BOLT_TOTAL] = state._bolt_total
    g[PK.FALL_TOTAL] = state._fall_total
    g[PK.OVERTAKES] = state._overtakes
    g[PK.DUMPS] = state._dumps
    g[PK.ANYONE] = state.anyone_banked
    g[PK.NEED] = state._need
    g[PK.NEED_RULE] = PK.NEED_RULES.index(state._need_rule)
    assert state._limit is not None  # yard-like rules: the exact target
    g[K.LIMIT] = state._limit
    g[K.ROW] = -2
    lists = [getattr(state, name) for name in _SEAT_LISTS] + [state.skip_next]
    seat = np.array([[int(v) for v in values] for values in lists], dtype=np.int64)
    return g, seat


def _write_back(
    g: npt.NDArray[np.int64], seat: npt.NDArray[np.int64], state: ThousandState, tabs: YardGameTables
) -> None:
    """The kernel's position (at a roll or a decision) into ``state``, as the engine would have left it."""
    if not g[K.MOVED]:
        return  # stopped where it began: nothing moved
    for row, name in enumerate((*_SEAT_LISTS, "skip_next")):
        values = seat[row].tolist()
        setattr(state, name, [bool(v) for v in values] if name in _FLAGS else values)
    state.player = int(g[PK.PLAYER])
    state.phase = ROLLING if g[PK.PHASE] == K.ROLLING else DECIDING
    state.turn_total = int(g[PK.TOTAL])
    state.in_hand = int(g[PK.IN_HAND])
    state.hot_dice = bool(g[PK.HOT])
    state._forced = bool(g[PK.FORCED])
    state._confirm = bool(g[K.CONFIRM])
    state.rolls = int(g[PK.ROLLS])
    state._free_rolls = int(g[PK.FREE])
    state.turns = int(g[PK.TURNS])
    state.total_rolls = int(g[PK.TOTAL_ROLLS])
    state._bolt_total = int(g[PK.BOLT_TOTAL])
    state._fall_total = int(g[PK.FALL_TOTAL])
    state._overtakes = int(g[PK.OVERTAKES])
    state._dumps = int(g[PK.DUMPS])
    state.anyone_banked = bool(g[PK.ANYONE])
    state._need = int(g[PK.NEED])
    state._need_rule = PK.NEED_RULES[int(g[PK.NEED_RULE])]
    state._limit = int(g[K.LIMIT])
    rolls = tabs.rolls
    kept = tuple(
        d for j in range(int(g[PK.NKEPT])) for d in rolls[g[PK.KEPT_K + j]][g[PK.KEPT_I + j]][1].kept
    )
    state.set_aside_dice = kept if g[PK.CLEARED] else state.set_aside_dice + kept
    if g[PK.NEW_ROLLS]:
        dice, info = rolls[g[PK.LAST_K]][g[PK.LAST_I]]
        state.last_roll = dice
        state.last_combos = info.combos
    state._ev = []  # the engine's next step (a roll, or the bank that wins) begins by clearing it
    state.pending_roll = None
